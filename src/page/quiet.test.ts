import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { quiet } from './quiet';

const TIMING = { afterRunMs: 2000, pollMs: 500 };

/** A page's runs as the playground counts them. */
function page() {
  const state = { busy: false, started: 0 };
  return {
    state,
    runs: { busy: () => state.busy, started: () => state.started },
    begin() {
      state.busy = true;
      state.started++;
    },
    end() {
      state.busy = false;
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
  beforeEach(() => vi.useFakeTimers());
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

  it('counts a run that began and ended between two looks as just ended', async () => {
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
