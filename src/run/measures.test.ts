import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Trace } from '../models/replay';
import { overheadChars } from './context';
import { traceRecord } from './example';
import { agentTotals, callsUpTo, modelCalls, runTotals, searched } from './measures';
import { newRecord, type RecordEvent, type RunSettings } from './record';
import { coalesce, workersTimeline, type Segment } from './timeline';
import { DEMO_SETTINGS } from '../../test/settings';

const trace: Trace = JSON.parse(
  readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
);

describe('what the charts read from a record', () => {
  it('lists every model call with the context the API counted, in the order they were made', async () => {
    const { record } = await traceRecord(trace);
    const { calls, tasks } = modelCalls(record);
    expect(calls.map((c) => c.agent)).toEqual(['parent', ...Array(6).fill('subagent-1'), 'parent']);
    // Counted: input + cache fields, as the trace's usage says, until the subagent's count fell
    // (1,394 then 149 while its array grew: not a full count), after which it is estimated.
    const usage = trace.cycles.map((c) => c.response.usage!);
    expect(calls.map((c) => c.counted)).toEqual([true, true, true, false, false, false, false, true]);
    for (const i of [0, 1, 2, 7]) {
      expect(calls[i].sent).toBe(usage[i].input_tokens);
      expect(calls[i].context).toBe(usage[i].input_tokens + usage[i].output_tokens);
    }
    expect(tasks).toEqual([
      { agent: 'subagent-1', from: 'parent', startAfter: 1, endAfter: 7, state: 'discarded' },
    ]);
    const totals = runTotals(record);
    expect(totals.parentContext).toBe(usage[7].input_tokens + usage[7].output_tokens);
    expect(totals.calls).toBe(8);
    expect(totals.cost).toBe(calls.reduce((s, c) => s + c.sent + c.output, 0));
    expect(totals.counted).toBe(false);
  });

  it('estimates a demo call from the array it was sent, four characters a token', () => {
    const settings: RunSettings = DEMO_SETTINGS;
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
    // Sent: the system prompt, the tools and the array; the context after: the answer too.
    const overhead = overheadChars(settings, 0);
    expect(call.sent).toBe(Math.ceil((overhead + JSON.stringify(prompt).length) / 4));
    expect(call.context).toBe(
      Math.ceil((overhead + JSON.stringify(prompt).length + JSON.stringify(answer).length) / 4),
    );
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

  describe('coalesce: what a timeline row draws', () => {
    const calls = (n: number, every: number, from = 0): Segment[] =>
      Array.from({ length: n }, (_, i) => ({
        kind: 'model' as const,
        label: `model call ${i + 1}`,
        start: from + i * every,
        end: from + i * every + every / 2,
        event: 2 * i,
        call: i + 1,
      }));

    it('keeps every segment of a row that has few', () => {
      const segments = calls(40, 10);
      const groups = coalesce(segments, 400);
      expect(groups).toHaveLength(40);
      expect(groups.every((g) => g.count === 1)).toBe(true);
      expect(groups.map((g) => g.event)).toEqual(segments.map((s) => s.event));
    });

    it('draws a thousand close calls as at most about a hundred groups, covering all of them', () => {
      const segments = calls(1000, 10);
      const span = 10_000;
      const groups = coalesce(segments, span, 100);
      expect(groups.length).toBeLessThanOrEqual(100);
      expect(groups.reduce((sum, g) => sum + g.count, 0)).toBe(1000);
      // In order, each group from its first call to its last, stepping to its first.
      let next = 1;
      for (const g of groups) {
        expect(g.call).toBe(next);
        expect(g.lastCall).toBe(next + g.count - 1);
        expect(g.event).toBe(2 * (next - 1));
        expect(g.start).toBe(segments[next - 1].start);
        expect(g.end).toBe(segments[next + g.count - 2].end);
        next += g.count;
      }
    });

    it('never groups calls further apart than its share of the span, nor model calls with tool calls', () => {
      const burst = [...calls(150, 1), ...calls(150, 1, 5_000)];
      const tools: Segment[] = burst.map((s) => ({ ...s, kind: 'tool', label: 'bash', call: undefined }));
      const groups = coalesce([...burst, ...tools], 10_000, 100);
      // Stretches of 100: each burst of 150 is two groups, and the bursts are never one.
      expect(groups.filter((g) => g.kind === 'model').map((g) => g.count)).toEqual([100, 50, 100, 50]);
      expect(groups.filter((g) => g.kind === 'tool').map((g) => g.count)).toEqual([100, 50, 100, 50]);
    });
  });

  it('shows a task that waited for its turn as queued until its worker was created', () => {
    const settings = DEMO_SETTINGS as RunSettings;
    const record = newRecord('r', 0, 'hi', settings);
    const spawn = (agent: string, t: number): RecordEvent => ({
      t,
      type: 'spawn',
      agent,
      from: 'parent',
      taskId: agent,
      description: 'd',
      messages: [],
    });
    record.events = [
      { t: 0, type: 'worker', worker: 'subagent-1', phase: 'created' }, // a spare, taken by its task
      spawn('subagent-1', 1),
      spawn('subagent-2', 1),
      { t: 50, type: 'worker', worker: 'subagent-2', phase: 'created' }, // its turn came
      spawn('subagent-3', 2),
      { t: 60, type: 'status', status: { kind: 'stopped' } }, // stopped before its turn came
    ];
    const rows = new Map(workersTimeline(record).rows.map((r) => [r.id, r]));
    expect(rows.get('subagent-1')!.queuedUntil).toBeUndefined();
    expect(rows.get('subagent-2')).toMatchObject({ start: 1, queuedUntil: 50, end: null });
    expect(rows.get('subagent-3')).toMatchObject({ start: 2, queuedUntil: 60, end: 60 });
  });

  it('ends the wait when the worker is noted ready, if its creation was not noted', () => {
    const record = newRecord('r', 0, 'hi', DEMO_SETTINGS as RunSettings);
    record.events = [
      {
        t: 0,
        type: 'spawn',
        agent: 'subagent-1',
        from: 'parent',
        taskId: 'a',
        description: 'd',
        messages: [],
      },
      { t: 4, type: 'worker', worker: 'subagent-1', phase: 'ready' },
      { t: 90, type: 'status', status: { kind: 'finished' } },
    ];
    const row = workersTimeline(record).rows.find((r) => r.id === 'subagent-1');
    expect(row).toMatchObject({ id: 'subagent-1', start: 0, queuedUntil: 4 });
  });
});

describe('the call shown at a step', () => {
  it('is found by halving: a step of 20,000 calls reads about 15 of them, and agrees with a scan', async () => {
    const { toolCallsRecord } = await import('../../scripts/records.mjs');
    const { calls } = modelCalls(toolCallsRecord(20_000) as never);
    expect(calls).toHaveLength(20_000);
    for (const upTo of [-1, 0, 3, 4, 777, 80_000, 159_999, 200_000]) {
      const before = searched.calls;
      const found = callsUpTo(calls, upTo);
      expect(searched.calls - before).toBeLessThanOrEqual(16);
      expect(found, `event ${upTo}`).toBe(calls.findLast((c) => c.event <= upTo)?.n ?? 0);
    }
  });
});

describe("an agent's totals at a step", () => {
  it('reads each call once for the record, then none for a step, and agrees with a scan', async () => {
    const { toolCallsRecord } = await import('../../scripts/records.mjs');
    const { calls: made } = modelCalls(toolCallsRecord(20_000) as never);
    // Every call with a few uncounted, as estimated calls are, to see `counted` follow the step.
    const points = made.map((c, i) => ({ ...c, counted: i < 5_000 }));
    let reads = 0;
    const calls = new Proxy(points, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const view = (applied: number) =>
      ({ applied, parent: { id: 'parent', usage: undefined }, subagents: [] }) as never;
    agentTotals(calls, view(1), 'parent');
    expect(reads).toBe(20_000);
    const steps = [0, 1, 4, 5, 777, 20_003, 80_000, 159_999, 200_000];
    reads = 0;
    const before = searched.calls;
    const totals = steps.map((upTo) => agentTotals(calls, view(upTo + 1), 'parent'));
    expect(reads).toBe(0);
    expect(searched.calls - before).toBeLessThanOrEqual(16 * steps.length);
    steps.forEach((upTo, i) => {
      const shown = points.filter((c) => c.event <= upTo);
      expect(totals[i], `event ${upTo}`).toEqual({
        calls: shown.length,
        input: shown.reduce((sum, c) => sum + c.sent, 0),
        output: shown.reduce((sum, c) => sum + c.output, 0),
        cacheRead: 0,
        cacheCreation: 0,
        counted: shown.every((c) => c.counted),
      });
    });
    expect(agentTotals(calls, view(200_000), 'subagent-1')).toMatchObject({ calls: 0, counted: true });
  });
});
