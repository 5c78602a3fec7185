import { describe, expect, it } from 'vitest';
import { demoRecord } from '../../test/demo-run';
import { isolationCheck, isolationSummary } from './isolation';
import { callOf } from './measures';
import type { RecordEvent } from './record';
import { reduceAll } from './reduce-range';

const PROMPT_1 = 'Use a subtask to find what testing framework this project uses';

describe('the isolation check', () => {
  it('finds nothing of the parent in any call of an isolated subagent', async () => {
    const record = await demoRecord(PROMPT_1);
    const check = isolationCheck(record);
    expect(check.checkable).toBe(true);
    expect(check.agents).toHaveLength(1);
    const [child] = check.agents;
    const view = reduceAll(record.events);
    // Every call the ledger counts is checked.
    expect(child.calls.map((c) => c.n)).toEqual(
      Array.from({ length: view.subagents[0].ledger.calls }, (_, i) => i + 1),
    );
    expect(child.calls.length).toBeGreaterThan(1);
    for (const call of child.calls) expect(call.carried).toEqual([]);
    expect([child.carriedMessages, child.carriedChars]).toEqual([0, 0]);
    // Its first call sent one message: the task prompt.
    expect(child.calls[0].sent).toBe(1);
    expect(callOf(view, child.agent, 1)!.parts.messages).toBeGreaterThan(0);
  });

  it('finds the parent’s whole history in every call of a fork child, the last message by its blocks', async () => {
    const record = await demoRecord(PROMPT_1, { context: 'fork' });
    const [child] = isolationCheck(record).agents;
    const spawn = record.events.find((e) => e.type === 'spawn')!;
    const forked = (spawn as Extract<RecordEvent, { type: 'spawn' }>).messages;
    // The parent's messages before the turn that called `task`; the last one is the task prompt
    // itself here (the parent's prompt, merged with it), so all of them carried something.
    for (const call of child.calls) {
      expect(call.carried).toEqual(forked.map((_, i) => i));
      expect(call.chars).toBeGreaterThan(0);
    }
    expect(child.carriedMessages).toBe(forked.length);
    // Here the parent's history is its prompt, merged with the task's: that block alone was carried.
    expect(child.carriedChars).toBe(JSON.stringify({ type: 'text', text: PROMPT_1 }).length);
  });

  it('says a record without requests cannot be checked, and checks as the record stood at a step', async () => {
    const record = await demoRecord(PROMPT_1);
    const stripped = {
      ...record,
      events: record.events.map((e) => (e.type === 'model_start' ? { ...e, request: undefined } : e)),
    };
    expect(isolationCheck(stripped).checkable).toBe(false);
    const firstCall = record.events.findIndex((e) => e.type === 'model_start' && e.agent === 'subagent-1');
    const atFirst = isolationCheck(record, firstCall + 1);
    expect(atFirst.agents[0].calls).toHaveLength(1);
  });

  it('sums a check up in figures: its subagents, their calls, and those that carried something', async () => {
    const isolated = isolationCheck(await demoRecord(PROMPT_1));
    const forked = isolationCheck(await demoRecord(PROMPT_1, { context: 'fork' }));
    const calls = (check: typeof isolated) =>
      check.agents.reduce((sum, agent) => sum + agent.calls.length, 0);
    expect(isolationSummary(isolated)).toEqual({ agents: 1, calls: calls(isolated), carried: 0 });
    expect(isolationSummary(forked)).toEqual({ agents: 1, calls: calls(forked), carried: 1 });
    // Both checks together: a subagent that has made no call yet counts as one, with no call.
    const waiting = {
      ...isolated.agents[0],
      agent: 'subagent-2',
      calls: [],
      carriedMessages: 0,
      carriedChars: 0,
    };
    expect(
      isolationSummary({ checkable: true, agents: [...isolated.agents, ...forked.agents, waiting] }),
    ).toEqual({ agents: 3, calls: calls(isolated) + calls(forked), carried: 1 });
  });
});
