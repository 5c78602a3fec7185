import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { convertGenAISpanAttributesToOpenInferenceSpanAttributes as toOpenInference } from '@arizeai/openinference-genai';
import { describe, expect, it } from 'vitest';
import { claudeSession } from '../../scripts/claude-sessions.mjs';
import type { Trace } from '../models/replay';
import { sessionRecord } from './claude-code';
import { traceRecord } from './example';
import { modelCalls } from './measures';
import { toOtlp, type OtlpSpan, type OtlpTraces, type OtlpValue } from './otlp';
import type { RunEvent } from './record';
import { newRecord, REFERENCE_LIMITS, type RecordEvent, type RunRecord, type RunSettings } from './record';

/** The protobuf.js code generated from the official OTLP protos (opentelemetry-proto), as shipped. */
interface ProtoMessageType {
  fromObject(object: unknown): unknown;
  verify(message: unknown): string | null;
  encode(message: unknown): { finish(): Uint8Array };
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: Record<string, unknown>): unknown;
}
const protos = createRequire(import.meta.url)(
  '@opentelemetry/otlp-transformer/build/src/generated/root.js',
) as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: ProtoMessageType } } } } };
};
const ExportTraceServiceRequest = protos.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/** The span ids of an OTLP/JSON request rewritten by `convert` (OTLP/JSON writes them in hex). */
function withIds(request: unknown, convert: (id: string) => string): unknown {
  const copy = structuredClone(request) as OtlpTraces;
  for (const resource of copy.resourceSpans)
    for (const scope of resource.scopeSpans)
      for (const span of scope.spans)
        for (const key of ['traceId', 'spanId', 'parentSpanId'] as const)
          if (typeof span[key] === 'string') span[key] = convert(span[key]);
  return copy;
}

/**
 * Checks an export against the official OTLP protos, as a collector decoding it would: its JSON
 * (ids from hex, as OTLP/JSON writes them) becomes an ExportTraceServiceRequest, which is encoded,
 * decoded and read back: every field must be one the protos know, of their type, and come back
 * unchanged (a 64-bit value out of range, a count written as "1e+300", an unknown field would not).
 */
function protoCheck(otlp: OtlpTraces): void {
  const json = JSON.parse(JSON.stringify(otlp)) as OtlpTraces;
  const message = ExportTraceServiceRequest.fromObject(
    withIds(json, (hex) => Buffer.from(hex, 'hex').toString('base64')),
  );
  expect(ExportTraceServiceRequest.verify(message)).toBeNull();
  const decoded = ExportTraceServiceRequest.decode(ExportTraceServiceRequest.encode(message).finish());
  const back = withIds(
    ExportTraceServiceRequest.toObject(decoded, { longs: String, bytes: String, defaults: true }),
    (base64) => Buffer.from(base64, 'base64').toString('hex'),
  );
  expect(back).toMatchObject(json);
}

/** What OpenInference's converter makes of a span's attributes (it answers null when it cannot). */
function openInference(span: OtlpSpan): Record<string, unknown> {
  const read = toOpenInference(plainAttributes(span) as Parameters<typeof toOpenInference>[0]);
  if (!read) throw new Error(`the converter could not read ${span.name}`);
  return read;
}

/** A span's attributes as an OpenTelemetry SDK holds them (plain values), for a converter. */
function plainAttributes(span: OtlpSpan): Record<string, unknown> {
  const plain = (value: OtlpValue): unknown => {
    if ('stringValue' in value) return value.stringValue;
    if ('intValue' in value) return Number(value.intValue);
    if ('doubleValue' in value) return value.doubleValue;
    if ('boolValue' in value) return value.boolValue;
    return value.arrayValue.values.map(plain);
  };
  return Object.fromEntries(span.attributes.map((a) => [a.key, plain(a.value)]));
}

/**
 * Reads an export back as a trace viewer would, against the OTLP/JSON encoding of an
 * ExportTraceServiceRequest: resourceSpans > scopeSpans > spans, ids in hex of their lengths,
 * parents that exist in the same trace, times as decimal strings of Unix nanoseconds, each
 * attribute one typed value. Returns the spans.
 */
