import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Trace } from '../models/replay';
import { simulatedCalls, simulatesCache } from './cache-figures';
import { traceRecord } from './example';
import { modelCalls } from './measures';
import type { RunRecord } from './record';

const trace: Trace = JSON.parse(
  readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
);

/** The reference run as if the demo model had made it with prompt caching on (its usage not counted). */
async function demoRecord(): Promise<RunRecord> {
  const { record } = await traceRecord(trace);
  const settings = { ...record.settings, provider: 'demo' as const, model: 'demo', cache: true };
  const events = record.events.map((e) => (e.type === 'run' ? { ...e, settings } : e));
  return { ...record, settings, events };
}

describe("a demo run's simulated cache figures", () => {
  it('applies only to a demo run with prompt caching on', async () => {
    const record = await demoRecord();
    expect(simulatesCache(record)).toBe(true);
    expect(simulatesCache({ ...record, settings: { ...record.settings, cache: false } })).toBe(false);
    expect(simulatesCache({ ...record, settings: { ...record.settings, provider: 'anthropic' } })).toBe(
      false,
    );
  });

  it('splits what each call sent into uncached, cache read and cache write, the sum unchanged', async () => {
    const record = await demoRecord();
    const estimated = modelCalls(record).calls;
    const calls = simulatedCalls(record);
    expect(calls.map((c) => [c.agent, c.n])).toEqual(estimated.map((c) => [c.agent, c.n]));
    for (const [i, call] of calls.entries()) {
      expect(call.simulated).toBe(true);
      expect(call.counted).toBe(false);
      expect(call.input!.uncached + call.input!.cacheRead + call.input!.cacheWrite).toBe(estimated[i].sent);
      expect(call.usage.output_tokens).toBe(estimated[i].received);
    }
  });

  it("reads each agent's conversation so far from the cache once it is long enough, and starts each agent with nothing to read", async () => {
    const calls = simulatedCalls(await demoRecord());
    const sub = calls.filter((c) => c.agent === 'subagent-1');
    expect(sub.length).toBeGreaterThan(2);
    // Its first call: a system prompt and tools of its own, nothing cached yet for them.
    expect(sub[0].input!.cacheRead).toBe(0);
    // Every later call reads at least what the one before it cached (its prefix is that call's request).
    for (let i = 1; i < sub.length; i++) {
      const before = sub[i - 1].input!;
      if (before.cacheRead + before.cacheWrite > 0) {
        expect(sub[i].input!.cacheRead).toBeGreaterThanOrEqual(before.cacheRead + before.cacheWrite);
      }
    }
    expect(sub.some((c) => c.input!.cacheRead > 0)).toBe(true);
    expect(calls.find((c) => c.agent === 'parent')!.input!.cacheRead).toBe(0);
  });
});

describe('pricing a demo run with its simulated cache figures', () => {
  it('costs less with caching on than the same run all uncached, and says it is simulated', async () => {
    const { priceRecord, DEFAULT_PRICES } = await import('./price');
    const record = await demoRecord();
    // The reference run's requests name its own model: priced here at Sonnet 5.5's rates.
    const model = modelCalls(record).calls[0].model!;
    const priced = [{ ...DEFAULT_PRICES.find((row) => row.model === 'claude-sonnet-5-5')!, model }];
    const cached = priceRecord(record, priced);
    const plain = priceRecord({ ...record, settings: { ...record.settings, cache: false } }, priced);
    expect(cached.simulated).toBe(true);
    expect(plain.simulated).toBe(false);
    expect(cached.priced).toBe(plain.priced);
    expect(cached.cacheReadDollars).toBeGreaterThan(0);
    expect(cached.dollars).toBeLessThan(plain.dollars);
    expect(priceRecord(record, DEFAULT_PRICES).unpriced).toEqual([model]);
  });
});
