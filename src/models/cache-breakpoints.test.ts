import { describe, expect, it } from 'vitest';
import type { Message } from '../core/messages';
import type { ModelRequest } from '../core/model';
import { forkMessages } from '../core/variants';
import { EPHEMERAL, withCacheBreakpoints } from './cache-breakpoints';

const history: Message[] = [
  { role: 'user', content: 'Explore the project' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a.py' }] },
];

function request(messages: Message[]): ModelRequest {
  return {
    model: 'm',
    system: 'You are a coding agent.',
    tools: [
      {
        name: 'bash',
        description: 'Run a command',
        input_schema: { type: 'object', properties: {}, required: [] },
      },
      {
        name: 'task',
        description: 'Delegate',
        input_schema: { type: 'object', properties: {}, required: [] },
      },
    ],
    messages,
    max_tokens: 8000,
  };
}

/** The body's JSON with every cache marker taken out: what the prefix is made of. */
function unmarked(body: unknown): string {
  return JSON.stringify(body, (key, value: unknown) => (key === 'cache_control' ? undefined : value));
}

describe('withCacheBreakpoints', () => {
  it('marks the last tool, the system prompt and the last block of the last message', () => {
    const body = withCacheBreakpoints(request(history)) as {
      system: Array<Record<string, unknown>>;
      tools: Array<Record<string, unknown>>;
      messages: Array<{ content: Array<Record<string, unknown>> }>;
    };
    expect(body.system).toEqual([
      { type: 'text', text: 'You are a coding agent.', cache_control: EPHEMERAL },
    ]);
    expect(body.tools.map((t) => t.cache_control)).toEqual([undefined, EPHEMERAL]);
    expect(body.messages[2].content.at(-1)?.cache_control).toEqual(EPHEMERAL);
    expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(3);
  });

  it('turns a last message given as a string into one marked text block', () => {
    const body = withCacheBreakpoints(request([{ role: 'user', content: 'Hi' }])) as {
      messages: Array<{ content: unknown }>;
    };
    expect(body.messages[0].content).toEqual([{ type: 'text', text: 'Hi', cache_control: EPHEMERAL }]);
  });

  it('leaves the request and the agent array untouched', () => {
    const req = request(structuredClone(history));
    const before = JSON.stringify(req);
    withCacheBreakpoints(req);
    expect(JSON.stringify(req)).toBe(before);
  });

  it("keeps a fork child's messages byte-identical to its caller's history, markers aside", () => {
    const parent = withCacheBreakpoints(request(history)) as { messages: unknown[] };
    const child = withCacheBreakpoints(request(forkMessages(history, 'Read a.py'))) as {
      messages: Array<{ content: Array<Record<string, unknown>> }>;
    };
    // The child's array: the caller's history, with the task prompt as the last user message's last block.
    const childPrefix = [
      ...child.messages.slice(0, -1),
      { ...child.messages.at(-1), content: child.messages.at(-1)!.content.slice(0, -1) },
    ];
    expect(unmarked(childPrefix)).toBe(unmarked(parent.messages));
    expect(child.messages.at(-1)!.content.at(-1)).toEqual({
      type: 'text',
      text: 'Read a.py',
      cache_control: EPHEMERAL,
    });
  });
});