function readBack(json: string): OtlpSpan[] {
  const parsed = JSON.parse(json) as OtlpTraces;
  expect(Object.keys(parsed)).toEqual(['resourceSpans']);
  expect(parsed.resourceSpans).toHaveLength(1);
  const [resource] = parsed.resourceSpans;
  expect(resource.resource.attributes).toContainEqual({
    key: 'service.name',
    value: { stringValue: 's04-subagent-playground' },
  });
  expect(resource.scopeSpans).toHaveLength(1);
  const { scope, spans } = resource.scopeSpans[0];
  expect(scope.name).toBe('s04-playground');
  const ids = new Set(spans.map((s) => s.spanId));
  expect(ids.size).toBe(spans.length);
  for (const span of spans) {
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.traceId).not.toMatch(/^0+$/);
    expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(span.spanId).not.toMatch(/^0+$/);
    expect(span.traceId).toBe(spans[0].traceId);
    if (span.parentSpanId !== undefined) expect(ids.has(span.parentSpanId)).toBe(true);
    expect(span.startTimeUnixNano).toMatch(/^(0|[1-9]\d*)$/);
    expect(span.endTimeUnixNano).toMatch(/^(0|[1-9]\d*)$/);
    expect(BigInt(span.endTimeUnixNano) >= BigInt(span.startTimeUnixNano)).toBe(true);
    expect([1, 3]).toContain(span.kind);
    expect([0, 1, 2]).toContain(span.status.code);
    for (const attribute of span.attributes) {
      expect(typeof attribute.key).toBe('string');
      checkValue(attribute.value);
    }
  }
  // One root: every other span hangs under it.
  expect(spans.filter((s) => s.parentSpanId === undefined)).toHaveLength(1);
  return spans;
}

function checkValue(value: OtlpValue): void {
  const kinds = Object.keys(value);
  expect(kinds).toHaveLength(1);
  const [kind] = kinds;
  const v = (value as Record<string, unknown>)[kind];
  if (kind === 'stringValue') expect(typeof v).toBe('string');
  else if (kind === 'intValue') expect(v).toMatch(/^-?\d+$/);
  else if (kind === 'doubleValue') expect(typeof v).toBe('number');
  else if (kind === 'boolValue') expect(typeof v).toBe('boolean');
  else if (kind === 'arrayValue') (v as { values: OtlpValue[] }).values.forEach(checkValue);
  else throw new Error(`not an OTLP AnyValue: ${kind}`);
}

const attr = (span: OtlpSpan, key: string) => span.attributes.find((a) => a.key === key)?.value;
const op = (span: OtlpSpan) =>
  (attr(span, 'gen_ai.operation.name') as { stringValue?: string } | undefined)?.stringValue;

