import { describe, expect, it } from 'vitest';
import type { RunRecord, RunStatus } from '../run/record';
import { demoRecord } from '../../test/demo-run';
import { Comparison, type Comparable, type RunChoice } from './comparison.svelte';

const PROMPT_1 = 'Use a subtask to find what testing framework this project uses';

/** A runtime that runs the demo in the mode it is given, and notes what it was asked. */
function fakePlayground(stopAfter = Infinity) {
  const asked: Array<{ prompt: string; choice: RunChoice }> = [];
  let startedOver = 0;
  const target: Comparable & { record: RunRecord | null; status: RunStatus } = {
    record: null,
    status: { kind: 'idle' },
    async startOver() {
      startedOver++;
    },
    async run(prompt, choice) {
      asked.push({ prompt, choice });
      target.record = await demoRecord(prompt, { context: choice.context });
      target.status = asked.length > stopAfter ? { kind: 'stopped' } : { kind: 'finished' };
    },
  };
  return { target, asked, startedOver: () => startedOver };
}

describe('Compare', () => {
  it('gives each run its mode and one comparison id, on a fresh copy each, and measures the saving', async () => {
    const { target, asked, startedOver } = fakePlayground();
    const comparison = new Comparison(target);
    await comparison.start(PROMPT_1, true);
    expect(asked.map((a) => a.choice.context)).toEqual(['none', 'fork', 'isolated']);
    expect(new Set(asked.map((a) => a.choice.comparison)).size).toBe(1);
    expect(asked[0].choice.comparison).toMatch(/^compare-/);
    expect(startedOver()).toBe(3);
    expect(comparison.runs.map((r) => r.mode)).toEqual(['none', 'fork', 'isolated']);
    expect(comparison.saving).toBeGreaterThan(0);
    expect(comparison.running).toBe(false);
  });

  it('ends at a run that did not finish, keeping the runs before it', async () => {
    const { target, asked } = fakePlayground(1);
    const comparison = new Comparison(target);
    await comparison.start(PROMPT_1, false);
    expect(asked).toHaveLength(2);
    expect(comparison.ended).toEqual({ kind: 'stopped' });
    expect(comparison.saving).toBeNull();
  });
});
