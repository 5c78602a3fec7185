import { describe, expect, it } from 'vitest';
import { BATCH_CHARS, batches, EVENTS_BATCH, sizesOf, takeSizes } from './opening';
import type { RecordEvent } from './record';
import { messageChars, messageTokens } from './size';
import type { Message } from '../core/messages';

const message = (text: string, t = 0): RecordEvent => ({
  type: 'message',
  agent: 'parent',
  index: 0,
  message: { role: 'user', content: text },
  t,
});
const spawn = (texts: string[]): RecordEvent => ({
  type: 'spawn',
  agent: 'subagent-1',
  from: 'parent',
  taskId: 'toolu_1',
  description: 'look',
  messages: texts.map((text): Message => ({ role: 'user', content: text })),
  t: 1,
});
const log: RecordEvent = { type: 'log', agent: 'parent', line: 'hello', t: 2 };

describe('a record handed from the worker to the page', () => {
  it("measures every message of a batch, a spawn's array included, in order", () => {
    const events = [message('abc'), log, spawn(['de', 'fghij'])];
    const measured = sizesOf(events);
    const all = [
      (events[0] as Extract<RecordEvent, { type: 'message' }>).message,
      ...(events[2] as Extract<RecordEvent, { type: 'spawn' }>).messages,
    ];
    expect(measured).toEqual(all.flatMap((m) => [messageChars(m), messageTokens(m)]));
    expect(measured[0]).toBe(JSON.stringify(all[0]).length);
  });

  it('tells the page the sizes measured in the worker, so that the copies are not measured again', () => {
    const events = [message('a short one'), spawn(['x'])];
    // Copies, as the page receives them; sizes that differ from the real ones show which were read.
    const copies = structuredClone(events);
    const told = [1000, 250, 2000, 500];
    expect(takeSizes(copies, told)).toBe(true);
    const copied = copies[0] as Extract<RecordEvent, { type: 'message' }>;
    expect(messageChars(copied.message)).toBe(1000);
    expect(messageTokens(copied.message)).toBe(250);
    expect(messageChars((copies[1] as Extract<RecordEvent, { type: 'spawn' }>).messages[0])).toBe(2000);
  });

  it('tells nothing when the sizes do not fit the events', () => {
    const copies = structuredClone([message('abcdef')]);
    expect(takeSizes(copies, [5])).toBe(false);
    expect(takeSizes(copies, [5, -1])).toBe(false);
    expect(takeSizes(copies, [5.5, 1])).toBe(false);
    const copied = copies[0] as Extract<RecordEvent, { type: 'message' }>;
    expect(messageChars(copied.message)).toBe(JSON.stringify(copied.message).length);
  });

  it('hands the events over in batches of EVENTS_BATCH, each with its own sizes, none lost', () => {
    const events = Array.from({ length: EVENTS_BATCH * 2 + 3 }, (_, i) =>
      i % 2 ? log : message(`m${i}`, i),
    );
    const handed = [...batches(events)];
    expect(handed.map((b) => b.events.length)).toEqual([EVENTS_BATCH, EVENTS_BATCH, 3]);
    expect(handed.flatMap((b) => b.events)).toEqual(events);
    for (const batch of handed) expect(batch.sizes).toEqual(sizesOf(batch.events));
  });

  it('cuts a batch short at BATCH_CHARS characters of messages; a longer message goes alone', () => {
    const long = message('x'.repeat(BATCH_CHARS / 3), 1);
    const huge = message('y'.repeat(BATCH_CHARS * 2), 2);
    const events = [long, log, long, long, huge, long];
    const handed = [...batches(events)];
    expect(handed.map((b) => b.events.length)).toEqual([3, 1, 1, 1]);
    expect(handed.flatMap((b) => b.events)).toEqual(events);
    for (const batch of handed) expect(batch.sizes).toEqual(sizesOf(batch.events));
  });
});
