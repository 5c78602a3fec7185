import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../run/store';
import { historyEntries } from './history-entries';
import { DEMO_SETTINGS } from '../../test/settings';

const run = (id: string, context: 'isolated' | 'none' | 'fork', comparison?: string): RunSummary =>
  ({
    id,
    title: 'p',
    startedAt: 0,
    settings: { ...DEMO_SETTINGS, context, ...(comparison ? { comparison } : {}) },
    status: { kind: 'finished' },
    figures: { parentTokens: 1, counted: false, calls: 1, subagents: 0 },
    pageId: 'x',
    events: 1,
    chunks: 1,
  }) as RunSummary;

describe("History's entries", () => {
  it("makes one entry of a comparison's runs, in the list's order, and one of every other run", () => {
    const runs = [
      run('e', 'isolated'),
      run('d', 'isolated', 'c2'),
      run('c', 'fork', 'c2'),
      run('b', 'none', 'c2'),
      run('a', 'none'),
    ];
    expect(historyEntries(runs).map((e) => [e.key, e.compared, e.runs.map((r) => r.id)])).toEqual([
      ['e', false, ['e']],
      ['c2', true, ['d', 'c', 'b']],
      ['a', false, ['a']],
    ]);
  });
});
