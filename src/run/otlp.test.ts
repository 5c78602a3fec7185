import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claudeSession } from '../../scripts/claude-sessions.mjs';
import type { Trace } from '../models/replay';
import { sessionRecord } from './claude-code';
import { traceRecord } from './example';
import { modelCalls } from './measures';
import { toOtlp, type OtlpSpan, type OtlpTraces, type OtlpValue } from './otlp';
import type { RunRecord } from './record';

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
      expect(attr(call, 'gen_ai.tool.call.id')).toEqual(attr(sub, 'gen_ai.tool.call.id'));
      expect(call.parentSpanId).toBe(root.spanId);
      // Its model calls hang under it.
      const own = chats.filter((c) => c.parentSpanId === sub.spanId);
      expect(own.length).toBe(3);
    }
    // The real usage, typed as integers.
    const first = chats.find((c) => c.parentSpanId === root.spanId)!;
    expect(attr(first, 'gen_ai.usage.input_tokens')).toEqual({ intValue: '3' });
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
