import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Trace } from '../models/replay';
import { overheadTokens } from './context';
import { traceRecord } from './example';
import { agentFigures, callsUpTo, ledgerOf, modelCalls } from './measures';
import { newRecord, type RecordEvent, type RunRecord, type RunSettings } from './record';
import { Replay } from './replay';
import { messageTokens } from './size';
import { coalesce, workersTimeline, type Segment } from './timeline';
import { DEMO_SETTINGS } from '../../test/settings';

const trace: Trace = JSON.parse(
  readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
);

describe('what the charts read from a record', () => {
  it('estimates a demo call from the request it sent: system prompt, tools and messages', () => {
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
    // The demo model's own usage is not a count: the call is estimated.
    expect(call.counted).toBe(false);
    // A record without the request's body: the system prompt and tools follow the run's settings.
    expect(call.parts).toEqual({ ...overheadTokens(settings, 0), messages: messageTokens(prompt) });
    expect(call.sent).toBe(call.parts.system + call.parts.tools + call.parts.messages);
    expect(call.received).toBe(messageTokens(answer));
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

  it('orders a fan-out as a tree: the sandbox, the parent, then each subagent under its caller, in turn', () => {
    const record = newRecord('r', 0, 'hi', DEMO_SETTINGS as RunSettings);
    const spawn = (agent: string, from: string, t: number): RecordEvent => ({
      t,
      type: 'spawn',
      agent,
      from,
      taskId: agent,
      description: 'd',
      messages: [],
    });
    // Four at every level, two levels deep, spawned breadth first (as a run with a cap starts them).
    const events: RecordEvent[] = [{ t: 0, type: 'worker', worker: 'sandbox', phase: 'created' }];
    events.push({ t: 0, type: 'worker', worker: 'parent', phase: 'created' });
    const expected = ['sandbox', 'parent'];
    let n = 0;
    const level: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = `subagent-${++n}`;
      events.push(spawn(id, 'parent', n));
      level.push(id);
    }
    for (const caller of level) {
      expected.push(caller);
      for (let i = 0; i < 4; i++) {
        const id = `subagent-${++n}`;
        events.push(spawn(id, caller, n));
        expected.push(id);
      }
    }
    record.events = events;
    const rows = workersTimeline(record).rows;
    expect(rows.map((r) => r.id)).toEqual(expected);
    expect(rows.map((r) => r.depth)).toEqual([0, 0, ...level.flatMap(() => [1, 2, 2, 2, 2])]);
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
    const { calls: made } = modelCalls(toolCallsRecord(20_000) as never);
    expect(made).toHaveLength(20_000);
    let reads = 0;
    const calls = new Proxy(made, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    for (const upTo of [-1, 0, 3, 4, 777, 80_000, 159_999, 200_000]) {
      reads = 0;
      const found = callsUpTo(calls, upTo);
      expect(reads).toBeLessThanOrEqual(16);
      expect(found, `event ${upTo}`).toBe(made.findLast((c) => c.event <= upTo)?.seq ?? 0);
    }
  });
});

describe("an agent's figures at a step", () => {
  it('are its ledger at that step: the sums of the calls started by then, read without a scan', async () => {
    const { toolCallsRecord } = await import('../../scripts/records.mjs');
    const record = toolCallsRecord(20_000) as unknown as RunRecord;
    const replay = new Replay(record.events);
    const { calls } = ledgerOf(replay.at(replay.steps));
    for (const step of [1, 4, 5, 777, 20_003, 80_000, replay.steps]) {
      const view = replay.at(step);
      const shown = calls.filter((c) => c.event < view.applied);
      const figures = agentFigures(view.parent);
      expect(figures.calls, `step ${step}`).toBe(shown.length);
      expect(figures.sent).toBe(shown.reduce((sum, c) => sum + c.sent, 0));
      // The last call shown may still be at work at this step: its reply is not in yet.
      const current = view.parent.ledger.current;
      expect(current?.seq).toBe(shown.at(-1)?.seq);
      expect(figures.received).toBe(
        shown.slice(0, -1).reduce((sum, c) => sum + c.received, 0) + (current?.received ?? 0),
      );
    }
  });
});
