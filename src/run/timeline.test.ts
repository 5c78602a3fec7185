import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Trace } from '../models/replay';
import { traceRecord } from './example';
import type { RunRecord } from './record';
import { coalesce, keepUnchanged, workersTimeline, type SegmentGroup } from './timeline';

const trace: Trace = JSON.parse(
  readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
);

/** The same record read from scratch: a copy the timeline has not read before. */
const fresh = (record: RunRecord, upTo: number): RunRecord => ({
  ...record,
  events: record.events.slice(0, upTo),
});

describe('the workers timeline of a growing record', () => {
  it('reads on from where it stopped and gives what a whole read gives, at every length', async () => {
    const { record } = await traceRecord(trace);
    const all = record.events;
    expect(all.length).toBeGreaterThan(20);
    const growing: RunRecord = { ...record, events: [] };
    for (let n = 1; n <= all.length; n++) {
      growing.events.push(all[n - 1]);
      const read = workersTimeline(growing);
      expect(read).toEqual(workersTimeline(fresh(record, n)));
    }
  });

  it('gives rows of its own at each look, so that closing a call later does not change an earlier look', async () => {
    const { record } = await traceRecord(trace);
    const all = record.events;
    const startAt = all.findIndex((e) => e.type === 'model_start');
    const growing: RunRecord = { ...record, events: all.slice(0, startAt + 1) };
    const before = workersTimeline(growing);
    const open = before.rows.flatMap((r) => r.segments).filter((s) => s.event === startAt);
    expect(open).toHaveLength(1);
    expect(open[0].end).toBe(before.end);
    const endAt = all.findIndex((e, i) => i > startAt && e.type === 'model_end');
    growing.events.push(...all.slice(startAt + 1, endAt + 1));
    const after = workersTimeline(growing);
    expect(after.rows.flatMap((r) => r.segments).find((s) => s.event === startAt)?.end).toBe(all[endAt].t);
    expect(open[0].end).toBe(before.end);
    expect(after.rows[0]).not.toBe(before.rows[0]);
  });

  it('reads a record again from its start when it is shorter than what was read', async () => {
    const { record } = await traceRecord(trace);
    const growing: RunRecord = { ...record, events: [...record.events] };
    workersTimeline(growing);
    growing.events.length = 10;
    expect(workersTimeline(growing)).toEqual(workersTimeline(fresh(record, 10)));
  });
});

describe('redrawing a growing record', () => {
  it('gives back the same bar for each call that did not change, new ones only for what did', async () => {
    const { record } = await traceRecord(trace);
    const all = record.events;
    const growing: RunRecord = { ...record, events: [] };
    const drawn = new Map<string, SegmentGroup[]>();
    let kept = 0;
    let made = 0;
    for (const event of all) {
      growing.events.push(event);
      const { rows, end } = workersTimeline(growing);
      for (const row of rows) {
        const before = drawn.get(row.id);
        const groups = keepUnchanged(before, coalesce(row.segments, Math.max(1, end)));
        // Every bar as a fresh look draws it...
        expect(groups).toEqual(coalesce(row.segments, Math.max(1, end)));
        for (const [i, group] of groups.entries()) {
          // ...a bar that draws exactly as before is the very same object, and only such a one
          // (an open call grows at every look: a new bar each time).
          const same = before !== undefined && i < before.length && isDeepStrictEqual(before[i], group);
          expect(before?.[i] === group).toBe(same);
          if (same) kept++;
          else made++;
        }
        if (before && groups.every((g, i) => g === before[i]) && groups.length === before.length)
          expect(groups).toBe(before);
        drawn.set(row.id, groups);
      }
    }
    // Most looks redraw calls closed before them: those are kept, never made again.
    expect(kept).toBeGreaterThan(made);
  });
});
