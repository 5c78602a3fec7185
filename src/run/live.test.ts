import { describe, expect, it } from 'vitest';
import { LiveRun } from './live';
import { DEMO_SETTINGS } from '../../test/settings';

describe('a live run held by the presenter', () => {
  it("keeps the held time out of the record's clock: events after it are stamped as if it never was", () => {
    let now = 1000;
    const run = new LiveRun('r', 'p', DEMO_SETTINGS, { epoch: 0, now: () => now });
    now = 1100;
    run.append({ type: 'model_start', agent: 'parent', call: 1 });
    run.hold(true);
    now = 9100; // eight seconds waiting for Continue
    expect(run.time()).toBe(100);
    run.hold(false);
    now = 9300;
    run.append({ type: 'model_end', agent: 'parent', call: 1, durationMs: 1, stopReason: 'end_turn' });
    expect(run.record.events.map((e) => e.t)).toEqual([100, 300]);
    // An event stamped in a worker before the hold keeps its own time.
    expect(run.time(1050)).toBe(50);
    // Held twice over, or let go twice: one hold.
    run.hold(true);
    run.hold(true);
    now = 9400;
    run.hold(false);
    run.hold(false);
    expect(run.time()).toBe(300);
  });
});
