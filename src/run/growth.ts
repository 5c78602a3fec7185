/**
 * What each way of delegating would cost had the parent's conversation been longer: the compared
 * runs' own first turn, with 1, 3 or 10 earlier turns of the same size before it. Computed from the
 * call ledger, not drawn by hand, so that a learner sees where each mode goes as history grows:
 *
 *   each earlier turn left in the parent's array what this turn left (its context at the end less
 *   its system prompt and tools): history H = turns x that growth
 *   parent context                = this run's  + H
 *   every parent call sends        H more (the history is in its array)
 *   a fork's every call sends      H more (its array starts as a copy of the parent's)
 *   an isolated subagent's calls   the same (it starts from the task prompt alone)
 *
 * The extra tokens of a call are priced at the cache-read rate when that call read from the cache
 * (its prefix was cached, so the longer history would be too), else at the input rate.
 */
import type { CallEntry } from './ledger';
import { priceOf, type PriceRow } from './price';

export type GrowthMode = 'isolated' | 'none' | 'fork';

/** One compared run, as the growth needs it. */
export interface GrowthRun {
  mode: GrowthMode;
  /** Its calls, in start order (with simulated cache figures for a demo run with caching on). */
  calls: readonly CallEntry[];
  /** The parent's context at the end (the one measure). */
  parentContext: number;
}

/** One mode at one history length. */
export interface GrowthPoint {
  /** Earlier turns of history before this one. */
  turns: number;
  parentContext: number;
  /** Every call's sent plus received, in tokens. */
  tokens: number;
  /** In US dollars, or null when a call's model has no price. */
  dollars: number | null;
}

export const GROWTH_TURNS = [0, 1, 3, 10] as const;

function callDollars(
  call: CallEntry,
  extra: number,
  table: readonly PriceRow[],
  fallback: string | null,
): number | null {
  const price = priceOf(table, call.model ?? fallback);
  if (!price) return null;
  const input = call.input ?? { uncached: call.sent, cacheRead: 0, cacheWrite: 0 };
  const extraRate = input.cacheRead > 0 ? price.cacheRead : price.input;
  return (
    (input.uncached * price.input +
      input.cacheRead * price.cacheRead +
      input.cacheWrite * price.cacheWrite +
      call.received * price.output +
      extra * extraRate) /
    1e6
  );
}

/** Each run's figures with 0, 1, 3 and 10 earlier turns (GROWTH_TURNS). */
export function growth(
  runs: readonly GrowthRun[],
  table: readonly PriceRow[],
  fallbackModel: string | null = null,
): Array<{ mode: GrowthMode; points: GrowthPoint[] }> {
  return runs.map((run) => {
    const parentCalls = run.calls.filter((call) => call.agent === 'parent');
    const first = parentCalls[0];
    const overhead = first ? first.parts.system + first.parts.tools : 0;
    const perTurn = Math.max(0, run.parentContext - overhead);
    // The calls that carry the parent's history: the parent's, and a fork's children's.
    const carries = (call: CallEntry) => call.agent === 'parent' || run.mode === 'fork';
    const points = GROWTH_TURNS.map((turns): GrowthPoint => {
      const history = turns * perTurn;
      let tokens = 0;
      let dollars: number | null = 0;
      for (const call of run.calls) {
        const extra = carries(call) ? history : 0;
        tokens += call.sent + call.received + extra;
        const cost = callDollars(call, extra, table, fallbackModel);
        dollars = dollars === null || cost === null ? null : dollars + cost;
      }
      return { turns, parentContext: run.parentContext + history, tokens, dollars };
    });
    return { mode: run.mode, points };
  });
}
