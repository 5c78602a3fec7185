import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../run/record';
import { overlaysOf, roundStep, roundTicks, timeTicks } from './axes';

describe('roundTicks', () => {
  it('gives four or five round ticks from 0 past the peak', () => {
    expect(roundTicks(1300, 4)).toEqual([0, 500, 1000, 1500]);
    expect(roundTicks(560, 4)).toEqual([0, 200, 400, 600]);
    expect(roundTicks(23, 4)).toEqual([0, 10, 20, 30]);
    expect(roundTicks(120_000, 4)).toEqual([0, 50_000, 100_000, 150_000]);
  });

  it('keeps a flat or empty chart readable', () => {
    expect(roundTicks(0, 4)).toEqual([0, 1]);
    expect(roundTicks(1, 4)).toEqual([0, 1]);
  });
});

describe('roundStep', () => {
  it('is 1, 2 or 5 times a power of ten', () => {
    expect([7, 130, 999, 4000].map((span) => roundStep(span, 4))).toEqual([2, 50, 500, 1000]);
  });
});

describe('timeTicks', () => {
  it('labels seconds from a tenth of a second up, milliseconds below', () => {
    expect(timeTicks(1290, 4).map((t) => t.label)).toEqual(['0', '0.5 s', '1.0 s']);
    expect(timeTicks(80, 4).map((t) => t.label)).toEqual(['0', '20 ms', '40 ms', '60 ms', '80 ms']);
    expect(timeTicks(12_000, 5).map((t) => t.label)).toEqual(['0', '5 s', '10 s']);
  });

  it('puts no tick past the run’s end', () => {
    for (const end of [1, 33, 999, 1001, 61_234]) {
      const ticks = timeTicks(end, 6);
      expect(ticks.at(-1)!.ms).toBeLessThanOrEqual(end);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
    }
  });
});

describe('overlaysOf', () => {
  const record = (name: string) => ({ prompt: name }) as unknown as RunRecord;
  const isolated = { mode: 'isolated' as const, record: record('isolated') };
  const none = { mode: 'none' as const, record: record('none') };
  const fork = { mode: 'fork' as const, record: record('fork') };

  it('draws every compared mode but the one shown, none first', () => {
    expect(overlaysOf([none, fork, isolated], isolated.record).map((r) => r.mode)).toEqual(['none', 'fork']);
    expect(overlaysOf([isolated, none], none.record).map((r) => r.mode)).toEqual(['isolated']);
    expect(overlaysOf([none, fork, isolated], null).map((r) => r.mode)).toEqual(['none', 'fork', 'isolated']);
  });
});
