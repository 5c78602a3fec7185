/**
 * Numbers a record may hold, held in range before the record is shown or exported. A file can say
 * anything (`startedAt: 1e300`, a token count of 1e400, which JSON reads as Infinity); the screen,
 * a date in a file's name and OTLP's 64-bit nanoseconds and integers cannot. Clamped, such a run
 * opens and exports; nothing a real run writes is ever out of these ranges.
 */
import type { RunRecord } from './record';
import { copyDeep } from './secrets';

/** The latest start a record may name (2100-01-01): any time of it fits OTLP's 64-bit nanoseconds. */
export const MAX_STARTED_AT = Date.UTC(2100, 0, 1);
/** The latest an event may come after its run's start: 1000 days, in ms. */
export const MAX_EVENT_T = 1000 * 86_400_000;

function within(n: number, low: number, high: number): number {
  return Number.isNaN(n) ? low : Math.min(high, Math.max(low, n));
}

/** Any other number: finite and a safe integer's size at most (OTLP writes integers as int64). */
function safe(n: number): number {
  if (Number.isNaN(n)) return 0;
  return within(n, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
}

/** Whether a number is to be clamped where it is: `startedAt`, an event's `t`, or any other. */
function clampOf(key: string, depth: 'record' | 'event' | 'inner', n: number): number {
  if (depth === 'record' && key === 'startedAt') return within(n, 0, MAX_STARTED_AT);
  if (depth === 'event' && key === 't') return within(n, 0, MAX_EVENT_T);
  return safe(n);
}

/**
 * The record with its numbers in range (see the top of this file): the same record when all are,
 * else a copy (the record given is never changed). Searched with a list, not by recursion.
 */
export function clampRecord(record: RunRecord): RunRecord {
  if (!walk(record, false)) return record;
  const copy = copyDeep(record);
  walk(copy, true);
  return copy;
}

function walk(record: RunRecord, apply: boolean): boolean {
  let found = false;
  const pending: Array<[unknown, 'record' | 'event' | 'inner']> = [[record, 'record']];
  while (pending.length) {
    const [next, depth] = pending.pop()!;
    const object = next as Record<string, unknown>;
    for (const key in object) {
      const item = object[key];
      if (typeof item === 'number') {
        const clamped = clampOf(key, depth, item);
        if (Object.is(clamped, item)) continue;
        if (!apply) return true;
        object[key] = clamped;
        found = true;
      } else if (typeof item === 'object' && item !== null) {
        const events = depth === 'record' && key === 'events';
        if (events) for (const event of item as unknown[]) pending.push([event, 'event']);
        else pending.push([item, 'inner']);
      }
    }
  }
  return found;
}