describe('a run exported as OpenTelemetry traces', () => {
  it('a Claude Code session: one span per model call and per tool call, subagents under their call', () => {
    const files = claudeSession({ withThird: true });
    const { record } = sessionRecord(Object.entries(files).map(([path, text]) => ({ path, text })));
    const spans = readBack(JSON.stringify(toOtlp(record)));
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const chats = spans.filter((s) => op(s) === 'chat');
    expect(chats).toHaveLength(modelCalls(record).calls.length);
    const tools = spans.filter((s) => op(s) === 'execute_tool');
    // The parent's three Agent/Task calls and its MCP call; each subagent's reads.
    expect(tools.map((s) => s.name).sort()).toEqual(
      [
        'execute_tool Agent',
        'execute_tool Agent',
        'execute_tool Task',
        'execute_tool mcp__shots__screenshot',
        ...Array(6).fill('execute_tool Read'),
      ].sort(),
    );
    const agents = spans.filter((s) => op(s) === 'invoke_agent');
    expect(agents.map((s) => s.name)).toEqual([
      'invoke_agent parent',
      'invoke_agent subagent-1',
      'invoke_agent subagent-2',
      'invoke_agent subagent-3',
    ]);
    const root = agents[0];
    for (const sub of agents.slice(1)) {
      // subagent -> the parent's Agent/Task call that started it -> the parent.
      const call = byId.get(sub.parentSpanId!)!;
      expect(call.name).toMatch(/^execute_tool (Agent|Task)$/);
      expect(attr(call, 'gen_ai.tool.call.id')).toEqual(attr(sub, 's04.task.call.id'));
      expect(attr(sub, 'gen_ai.tool.call.id')).toBeUndefined();
      expect(call.parentSpanId).toBe(root.spanId);
      // Its model calls hang under it.
      const own = chats.filter((c) => c.parentSpanId === sub.spanId);
      expect(own.length).toBe(3);
    }
    // The real usage, typed as integers; input tokens as the conventions count them.
    const first = chats.find((c) => c.parentSpanId === root.spanId)!;
    expect(attr(first, 'gen_ai.usage.input_tokens')).toEqual({ intValue: '9003' });
    expect(attr(first, 'gen_ai.usage.cache_creation.input_tokens')).toEqual({ intValue: '9000' });
    expect(attr(first, 'gen_ai.usage.output_tokens')).toEqual({ intValue: '300' });
    expect(attr(first, 'gen_ai.response.finish_reasons')).toEqual({
      arrayValue: { values: [{ stringValue: 'tool_use' }] },
    });
    expect(attr(first, 'gen_ai.provider.name')).toEqual({ stringValue: 'anthropic' });
    // Times: the record's own, in nanoseconds.
    expect(root.startTimeUnixNano).toBe(`${BigInt(record.startedAt) * 1_000_000n}`);
    expect(root.startTimeUnixNano).toMatch(/^\d{19}$/);
  });

  it('a run of the playground: task calls and their subagents make the same tree', async () => {
    const trace: Trace = JSON.parse(
      readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
    );
    const { record } = await traceRecord(trace);
    const spans = readBack(JSON.stringify(toOtlp(record as RunRecord)));
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const subs = spans.filter((s) => /^invoke_agent subagent-\d+$/.test(s.name));
    expect(subs.length).toBeGreaterThan(0);
    for (const sub of subs) expect(byId.get(sub.parentSpanId!)!.name).toBe('execute_tool task');
    expect(spans.filter((s) => s.name.startsWith('chat ')).length).toBe(modelCalls(record).calls.length);
  });

  it('exports the same ids twice for the same run', () => {
    const files = claudeSession();
    const { record } = sessionRecord(Object.entries(files).map(([path, text]) => ({ path, text })));
    expect(JSON.stringify(toOtlp(record))).toBe(JSON.stringify(toOtlp(record)));
  });
});

const SETTINGS: RunSettings = {
  provider: 'anthropic',
  model: 'claude-opus-test',
  baseURL: 'https://api.anthropic.com',
  sample: 'python',
  sandbox: 'local',
  context: 'isolated',
  limits: REFERENCE_LIMITS,
};

/** A run whose subagent works on another model than the parent, and whose second call fails. */
function mixedRun(startedAt = 1_767_000_000_000): RunRecord {
  const record = newRecord('run-mixed', startedAt, 'p', SETTINGS);
  const usage = {
    input_tokens: 5,
    output_tokens: 40,
    cache_read_input_tokens: 16_000,
    cache_creation_input_tokens: 200,
  };
  const events: RunEvent[] = [
    { type: 'run', prompt: 'p', settings: SETTINGS },
    { type: 'status', status: { kind: 'running' } },
    { type: 'message', agent: 'parent', index: 0, message: { role: 'user', content: 'p' } },
    { type: 'model_start', agent: 'parent', call: 1, request: { model: 'claude-opus-test', messages: 1 } },
    {
      type: 'model_end',
      agent: 'parent',
      call: 1,
      durationMs: 5,
      usage,
      stopReason: 'tool_use',
      model: 'claude-opus-test-20260101',
    },
    { type: 'tool_start', agent: 'parent', id: 'toolu_1', name: 'task', input: { prompt: 'look' } },
    {
      type: 'spawn',
      agent: 'subagent-1',
      from: 'parent',
      taskId: 'toolu_1',
      description: 'Look',
      messages: [{ role: 'user', content: 'look' }],
    },
    {
      type: 'model_start',
      agent: 'subagent-1',
      call: 1,
      request: { model: 'claude-haiku-test', messages: 1 },
    },
    {
      type: 'model_end',
      agent: 'subagent-1',
      call: 1,
      durationMs: 5,
      usage: { input_tokens: 900, output_tokens: 10 },
      stopReason: 'end_turn',
      model: 'claude-haiku-test-20251001',
    },
    { type: 'agent_state', agent: 'subagent-1', state: 'discarded', summary: 'done' },
    { type: 'tool_end', agent: 'parent', id: 'toolu_1', name: 'task', output: 'done', durationMs: 9 },
    { type: 'model_start', agent: 'parent', call: 2, request: { model: 'claude-opus-test', messages: 3 } },
    {
      type: 'error',
      agent: 'parent',
      error: 'The API is overloaded (overloaded_error during the stream): Overloaded.',
      streamError: 'overloaded_error',
    },
    {
      type: 'status',
      status: {
        kind: 'failed',
        reason: 'The API is overloaded.',
        streamError: 'overloaded_error',
        kept: true,
      },
    },
  ];
  record.events = events.map((event, t) => ({ ...event, t: t * 10 }) as RecordEvent);
  return record;
}

