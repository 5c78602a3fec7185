import { afterEach, describe, expect, it, vi } from 'vitest';
import { GROUPED_DRAW_MS, Pace } from './pace';

afterEach(() => vi.useRealTimers());

/** A pace on the fake clock, and how many draws it made so far. */
function paced() {
  vi.useFakeTimers();
  let draws = 0;
  const pace = new Pace(
    () => draws++,
    GROUPED_DRAW_MS,
    () => Date.now(),
  );
  return { pace, drawn: () => draws };
}

describe('the pace of a grouped run’s drawings', () => {
  it('draws once for a burst of asks, then at most once per GROUPED_DRAW_MS, and always the last ask', async () => {
    const { pace, drawn } = paced();
    for (let i = 0; i < 20; i++) pace.ask();
    expect(drawn()).toBe(0); // never in the asker's own task
    await vi.advanceTimersByTimeAsync(0);
    expect(drawn()).toBe(1);
    // A run that asks at every frame (16 ms) for two seconds: eight more draws, not a hundred.
    for (let t = 0; t < 2000; t += 16) {
      pace.ask();
      await vi.advanceTimersByTimeAsync(16);
    }
    expect(drawn()).toBe(1 + 2000 / GROUPED_DRAW_MS);
    // The run's last change is drawn, once, after the wait.
    pace.ask();
    await vi.advanceTimersByTimeAsync(GROUPED_DRAW_MS);
    expect(drawn()).toBe(2 + 2000 / GROUPED_DRAW_MS);
    await vi.advanceTimersByTimeAsync(GROUPED_DRAW_MS * 4);
    expect(drawn()).toBe(2 + 2000 / GROUPED_DRAW_MS);
  });

  it('draws nothing asked for once stopped', async () => {
    const { pace, drawn } = paced();
    pace.ask();
    pace.stop();
    await vi.advanceTimersByTimeAsync(GROUPED_DRAW_MS * 2);
    expect(drawn()).toBe(0);
  });
});
