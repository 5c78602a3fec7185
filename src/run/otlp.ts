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
 *
 * As the GenAI conventions and their readers want it: every span carries the conversation's id
 * (`gen_ai.conversation.id`); a chat span names the model its own request asked for and the one
 * that answered (`gen_ai.request.model`, `gen_ai.response.model`), which a subagent may not share
 * with the parent; `gen_ai.usage.input_tokens` is everything the call sent, Anthropic's uncached
 * `input_tokens` plus the cache reads and writes, which keep their own attributes too; an agent
 * span carries no `gen_ai.tool.*` attribute (a converter such as OpenInference's would take it
 * for a tool): the task call that started it is its parent span and `s04.task.call.id`; every
 * error status comes with `error.type`. A record is data from anywhere: times and counts are
 * clamped to what OTLP's 64-bit fields hold, and a count that is not a number is left out.
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

/** The largest value of OTLP's signed 64-bit integers (`intValue`; times are read as them too). */
const INT64_MAX = 2n ** 63n - 1n;

/** A count as OTLP's `intValue`: a whole number within int64, as a decimal string; none if not a number. */
function int64(n: unknown): { intValue: string } | undefined {
  if (typeof n !== 'number' || !Number.isFinite(n)) return undefined;
  const whole = BigInt(Math.trunc(n));
  const clamped = whole > INT64_MAX ? INT64_MAX : whole < -INT64_MAX - 1n ? -INT64_MAX - 1n : whole;
  return { intValue: clamped.toString() };
}

/** An attribute's value: a count (`int`), or any other value, typed. */
type Entry = string | number | boolean | string[] | { int: unknown } | undefined;

/** A typed attribute value, or none for a value OTLP cannot carry (a count that is not a number). */
function value(v: Exclude<Entry, undefined>): OtlpValue | undefined {
  if (Array.isArray(v)) return { arrayValue: { values: v.map((s) => ({ stringValue: s })) } };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'object') return int64(v.int);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return undefined;
    return Number.isSafeInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  }
  return { stringValue: v };
}

function attributes(entries: Record<string, Entry>): OtlpAttribute[] {
  const out: OtlpAttribute[] = [];
  for (const [key, v] of Object.entries(entries)) {
    const typed = v === undefined ? undefined : value(v);
    if (typed) out.push({ key, value: typed });
  }
  return out;
}

/** A count the API reported, if it did. */
function count(n: number | null | undefined): { int: number } | undefined {
  return typeof n === 'number' ? { int: n } : undefined;
}

/**
 * What a call sent, in the conventions' terms: Anthropic's `input_tokens` leaves out the cache
 * reads and writes, which `gen_ai.usage.input_tokens` includes.
 */