describe('an export as the GenAI conventions and their readers want it', () => {
  it('passes the official OTLP protos: a session, a playground run, a mixed run', async () => {
    const files = claudeSession({ withThird: true });
    protoCheck(toOtlp(sessionRecord(Object.entries(files).map(([path, text]) => ({ path, text }))).record));
    const trace: Trace = JSON.parse(
      readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
    );
    protoCheck(toOtlp((await traceRecord(trace)).record as RunRecord));
    protoCheck(toOtlp(mixedRun()));
  });

  it('each chat span names its own call: the model asked for and the one that answered', () => {
    const chats = readBack(JSON.stringify(toOtlp(mixedRun()))).filter((s) => op(s) === 'chat');
    expect(
      chats.map((s) => [
        s.name,
        attr(s, 'gen_ai.agent.name'),
        attr(s, 'gen_ai.request.model'),
        attr(s, 'gen_ai.response.model'),
      ]),
    ).toEqual([
      [
        'chat claude-opus-test',
        { stringValue: 'parent' },
        { stringValue: 'claude-opus-test' },
        { stringValue: 'claude-opus-test-20260101' },
      ],
      [
        'chat claude-haiku-test',
        { stringValue: 'subagent-1' },
        { stringValue: 'claude-haiku-test' },
        { stringValue: 'claude-haiku-test-20251001' },
      ],
      // The failed call: no reply, so no response model.
      ['chat claude-opus-test', { stringValue: 'parent' }, { stringValue: 'claude-opus-test' }, undefined],
    ]);
    const sub = readBack(JSON.stringify(toOtlp(mixedRun()))).find(
      (s) => s.name === 'invoke_agent subagent-1',
    )!;
    expect(attr(sub, 'gen_ai.request.model')).toEqual({ stringValue: 'claude-haiku-test' });
  });

  it('counts input tokens with the cache reads and writes, which keep their own attributes', () => {
    const [first] = readBack(JSON.stringify(toOtlp(mixedRun()))).filter((s) => op(s) === 'chat');
    expect(attr(first, 'gen_ai.usage.input_tokens')).toEqual({ intValue: String(5 + 16_000 + 200) });
    expect(attr(first, 'gen_ai.usage.cache_read.input_tokens')).toEqual({ intValue: '16000' });
    expect(attr(first, 'gen_ai.usage.cache_creation.input_tokens')).toEqual({ intValue: '200' });
    expect(attr(first, 'gen_ai.usage.output_tokens')).toEqual({ intValue: '40' });
  });

  it('puts the conversation id on every span and error.type beside every error status', () => {
    const spans = readBack(JSON.stringify(toOtlp(mixedRun())));
    for (const span of spans) {
      expect(attr(span, 'gen_ai.conversation.id'), span.name).toEqual({ stringValue: 'run-mixed' });
      if (span.status.code === 2) expect(attr(span, 'error.type'), span.name).toBeDefined();
      else expect(attr(span, 'error.type'), span.name).toBeUndefined();
    }
    const failedCall = spans.filter((s) => op(s) === 'chat').at(-1)!;
    expect(failedCall.status).toEqual({ code: 2, message: expect.stringContaining('overloaded') });
    expect(attr(failedCall, 'error.type')).toEqual({ stringValue: 'overloaded_error' });
    const root = spans.find((s) => s.parentSpanId === undefined)!;
    expect(root.status.code).toBe(2);
    expect(attr(root, 'error.type')).toEqual({ stringValue: 'overloaded_error' });
    // A session's subagent that never ran (its transcript missing) is an error with its class too.
    const files = claudeSession({ withThird: true });
    const session = readBack(
      JSON.stringify(
        toOtlp(sessionRecord(Object.entries(files).map(([path, text]) => ({ path, text }))).record),
      ),
    );
    for (const span of session) {
      if (span.status.code === 2) expect(attr(span, 'error.type'), span.name).toBeDefined();
      expect(attr(span, 'gen_ai.conversation.id'), span.name).toBeDefined();
    }
  });

  it("is read by OpenInference's converter as agents, model calls and tools, with the tokens sent", () => {
    const spans = readBack(JSON.stringify(toOtlp(mixedRun())));
    const read = spans.map((span) => ({ span, oi: openInference(span) }));
    const kinds = read.map(({ span, oi }) => [span.name, oi['openinference.span.kind']]);
    expect(kinds).toEqual([
      ['invoke_agent parent', 'AGENT'],
      ['chat claude-opus-test', 'LLM'],
      ['execute_tool task', 'TOOL'],
      ['invoke_agent subagent-1', 'AGENT'],
      ['chat claude-haiku-test', 'LLM'],
      ['chat claude-opus-test', 'LLM'],
    ]);
    const first = read[1].oi;
    expect(first['llm.token_count.prompt']).toBe(16_205);
    expect(first['llm.token_count.prompt_details.cache_read']).toBe(16_000);
    expect(first['llm.model_name']).toBe('claude-opus-test-20260101');
    expect(read[4].oi['llm.model_name']).toBe('claude-haiku-test-20251001');
    // A Claude Code session's subagents too.
    const files = claudeSession({ withThird: true });
    const session = readBack(
      JSON.stringify(
        toOtlp(sessionRecord(Object.entries(files).map(([path, text]) => ({ path, text }))).record),
      ),
    );
    for (const span of session.filter((s) => op(s) === 'invoke_agent')) {
      expect(openInference(span)['openinference.span.kind'], span.name).toBe('AGENT');
    }
  });

  it('exports a record of hostile numbers: times clamped to 19 digits, counts to whole int64 strings', () => {
    const record = mixedRun(1e300);
    const hostile = record.events.map((event) =>
      event.type === 'model_end' && event.agent === 'subagent-1'
        ? {
            ...event,
            usage: { input_tokens: 1e300, output_tokens: Number.NaN, cache_read_input_tokens: -1e30 },
          }
        : event,
    );
    hostile.push({ type: 'log', agent: 'parent', line: 'late', t: Number.MAX_VALUE });
    const otlp = toOtlp({ ...record, events: hostile });
    protoCheck(otlp);
    const spans = readBack(JSON.stringify(otlp));
    for (const span of spans) {
      expect(span.startTimeUnixNano).toMatch(/^\d{1,19}$/);
      expect(span.endTimeUnixNano).toMatch(/^\d{1,19}$/);
      expect(BigInt(span.endTimeUnixNano) <= 2n ** 63n - 1n).toBe(true);
    }
    const chat = spans.find((s) => s.name === 'chat claude-haiku-test')!;
    expect(attr(chat, 'gen_ai.usage.input_tokens')).toEqual({ intValue: '9223372036854775807' });
    expect(attr(chat, 'gen_ai.usage.output_tokens')).toBeUndefined();
    expect(attr(chat, 'gen_ai.usage.cache_read.input_tokens')).toEqual({ intValue: '-9223372036854775808' });
    // A record from before 1970 (or with negative times) starts at 0 rather than below it.
    protoCheck(toOtlp(mixedRun(-5)));
  });
});
