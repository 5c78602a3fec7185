import { describe, expect, it } from 'vitest';
import type { Message } from '../core/messages';
import { arrayChars, resumableHistory } from './figures';

const prompt: Message = { role: 'user', content: 'find tests' };
const callsTask: Message = {
  role: 'assistant',
  content: [{ type: 'tool_use', id: 't1', name: 'task', input: { prompt: 'x' } }],
};
const results: Message = {
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: 't1', content: 'pytest' }],
};
const answer: Message = { role: 'assistant', content: [{ type: 'text', text: 'It uses pytest.' }] };

describe('resumableHistory', () => {
  it('keeps a history that ends with a finished answer', () => {
    const history = [prompt, callsTask, results, answer];
    expect(resumableHistory(history)).toEqual(history);
  });

  it('drops a turn stopped before its tool results came back', () => {
    expect(resumableHistory([prompt, callsTask, results, answer, prompt, callsTask])).toEqual([
      prompt,
      callsTask,
      results,
      answer,
    ]);
  });

  it('drops a prompt that was never answered', () => {
    expect(resumableHistory([prompt])).toEqual([]);
    expect(resumableHistory([prompt, callsTask, results])).toEqual([]);
  });
});

describe('array sizes', () => {
  it('measures an array as the JSON it is sent as', () => {
    const chars = JSON.stringify(prompt).length + JSON.stringify(answer).length;
    expect(arrayChars([prompt, answer])).toBe(chars);
  });
});