function inputTokens(usage: Usage): number {
  const part = (n: number | null | undefined) => (typeof n === 'number' && Number.isFinite(n) ? n : 0);
  return (
    part(usage.input_tokens) + part(usage.cache_read_input_tokens) + part(usage.cache_creation_input_tokens)
  );
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

/**
 * Epoch milliseconds (fractions too) as Unix nanoseconds, a decimal string: at most 19 digits, as
 * a reader of signed 64-bit times needs (from 1970 to the year 2262); what is outside is clamped.
 */
function nanos(ms: number): string {
  if (Number.isNaN(ms) || ms <= 0) return '0';
  const micros = ms * 1000;
  if (!Number.isFinite(micros)) return INT64_MAX.toString();
  const n = BigInt(Math.round(micros)) * 1000n;
  return (n > INT64_MAX ? INT64_MAX : n).toString();
}

/** The model a call's request named (its body as kept), if it is a name. */
function requestModel(request: unknown): string | undefined {
  const model = (request as { model?: unknown } | undefined)?.model;
  return typeof model === 'string' && model ? model : undefined;
}

/** The run as OTLP/JSON traces (see the top of this file). */
export function toOtlp(record: RunRecord): OtlpTraces {
  const traceId = hash64(`${record.id} trace`) + hash64(`${record.id} trace 2`);
  let spanNo = 0;
  const newSpanId = () => hash64(`${record.id} span ${++spanNo}`);
  const at = (t: number) => nanos(record.startedAt + t);
  const end = record.events.at(-1)?.t ?? 0;
  const provider = record.settings.provider === 'anthropic' ? 'anthropic' : 'demo';
  const conversation = record.id;
  const spans: OtlpSpan[] = [];
  /** Marks a span as failed: an error status, with the class of error the conventions ask for. */
  const fail = (made: OtlpSpan, message: string, type: string) => {
    made.status = { code: STATUS_ERROR, message };
    made.attributes = made.attributes.filter((a) => a.key !== 'error.type');
    made.attributes.push({ key: 'error.type', value: { stringValue: type } });
  };
  /** Ends a span at `t`, never before it began (a record's times may be anything). */
  const endAt = (made: OtlpSpan, t: number) => {
    const finish = at(t);
    made.endTimeUnixNano = BigInt(finish) < BigInt(made.startTimeUnixNano) ? made.startTimeUnixNano : finish;
  };
  const span = (
    name: string,
    kind: 1 | 3,
    parent: string | undefined,
    start: number,
    finish: number,
    attrs: Record<string, Entry>,
    error?: { message: string; type: string },
  ): OtlpSpan => {
    const made: OtlpSpan = {
      traceId,
      spanId: newSpanId(),
      ...(parent ? { parentSpanId: parent } : {}),
      name,
      kind,
      startTimeUnixNano: at(start),
      endTimeUnixNano: '0',
      attributes: attributes({ ...attrs, 'gen_ai.conversation.id': conversation }),
      status: { code: STATUS_UNSET },
    };
    endAt(made, finish);
    if (error) fail(made, error.message, error.type);
    spans.push(made);
    return made;
  };

  const root = span('invoke_agent parent', SPAN_KIND_INTERNAL, undefined, 0, end, {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.provider.name': provider,
    'gen_ai.agent.name': 'parent',
    'gen_ai.agent.id': 'parent',
    'gen_ai.request.model': record.settings.model,
  });
  const agentSpans = new Map<AgentId, OtlpSpan>([['parent', root]]);
  /** An agent's span names the model of its first call, if the record says which. */
  const named = new Set<AgentId>();
  /** The span of each task call, by its tool-use id: the parent of the subagent it starts. */
  const toolSpans = new Map<string, OtlpSpan>();
  const openCalls = new Map<AgentId, { t: number; call: number; model: string }>();
  const openTools = new Map<string, { t: number; name: string; input: unknown }>();
  /** The chat span of an agent's open call, ended at `t` with what its end tells. */
  const endCall = (
    agent: AgentId,
    t: number,
    told: Record<string, Entry>,
    error?: { message: string; type: string },
  ): void => {
    const started = openCalls.get(agent);
    if (!started) return;
    openCalls.delete(agent);
    const chat: Record<string, Entry> = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': provider,
      'gen_ai.request.model': started.model,
      'gen_ai.agent.name': agent,
      ...told,
      's04.call': { int: started.call },
    };
    span(`chat ${started.model}`, SPAN_KIND_CLIENT, agentSpans.get(agent)?.spanId, started.t, t, chat, error);
  };

  for (const event of record.events) {
    switch (event.type) {
      case 'spawn': {
        const parent = toolSpans.get(event.taskId) ?? agentSpans.get(event.from) ?? root;
        const made = span(`invoke_agent ${event.agent}`, SPAN_KIND_INTERNAL, parent.spanId, event.t, end, {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.provider.name': provider,
          'gen_ai.agent.name': event.agent,
          'gen_ai.agent.id': event.agent,
          'gen_ai.agent.description': event.description || undefined,
          // Not gen_ai.tool.call.id: that would make the agent a tool to a converter.
          's04.task.call.id': event.taskId,
        });
        agentSpans.set(event.agent, made);
        break;
      }
      case 'agent_state': {
        const made = agentSpans.get(event.agent);
        if (!made) break;
        endAt(made, event.t);
        if (event.state === 'failed' || event.state === 'stopped' || event.state === 'missing') {
          fail(made, event.state, event.state);
        }
        break;
      }
      case 'model_start': {
        const model = requestModel(event.request) ?? record.settings.model;
        openCalls.set(event.agent, { t: event.t, call: event.call, model });
        const agentSpan = agentSpans.get(event.agent);
        if (agentSpan && !named.has(event.agent)) {
          named.add(event.agent);
          agentSpan.attributes = agentSpan.attributes.filter((a) => a.key !== 'gen_ai.request.model');
          agentSpan.attributes.push({ key: 'gen_ai.request.model', value: { stringValue: model } });
        }
        break;
      }
      case 'model_end': {
        const usage: Usage | undefined = event.usage;
        endCall(event.agent, event.t, {
          'gen_ai.response.model': event.model,
          'gen_ai.response.finish_reasons': event.stopReason ? [event.stopReason] : undefined,
          'gen_ai.usage.input_tokens': usage && { int: inputTokens(usage) },
          'gen_ai.usage.output_tokens': usage && { int: usage.output_tokens },
          'gen_ai.usage.cache_read.input_tokens': count(usage?.cache_read_input_tokens),
          'gen_ai.usage.cache_creation.input_tokens': count(usage?.cache_creation_input_tokens),
        });
        break;
      }
      case 'error':
        // A call that failed has no model_end: its span ends here, with the error.
        endCall(event.agent, event.t, {}, { message: event.error, type: event.streamError ?? '_OTHER' });
        break;
      case 'status':
        if (event.status.kind === 'failed') {
          fail(root, event.status.reason, event.status.streamError ?? '_OTHER');
        }
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
        if (made) endAt(made, event.t);
        else toolSpan(event.agent, event.id, event.name, started.t, event.t);
        break;
      }
      default:
        break;
    }
  }
  // Calls still open at the record's end (a run cut short) end there, marked so.
  for (const [agent, started] of openCalls) {
    span(
      `chat ${started.model}`,
      SPAN_KIND_CLIENT,
      agentSpans.get(agent)?.spanId,
      started.t,
      end,
      {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': provider,
        'gen_ai.request.model': started.model,
        'gen_ai.agent.name': agent,
        's04.call': { int: started.call },
      },
      { message: 'unfinished', type: 'unfinished' },
    );
  }

  function toolSpan(agent: AgentId, id: string, name: string, start: number, finish: number): OtlpSpan {
    return span(`execute_tool ${name}`, SPAN_KIND_INTERNAL, agentSpans.get(agent)?.spanId, start, finish, {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'gen_ai.tool.call.id': id,
      'gen_ai.agent.name': agent,
    });
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
