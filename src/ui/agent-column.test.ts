import { describe, expect, it } from 'vitest';
import type { Message } from '../core/messages';
import { AgentColumn, resumableHistory } from './agent-column.svelte';

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

describe('a response cut off mid-stream', () => {
  it('keeps what had streamed, outside the array the model receives', () => {
    const column = new AgentColumn('parent', { messages: [prompt] });
    column.startCall();
    column.stream({ type: 'block_start', index: 0, block: { type: 'text', text: '' } });
    column.stream({ type: 'text_delta', index: 0, text: 'Let me look at ' });
    column.stream({ type: 'text_delta', index: 0, text: 'the files' });
    column.stream({ type: 'block_start', index: 1, block: { type: 'text', text: '' } });
    column.cutOffDraft();
    expect(column.draft).toBeNull();
    expect(column.cutOff).toEqual([{ type: 'text', text: 'Let me look at the files' }]);
    expect(column.messages).toEqual([prompt]);
    expect(resumableHistory(column.messages)).toEqual([]);
  });

  it('keeps nothing when nothing had streamed, and nothing after a completed response', () => {
    const column = new AgentColumn('parent', { messages: [prompt] });
    column.startCall();
    column.stream({ type: 'block_start', index: 0, block: { type: 'text', text: '' } });
    column.cutOffDraft();
    expect(column.cutOff).toBeNull();
    column.startCall();
    column.stream({ type: 'block_start', index: 0, block: { type: 'text', text: '' } });
    column.stream({ type: 'text_delta', index: 0, text: 'It uses pytest.' });
    column.setMessage(1, answer);
    column.cutOffDraft();
    expect(column.cutOff).toBeNull();
  });
});
