import { describe, expect, it } from 'vitest';
import { parentCallsRecord } from '../../scripts/records.mjs';
import type { RunRecord } from './record';
import { CHECKPOINT, Replay } from './replay';

describe('a replay prepared a slice at a time', () => {
  it('makes its checkpoints in slices, then gives the same views as a replay made at once', () => {
    const record = parentCallsRecord(200, 100) as unknown as RunRecord;
    expect(record.events.length).toBeGreaterThan(3 * CHECKPOINT);
    // A copy of the events: what a replay learns of one array is kept for the next replay of it.
    const prepared = new Replay(structuredClone(record.events));
    let slices = 1;
    // No time at all: one checkpoint a slice.
    while (!prepared.prepare(0)) slices++;
    expect(slices).toBe(Math.floor(record.events.length / CHECKPOINT) + 1);
    expect(prepared.prepare(0)).toBe(true);

    const fresh = new Replay(record.events);
    for (const step of [0, 1, Math.floor(fresh.steps / 2), fresh.steps - 1, fresh.steps]) {
      const a = prepared.at(step);
      const b = fresh.at(step);
      expect(a.status).toEqual(b.status);
      expect(a.parent.messages).toEqual(b.parent.messages);
      expect(a.parent.tokens).toBe(b.parent.tokens);
      expect(a.log.length).toBe(b.log.length);
    }
    expect(prepared.at(prepared.steps).parent.messages.length).toBeGreaterThan(200);
  });

  it('has nothing to prepare for a record shorter than a checkpoint', () => {
    const record = parentCallsRecord(2, 10) as unknown as RunRecord;
    expect(record.events.length).toBeLessThan(CHECKPOINT);
    expect(new Replay(record.events).prepare(0)).toBe(true);
  });
});
