/**
 * A record made ready to be shown, off the page's thread: checked (./check.ts), clamped and
 * cleaned of secrets (./outgoing.ts), and every message measured (./size.ts). A worker does all
 * of it and hands the page the events a batch at a time, each batch with its messages' sizes, so
 * that no one message from the worker is a long task for the page to take in and the page never
 * measures a message again.
 *
 *   worker: parse ─► check ─► outgoing ─► sizes ─┬─► batch 1 (EVENTS_BATCH events, their sizes)
 *                                                ├─► batch 2 ...
 *                                                └─► the head (id, title, settings), what was removed
 *   page:   events appended ─► knownSize for each message ─► the record shown
 */
import type { Message } from '../core/messages';
import type { RecordEvent } from './record';
import { knownSize, messageChars, messageTokens } from './size';

/** How many events the worker sends at once, at most. */
export const EVENTS_BATCH = 4096;
/**
 * How many characters of messages a batch holds, at most (one message over it goes alone): the
 * page copies a batch in in one task, so a batch of long tool results is cut short.
 */
export const BATCH_CHARS = 2_000_000;

/** The messages an event carries whose sizes the screen reads: a message's, a spawn's array. */
function messagesOf(event: RecordEvent): readonly Message[] {
  if (event.type === 'message') return [event.message];
  if (event.type === 'spawn') return event.messages;
  return [];
}

/**
 * The sizes of the messages of `events`, flat, in their order: characters then tokens for each
 * message of each event (see messagesOf).
 */
export function sizesOf(events: readonly RecordEvent[]): number[] {
  const sizes: number[] = [];
  for (const event of events) {
    for (const message of messagesOf(event)) sizes.push(messageChars(message), messageTokens(message));
  }
  return sizes;
}

/**
 * Tells the size module the sizes `sizesOf` measured elsewhere for these events (copies of
 * theirs); false, and nothing told, when they do not fit the events (a count off, a size that is
 * not a count).
 */
export function takeSizes(events: readonly RecordEvent[], sizes: readonly number[]): boolean {
  let at = 0;
  for (const event of events) at += messagesOf(event).length * 2;
  if (at !== sizes.length || !sizes.every((n) => Number.isInteger(n) && n >= 0)) return false;
  at = 0;
  for (const event of events) {
    for (const message of messagesOf(event)) {
      knownSize(message, sizes[at], sizes[at + 1]);
      at += 2;
    }
  }
  return true;
}

/**
 * The record's events in batches of EVENTS_BATCH events or BATCH_CHARS characters of messages,
 * whichever comes first, each with its messages' sizes.
 */
export function* batches(
  events: readonly RecordEvent[],
): Generator<{ events: RecordEvent[]; sizes: number[] }> {
  let batch: RecordEvent[] = [];
  let sizes: number[] = [];
  let chars = 0;
  for (const event of events) {
    const measured = sizesOf([event]);
    let size = 0;
    for (let i = 0; i < measured.length; i += 2) size += measured[i];
    if (batch.length > 0 && (batch.length === EVENTS_BATCH || chars + size > BATCH_CHARS)) {
      yield { events: batch, sizes };
      batch = [];
      sizes = [];
      chars = 0;
    }
    batch.push(event);
    sizes.push(...measured);
    chars += size;
  }
  if (batch.length > 0) yield { events: batch, sizes };
}
