import { describe, expect, it } from 'vitest';
import { growth, GROWTH_TURNS } from './growth';
import type { CallEntry } from './ledger';
import type { PriceRow } from './price';

function call(agent: string, sent: number, received: number, over: Partial<CallEntry> = {}): CallEntry {
  return {
    agent,
    n: 1,
    seq: 1,
    event: 0,
    start: 0,
    end: 1,
    model: 'm',
    parts: { system: 100, tools: 200, messages: sent - 300 },
    sent,
    input: null,
    received,
    counted: false,
    replied: true,
    stopReason: 'end_turn',
    ...over,
  };
}

const TABLE: PriceRow[] = [{ model: 'm', input: 1, output: 2, cacheWrite: 1.25, cacheRead: 0.1 }];

describe('growth: the compared runs with a longer history before them', () => {
  // Each run: the parent ends at 500 tokens of context, 300 of them its system prompt and tools,
  // so every earlier turn left 200 in its array.
  const parent = [call('parent', 350, 50), call('parent', 450, 50)];
  const child = [call('subagent-1', 400, 100), call('subagent-1', 600, 100)];

  it("adds the history to the parent's context, and to what every call that carries it sends", () => {
    const [isolated, fork, none] = growth(
      [
        { mode: 'isolated', calls: [...parent, ...child], parentContext: 500 },
        { mode: 'fork', calls: [...parent, ...child], parentContext: 500 },
        { mode: 'none', calls: parent, parentContext: 500 },
      ],
      TABLE,
    );
    expect(isolated.points.map((p) => p.turns)).toEqual([...GROWTH_TURNS]);
    expect(isolated.points.map((p) => p.parentContext)).toEqual([500, 700, 1100, 2500]);
    const base = 350 + 50 + 450 + 50 + 400 + 100 + 600 + 100;
    // Isolated: only the parent's 2 calls carry the history.
    expect(isolated.points.map((p) => p.tokens)).toEqual([
      base,
      base + 2 * 200,
      base + 2 * 600,
      base + 2 * 2000,
    ]);
    // Fork: the child's 2 calls carry it too.
    expect(fork.points.map((p) => p.tokens)).toEqual([base, base + 4 * 200, base + 4 * 600, base + 4 * 2000]);
    expect(none.points[3].tokens).toBe(900 + 2 * 2000);
    // Uncached, every token at the input rate and the replies at the output rate.
    expect(isolated.points[0].dollars).toBeCloseTo(((350 + 450 + 400 + 600) * 1 + 300 * 2) / 1e6, 12);
    expect(isolated.points[3].dollars! - isolated.points[0].dollars!).toBeCloseTo((2 * 2000 * 1) / 1e6, 12);
  });

  it('prices the longer history of a call that read from the cache at the cache-read rate', () => {
    const cached = [
      call('parent', 350, 50, { input: { uncached: 50, cacheRead: 0, cacheWrite: 300 } }),
      call('parent', 450, 50, { input: { uncached: 50, cacheRead: 300, cacheWrite: 100 } }),
    ];
    const [run] = growth([{ mode: 'none', calls: cached, parentContext: 500 }], TABLE);
    const extra = run.points[2].dollars! - run.points[0].dollars!;
    // 600 more tokens per call: the first call (nothing read) at the input rate, the second at the cache-read rate.
    expect(extra).toBeCloseTo((600 * 1 + 600 * 0.1) / 1e6, 12);
  });

  it('has no price for a run whose model has none, its tokens still counted', () => {
    const [run] = growth([{ mode: 'none', calls: parent, parentContext: 500 }], []);
    expect(run.points.every((p) => p.dollars === null)).toBe(true);
    expect(run.points[1].tokens).toBe(900 + 2 * 200);
  });
});
