import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Trace } from '../models/replay';
import { traceRecord } from './example';
import { modelCalls, runTotals, workersTimeline } from './measures';
import { newRecord, REFERENCE_LIMITS, type RecordEvent, type RunSettings } from './record';

const trace: Trace = JSON.parse(
  readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
);

describe('what the charts read from a record', () => {
  it('lists every model call with the context the API counted, in the order they were made', async () => {
    const { record } = await traceRecord(trace);
    const { calls, tasks } = modelCalls(record);
    expect(calls.map((c) => c.agent)).toEqual(['parent', ...Array(6).fill('subagent-1'), 'parent']);
    // Counted: input + cache fields, as the trace's usage says.
    const usage = trace.cycles.map((c) => c.response.usage!);
    expect(calls.map((c) => c.context)).toEqual(usage.map((u) => u.input_tokens));
    expect(calls.every((c) => c.counted)).toBe(true);
    expect(tasks).toEqual([
      { agent: 'subagent-1', from: 'parent', startAfter: 1, endAfter: 7, state: 'discarded' },
    ]);
    const totals = runTotals(record);
    expect(totals.parentContext).toBe(usage[7].input_tokens);
    expect(totals.calls).toBe(8);
    expect(totals.cost).toBe(usage.reduce((s, u) => s + u.input_tokens + u.output_tokens, 0));
    expect(totals.counted).toBe(true);
  });

  it('estimates a demo call from the array it was sent, four characters a token', () => {
    const settings: RunSettings = {
      provider: 'demo',
      model: 'demo',
      sample: 'python',
      sandbox: 'local',
      context: 'isolated',
      limits: REFERENCE_LIMITS,
    };
    const record = newRecord('r', 0, 'hi', settings);
    const prompt = { role: 'user' as const, content: 'x'.repeat(400) };
    const answer = { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'y'.repeat(80) }] };
    record.events = [
      { t: 0, type: 'message', agent: 'parent', index: 0, message: prompt },
      { t: 1, type: 'model_start', agent: 'parent', call: 1 },
      {
        t: 2,
        type: 'model_end',
        agent: 'parent',
        call: 1,
        durationMs: 1,
        usage: { input_tokens: 5, output_tokens: 5 },
        stopReason: 'end_turn',
      },
      { t: 2, type: 'message', agent: 'parent', index: 1, message: answer },
    ] satisfies RecordEvent[];
    const [call] = modelCalls(record).calls;
    expect(call.counted).toBe(false);
    expect(call.context).toBe(Math.ceil(JSON.stringify(prompt).length / 4));
    expect(call.output).toBe(Math.ceil(JSON.stringify(answer).length / 4));
  });

  it('draws each worker from its start to its end, with its calls, subagents under their caller', async () => {
    const { record } = await traceRecord(trace);
    const { rows, end } = workersTimeline(record);
    expect(rows.map((r) => [r.id, r.depth])).toEqual([
      ['parent', 0],
      ['subagent-1', 1],
    ]);
    const sub = rows[1];
    expect(sub.end).not.toBeNull();
    expect(sub.end!).toBeLessThan(end);
    expect(sub.segments.filter((s) => s.kind === 'model')).toHaveLength(6);
    expect(sub.segments.filter((s) => s.kind === 'tool').length).toBe(
      trace.cycles.filter((c) => c.request.tools.length === 4).flatMap((c) => c.tool_executions).length,
    );
    for (const s of sub.segments) {
      expect(s.end).toBeGreaterThanOrEqual(s.start);
      expect(record.events[s.event].type).toBe(s.kind === 'model' ? 'model_start' : 'tool_start');
    }
    // The parent's task call spans the whole subagent.
    const task = rows[0].segments.find((s) => s.label === 'task')!;
    expect(task.start).toBeLessThanOrEqual(sub.segments[0].start);
    expect(task.end).toBeGreaterThanOrEqual(sub.end!);
  });
});
