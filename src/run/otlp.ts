/**
 * A run as OpenTelemetry traces, for trace viewers that read OTLP: the OTLP/JSON encoding of an
 * `ExportTraceServiceRequest`, with the GenAI semantic conventions (`gen_ai.*`).
 *
 *   invoke_agent parent                      the whole run
 *   ├── chat <model>                         one span per model call, with its usage
 *   ├── execute_tool bash                    one span per tool call
 *   └── execute_tool task                    a task call...
 *       └── invoke_agent subagent-1          ...and the subagent it started
 *           ├── chat <model>
 *           └── execute_tool read_file
 *
 * Ids are hex (trace 32 digits, span 16), derived from the record's id so that one run exports
 * the same way twice; times are Unix nanoseconds as decimal strings (64-bit integers in JSON);
 * attributes are typed values (`stringValue`, `intValue` as a string, `doubleValue`, ...).
 * The own record format stays the export that opens again in the playground.
 */
import type { AgentId, Usage } from '../core/messages';
import type { RunRecord } from './record';

export type OtlpValue =
  | { stringValue: string }
  | { intValue: string }
  | { doubleValue: number }
  | { boolValue: boolean }
  | { arrayValue: { values: OtlpValue[] } };

export interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 internal, 3 client (a model call goes out to the API). */
  kind: 1 | 3;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpAttribute[];
  status: { code: 0 | 1 | 2; message?: string };
}

export interface OtlpTraces {
  resourceSpans: Array<{
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: Array<{ scope: { name: string; version: string }; spans: OtlpSpan[] }>;
  }>;
}

const SPAN_KIND_INTERNAL = 1;
const SPAN_KIND_CLIENT = 3;
const STATUS_UNSET = 0;
const STATUS_ERROR = 2;

/** A typed attribute value. */
function value(v: string | number | boolean | string[]): OtlpValue {
  if (Array.isArray(v)) return { arrayValue: { values: v.map((s) => ({ stringValue: s })) } };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  return { stringValue: v };
}

function attributes(
  entries: Record<string, string | number | boolean | string[] | undefined>,
): OtlpAttribute[] {
  const out: OtlpAttribute[] = [];
  for (const [key, v] of Object.entries(entries)) if (v !== undefined) out.push({ key, value: value(v) });
  return out;
}

/** 64 bits of FNV-1a over a text, as 16 hex digits (never all zeros). */
function hash64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    h ^= BigInt(text.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return (h || 1n).toString(16).padStart(16, '0');
}

/** Epoch milliseconds (fractions too) as Unix nanoseconds, a decimal string. */
function nanos(ms: number): string {
  const micros = BigInt(Math.round(ms * 1000));
  return (micros * 1000n).toString();
}

