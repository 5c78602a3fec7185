import { describe, expect, it } from 'vitest';
import { clampRecord, MAX_EVENT_T, MAX_STARTED_AT } from './clamp';
import { toOtlp } from './otlp';
import type { RunRecord } from './record';

function record(over: Partial<RunRecord> = {}, events: unknown[] = []): RunRecord {
  return {
    format: 's04-playground-run',
    version: 2,
    id: 'r1',
    startedAt: 1_700_000_000_000,
    title: 'p',
    settings: { provider: 'demo', model: 'demo', sample: 'python', sandbox: 'local', context: 'isolated' },
    events,
    ...over,
  } as unknown as RunRecord;
}

describe('clampRecord', () => {
  it('returns the same record when every number is in range', () => {
    const r = record({}, [{ t: 5, type: 'status', status: { kind: 'running' } }]);
    expect(clampRecord(r)).toBe(r);
  });

  it('holds a hostile start, event times and counts in range, without changing the record given', () => {
    const usage = { input_tokens: 1e300, output_tokens: Infinity, cache_read_input_tokens: -1e300 };
    const r = record({ startedAt: 1e300 }, [
      { t: 1e300, type: 'status', status: { kind: 'running' } },
      { t: -5, type: 'stream', agent: 'parent', event: { type: 'usage', usage } },
      { t: NaN, type: 'status', status: { kind: 'finished' } },
    ]);
    const clamped = clampRecord(r);
    expect(r.startedAt).toBe(1e300);
    expect(clamped.startedAt).toBe(MAX_STARTED_AT);
    expect(clamped.events.map((e) => e.t)).toEqual([MAX_EVENT_T, 0, 0]);
    expect((clamped.events[1] as unknown as { event: { usage: typeof usage } }).event.usage).toEqual({
      input_tokens: Number.MAX_SAFE_INTEGER,
      output_tokens: Number.MAX_SAFE_INTEGER,
      cache_read_input_tokens: -Number.MAX_SAFE_INTEGER,
    });
  });

  it('lets a clamped record export as OTLP with 64-bit nanoseconds and no exponent', () => {
    const r = clampRecord(
      record({ startedAt: 1e300 }, [{ t: 1e300, type: 'status', status: { kind: 'finished' } }]),
    );
    const spans = toOtlp(r).resourceSpans[0].scopeSpans[0].spans;
    for (const span of spans) {
      expect(BigInt(span.endTimeUnixNano) < 2n ** 64n).toBe(true);
      expect(span.endTimeUnixNano).toMatch(/^\d+$/);
    }
    expect(() => new Date(r.startedAt).toISOString()).not.toThrow();
  });
});
