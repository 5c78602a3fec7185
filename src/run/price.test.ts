import { describe, expect, it } from 'vitest';
import type { CallEntry } from './ledger';
import {
  cacheReadShare,
  compareLesson,
  DEFAULT_PRICES,
  formatDollars,
  priceFieldProblem,
  priceOf,
  priceRun,
  type PriceRow,
} from './price';

function call(over: Partial<CallEntry>): CallEntry {
  return {
    agent: 'parent',
    n: 1,
    seq: 1,
    event: 0,
    start: 0,
    end: 1,
    model: 'm',
    parts: { system: 0, tools: 0, messages: 0 },
    sent: 0,
    input: null,
    received: 0,
    counted: false,
    replied: true,
    stopReason: 'end_turn',
    ...over,
  };
}

const TABLE: PriceRow[] = [{ model: 'm', input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 }];

describe('priceRun', () => {
  it('prices each part of a counted call at its own rate', () => {
    const price = priceRun(
      [call({ input: { uncached: 1000, cacheRead: 10_000, cacheWrite: 2000 }, sent: 13_000, received: 500 })],
      TABLE,
    );
    // 1000*2 + 500*10 + 10000*0.2 + 2000*2.5 = 2000 + 5000 + 2000 + 5000 = 14000 per million
    expect(price.dollars).toBeCloseTo(0.014, 10);
    expect(price.cacheReadDollars).toBeCloseTo(0.002, 10);
    expect(price.cacheWriteDollars).toBeCloseTo(0.005, 10);
    expect(cacheReadShare(price)).toBe(14);
    expect(price.priced).toBe(1);
  });

  it('counts an estimated call, or one without cache fields, as uncached input', () => {
    const price = priceRun([call({ sent: 1_000_000, received: 100_000 })], TABLE);
    expect(price.dollars).toBeCloseTo(2 + 1, 10);
    expect(price.cacheReadDollars).toBe(0);
  });

  it('leaves a model without a price out, and names it once', () => {
    const price = priceRun(
      [call({ model: 'other', sent: 50 }), call({ model: 'other', sent: 70 }), call({ sent: 1_000_000 })],
      TABLE,
    );
    expect(price.unpriced).toEqual(['other']);
    expect(price.priced).toBe(1);
    expect(price.dollars).toBeCloseTo(2, 10);
  });

  it('uses the fallback model for a call whose request was not kept', () => {
    expect(priceRun([call({ model: null, sent: 1_000_000 })], TABLE, 'm').dollars).toBeCloseTo(2, 10);
    expect(priceRun([call({ model: null, sent: 1_000_000 })], TABLE).unpriced).toEqual(['?']);
  });
});

describe('the price table', () => {
  it('has a dated default row for each suggested Claude model, cache reads cheaper than input', () => {
    for (const id of ['claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5']) {
      const price = priceOf(DEFAULT_PRICES, id);
      expect(price).not.toBeNull();
      expect(price!.cacheRead).toBeLessThan(price!.input);
      expect(price!.cacheWrite).toBeGreaterThan(price!.input);
    }
    expect(priceOf(DEFAULT_PRICES, 'qwen3.5-plus')).toBeNull();
  });

  it('refuses a price that is not a number', () => {
    expect(priceFieldProblem('3')).toBeNull();
    expect(priceFieldProblem('0.125')).toBeNull();
    expect(priceFieldProblem(' 2.5 ')).toBeNull();
    for (const bad of ['', 'abc', '-1', '1e3', '2,5', '$3', 'NaN', 'Infinity']) {
      expect(priceFieldProblem(bad)).toBe('notANumber');
    }
  });
});

describe('formatDollars', () => {
  it('writes small amounts with two significant digits', () => {
    expect(formatDollars(0.0041)).toBe('$0.0041');
    expect(formatDollars(0.000123)).toBe('$0.00012');
    expect(formatDollars(0.5)).toBe('$0.50');
    expect(formatDollars(12.345)).toBe('$12.35');
    expect(formatDollars(0)).toBe('$0');
  });
});

describe('compareLesson', () => {
  const priced = (dollars: number, cacheReadDollars = 0) => ({
    dollars,
    cacheReadDollars,
    cacheWriteDollars: 0,
    priced: 3,
    unpriced: [],
  });

  it('names the mode that keeps the parent smallest and the one that costs least, with why', () => {
    expect(
      compareLesson([
        { mode: 'none', parentContext: 3000, price: priced(0.004) },
        { mode: 'isolated', parentContext: 600, price: priced(0.005) },
      ]),
    ).toEqual({ smallest: 'isolated', cheapest: 'none', why: 'oneConversation', cacheShare: 0 });
    expect(
      compareLesson([
        { mode: 'none', parentContext: 3000, price: priced(0.006) },
        { mode: 'fork', parentContext: 900, price: priced(0.003, 0.002) },
        { mode: 'isolated', parentContext: 600, price: priced(0.005) },
      ]),
    ).toEqual({ smallest: 'isolated', cheapest: 'fork', why: 'cacheReads', cacheShare: 67 });
    expect(
      compareLesson([
        { mode: 'none', parentContext: 3000, price: priced(0.006) },
        { mode: 'isolated', parentContext: 600, price: priced(0.005) },
      ]),
    ).toMatchObject({ smallest: 'isolated', cheapest: 'isolated', why: 'same' });
  });

  it("names isolated, the reference's mode, when fork keeps the parent as small", () => {
    expect(
      compareLesson([
        { mode: 'none', parentContext: 3000, price: priced(0.004) },
        { mode: 'fork', parentContext: 600, price: priced(0.006) },
        { mode: 'isolated', parentContext: 600, price: priced(0.006) },
      ]),
    ).toMatchObject({ smallest: 'isolated', cheapest: 'none' });
  });

  it('names no cheapest when a run has no price, and nothing with one run', () => {
    expect(
      compareLesson([
        { mode: 'none', parentContext: 3000, price: null },
        { mode: 'isolated', parentContext: 600, price: priced(0.005) },
      ]),
    ).toEqual({ smallest: 'isolated', cheapest: null, why: null, cacheShare: 0 });
    expect(compareLesson([{ mode: 'none', parentContext: 1, price: null }])).toBeNull();
  });
});