/** The run as OTLP/JSON traces (see the top of this file). */
export function toOtlp(record: RunRecord): OtlpTraces {
  const traceId = hash64(`${record.id} trace`) + hash64(`${record.id} trace 2`);
  let spanNo = 0;
  const newSpanId = () => hash64(`${record.id} span ${++spanNo}`);
  const at = (t: number) => nanos(record.startedAt + t);
  const end = record.events.at(-1)?.t ?? 0;
  const provider = record.settings.provider === 'anthropic' ? 'anthropic' : 'demo';
  const spans: OtlpSpan[] = [];
  const span = (
    name: string,
    kind: 1 | 3,
    parent: string | undefined,
    start: number,
    finish: number,
    attrs: OtlpAttribute[],
    error?: string,
  ): OtlpSpan => {
    const made: OtlpSpan = {
      traceId,
      spanId: newSpanId(),
      ...(parent ? { parentSpanId: parent } : {}),
      name,
      kind,
      startTimeUnixNano: at(start),
      endTimeUnixNano: at(Math.max(start, finish)),
      attributes: attrs,
      status: error ? { code: STATUS_ERROR, message: error } : { code: STATUS_UNSET },
    };
    spans.push(made);
    return made;
  };

  const root = span(
    'invoke_agent parent',
    SPAN_KIND_INTERNAL,
    undefined,
    0,
    end,
    attributes({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': provider,
      'gen_ai.agent.name': 'parent',
      'gen_ai.request.model': record.settings.model,
      'gen_ai.conversation.id': record.id,
    }),
  );
  const agentSpans = new Map<AgentId, OtlpSpan>([['parent', root]]);
  /** The span of each task call, by its tool-use id: the parent of the subagent it starts. */
  const toolSpans = new Map<string, OtlpSpan>();
  const openCalls = new Map<AgentId, { t: number; call: number }>();
  const openTools = new Map<string, { t: number; name: string; input: unknown }>();
  const failed = new Map<AgentId, string>();

  for (const event of record.events) {
    switch (event.type) {
      case 'spawn': {
        const parent = toolSpans.get(event.taskId) ?? agentSpans.get(event.from) ?? root;
        const made = span(
          `invoke_agent ${event.agent}`,
          SPAN_KIND_INTERNAL,
          parent.spanId,
          event.t,
          end,
          attributes({
            'gen_ai.operation.name': 'invoke_agent',
            'gen_ai.provider.name': provider,
            'gen_ai.agent.name': event.agent,
            'gen_ai.agent.description': event.description || undefined,
            'gen_ai.tool.call.id': event.taskId,
          }),
        );
        agentSpans.set(event.agent, made);
        break;
      }
      case 'agent_state': {
        const made = agentSpans.get(event.agent);
        if (!made) break;
        made.endTimeUnixNano = at(event.t);
        if (event.state === 'failed' || event.state === 'stopped' || event.state === 'missing') {
          made.status = { code: STATUS_ERROR, message: event.state };
        }
        break;
      }
      case 'model_start':
        openCalls.set(event.agent, { t: event.t, call: event.call });
        break;
      case 'model_end': {
        const started = openCalls.get(event.agent);
        if (!started) break;
        openCalls.delete(event.agent);
        const usage: Usage | undefined = event.usage;
        span(
          `chat ${record.settings.model}`,
          SPAN_KIND_CLIENT,
          agentSpans.get(event.agent)?.spanId,
          started.t,
          event.t,
          attributes({
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name': provider,
            'gen_ai.request.model': record.settings.model,
            'gen_ai.agent.name': event.agent,
            'gen_ai.response.finish_reasons': event.stopReason ? [event.stopReason] : undefined,
            'gen_ai.usage.input_tokens': usage?.input_tokens,
            'gen_ai.usage.output_tokens': usage?.output_tokens,
            'gen_ai.usage.cache_read.input_tokens': usage?.cache_read_input_tokens ?? undefined,
            'gen_ai.usage.cache_creation.input_tokens': usage?.cache_creation_input_tokens ?? undefined,
            's04.call': started.call,
          }),
          failed.get(event.agent),
        );
        failed.delete(event.agent);
        break;
      }
      case 'error':
        failed.set(event.agent, event.error);
        break;
      case 'tool_start':
        openTools.set(`${event.agent} ${event.id}`, { t: event.t, name: event.name, input: event.input });
        // A task's span is made now: the subagent it starts (spawned before it ends) hangs under it.
        if (event.name === 'task' || event.name === 'Task' || event.name === 'Agent') {
          toolSpans.set(event.id, toolSpan(event.agent, event.id, event.name, event.t, event.t));
        }
        break;
      case 'tool_end': {
        const key = `${event.agent} ${event.id}`;
        const started = openTools.get(key);
        if (!started) break;
        openTools.delete(key);
        const made = toolSpans.get(event.id);
        if (made) made.endTimeUnixNano = at(event.t);
        else toolSpan(event.agent, event.id, event.name, started.t, event.t);
        break;
      }
      default:
        break;
    }
  }
  // Calls and tools still open at the record's end (a run cut short) end there, marked so.
  for (const [agent, started] of openCalls) {
    span(
      `chat ${record.settings.model}`,
      SPAN_KIND_CLIENT,
      agentSpans.get(agent)?.spanId,
      started.t,
      end,
      attributes({ 'gen_ai.operation.name': 'chat', 'gen_ai.agent.name': agent }),
      'unfinished',
    );
  }

  function toolSpan(agent: AgentId, id: string, name: string, start: number, finish: number): OtlpSpan {
    return span(
      `execute_tool ${name}`,
      SPAN_KIND_INTERNAL,
      agentSpans.get(agent)?.spanId,
      start,
      finish,
      attributes({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': name,
        'gen_ai.tool.call.id': id,
        'gen_ai.agent.name': agent,
      }),
    );
  }

  return {
    resourceSpans: [
      {
        resource: {
          attributes: attributes({
            'service.name': 's04-subagent-playground',
            'telemetry.sdk.language': 'webjs',
          }),
        },
        scopeSpans: [{ scope: { name: 's04-playground', version: String(record.version) }, spans }],
      },
    ],
  };
}
