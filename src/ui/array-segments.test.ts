import { describe, expect, it } from 'vitest';
import type { Message } from '../core/messages';
import { messageChars } from '../run/size';
import { arraySegments, segmentsMade } from './array-segments';

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
});
