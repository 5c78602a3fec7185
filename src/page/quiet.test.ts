import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { quiet, startWhenQuiet } from './quiet';

const TIMING = { afterRunMs: 2000, pollMs: 500 };

/** A page's runs as the playground counts them. */
function page() {
  const state = { busy: false, endedAt: null as number | null };
  return {
    state,
    runs: { running: () => state.busy, endedAt: () => state.endedAt },
    begin() {
      state.busy = true;
    },
    end() {
      state.busy = false;
      state.endedAt = performance.now();
    },
  };
}

/** Whether `promise` has settled, after the timers that are due have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('quiet', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('resolves at once on a page where no run is under way', async () => {
    const { runs } = page();
    expect(await settled(quiet(runs, TIMING))).toBe(true);
  });

  it('waits for a run to end, then for the time after a run', async () => {
    const p = page();
    p.begin();
    const waiting = quiet(p.runs, TIMING);
    await vi.advanceTimersByTimeAsync(3000);
    expect(await settled(waiting)).toBe(false);
    p.end();
    await vi.advanceTimersByTimeAsync(1500);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled(waiting)).toBe(true);
  });

  it('after quick runs back to back, waits from the last look that saw one; calm, a new wait resolves at once', async () => {
    const p = page();
    p.begin(); // under way when the wait begins: it waits
    const waiting = quiet(p.runs, TIMING);
    p.end();
    p.begin();
    p.end(); // a second, quick run, all before the next look
    await vi.advanceTimersByTimeAsync(500);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await settled(waiting)).toBe(true);

    const again = quiet(p.runs, TIMING); // calm now: resolves at once
    expect(await settled(again)).toBe(true);
    const later = quiet(p.runs, TIMING);
    p.begin();
    p.end(); // cannot be seen: the wait had already resolved at its first look
    expect(await settled(later)).toBe(true);
  });

  it('waits after a run that began and ended between two looks', async () => {
    const p = page();
    p.begin();
    const waiting = quiet(p.runs, TIMING);
    p.end();
    await vi.advanceTimersByTimeAsync(500); // a look after the end: the run was seen at the call
    expect(await settled(waiting)).toBe(false);
    p.begin();
    p.end(); // between looks
    await vi.advanceTimersByTimeAsync(1600);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled(waiting)).toBe(true);
  });

  it('waits after a run that ended before its first look, as after one it saw', async () => {
    const p = page();
    p.begin();
    await vi.advanceTimersByTimeAsync(3000);
    p.end(); // just before the wait begins (WebContainer's attempt, 3 s after boot)
    await vi.advanceTimersByTimeAsync(100);
    const waiting = quiet(p.runs, TIMING);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1500);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(500);
    expect(await settled(waiting)).toBe(true);
  });

  it('ends the wait at once when the page goes away', async () => {
    const p = page();
    p.begin();
    let gone = false;
    const waiting = quiet(p.runs, TIMING, () => gone);
    expect(await settled(waiting)).toBe(false);
    gone = true;
    await vi.advanceTimersByTimeAsync(500);
    expect(await settled(waiting)).toBe(true);
  });
});

describe('startWhenQuiet', () => {
  const options = { afterMs: 5000, pollMs: 1000, aheadAtMostMs: 30_000 };
  type Busy = (now: number) => boolean;
  const never: Busy = () => false;
  /** Runs `startWhenQuiet` under fake clocks for two minutes; the time `start` was called at, or null. */
  function schedule({
    running = never,
    ahead = never,
    afterRunMs,
  }: {
    running?: Busy;
    ahead?: Busy;
    afterRunMs?: number;
  }) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    try {
      const t0 = performance.now();
      let startedAt: number | null = null;
      startWhenQuiet(
        () => (startedAt ??= performance.now() - t0),
        { running: () => running(performance.now() - t0), ahead: () => ahead(performance.now() - t0) },
        { ...options, afterRunMs },
      );
      vi.advanceTimersByTime(120_000);
      return startedAt;
    } finally {
      vi.useRealTimers();
    }
  }

  it('starts a while after the page is ready, in an idle moment, when nothing is going on', () => {
    const at = schedule({});
    expect(at).toBeGreaterThanOrEqual(5000);
    expect(at).toBeLessThanOrEqual(7000);
  });

  it('waits for a run to end, however long it takes', () => {
    const at = schedule({ running: (now) => now < 60_000 });
    expect(at).toBeGreaterThanOrEqual(60_000);
    expect(at).toBeLessThanOrEqual(63_000);
  });

  it("waits for python3's load ahead to end", () => {
    const at = schedule({ ahead: (now) => now < 9_500 });
    expect(at).toBeGreaterThanOrEqual(9_500);
    expect(at).toBeLessThanOrEqual(12_500);
  });

  it('does not wait for a load ahead that never ends beyond its limit', () => {
    const at = schedule({ ahead: () => true });
    expect(at).toBeGreaterThanOrEqual(35_000);
    expect(at).toBeLessThanOrEqual(38_000);
  });

  it('after a run, waits `afterRunMs` more where asked (WebContainer’s attempt)', () => {
    // The run was last seen at 9 s: quiet from 14 s, then an idle moment.
    const at = schedule({ running: (now) => now < 10_000, afterRunMs: 5000 });
    expect(at).toBeGreaterThanOrEqual(14_000);
    expect(at).toBeLessThanOrEqual(17_000);
  });
});
