import { describe, expect, it } from 'vitest';
import type { Message } from '../core/messages';
import { messageChars } from '../run/size';
import { arrayBar, arraySegments, kindsFound, segmentsMade } from './array-segments';

const prompt: Message = { role: 'user', content: 'find the test framework' };
const reply = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
const results = (id: string): Message => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: 'vitest' }],
});

describe('the array bar segments', () => {
  it('are made once per message and kind, and reused on every later step', () => {
    const messages: Message[] = [prompt, reply('a'), results('t1'), reply('b')];
    for (let i = 0; i < 2_000; i++) messages.push(reply(`r${i}`), results(`x${i}`));
    const before = segmentsMade.count;
    const first = arraySegments(messages, -1, new Set(['t1']));
    expect(segmentsMade.count - before).toBe(messages.length);
    expect(first.slice(0, 4)).toEqual([
      { kind: 'prompt', chars: messageChars(prompt) },
      { kind: 'assistant', chars: messageChars(messages[1]) },
      { kind: 'returned', chars: messageChars(messages[2]) },
      { kind: 'assistant', chars: messageChars(messages[3]) },
    ]);
    // Later steps: the same messages, a few more, and the answer sent back.
    const again = segmentsMade.count;
    for (let step = 0; step < 50; step++) arraySegments(messages.slice(0, 1_000 + step), -1, new Set(['t1']));
    expect(segmentsMade.count - again).toBe(0);
    const returned = arraySegments(messages.slice(0, 4), 3, new Set());
    expect(returned.map((s) => s.kind)).toEqual(['prompt', 'assistant', 'results', 'returned']);
    expect(segmentsMade.count - again).toBe(2);
  });

  it("reuse a longer array's bar for a step back or on towards it, looking only at the new messages", () => {
    const messages: Message[] = [prompt];
    for (let i = 0; i < 20_000; i++) messages.push(reply(`r${i}`), results(`x${i}`));
    const bar = arrayBar();
    const whole = bar(messages, -1, new Set());
    expect(whole.segments).toEqual(arraySegments(messages, -1, new Set()));
    let sum = 0;
    expect(whole.ends).toEqual(whole.segments.map((s) => (sum += s.chars)));
    // A scrub through it: every step is a prefix of the whole array.
    const before = kindsFound.count;
    for (const length of [40_001, 3, 20_000, 39_000, 1, 0, 12_345]) {
      const step = bar(messages.slice(0, length), -1, new Set());
      expect(step.segments).toEqual(whole.segments.slice(0, length));
      expect(step.ends).toEqual(whole.ends.slice(0, length));
    }
    expect(kindsFound.count - before).toBe(0);
    // An array that went another way at message 5, and then the answer sent back: looked at again.
    const other = [...messages.slice(0, 5), reply('another way'), results('x')];
    const changed = bar(other, -1, new Set());
    expect(kindsFound.count - before).toBe(2);
    expect(changed.segments).toEqual(arraySegments(other, -1, new Set()));
    const answered = bar(other, 5, new Set());
    expect(answered.segments.map((s) => s.kind)).toEqual([
      'prompt', 'assistant', 'results', 'assistant', 'results', 'returned', 'results',
    ]); // prettier-ignore
    const tasks = bar(other, 5, new Set(['x0']));
    expect(tasks.segments[2].kind).toBe('returned');
  });
});
