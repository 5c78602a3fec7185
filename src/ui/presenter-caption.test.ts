import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../core/messages';
import type { Trace } from '../models/replay';
import { traceRecord } from '../run/example';
import { momentsOf, Moments, type Moment } from '../run/moments';
import type { RunEvent } from '../run/record';
import { messageChars } from '../run/size';
import { loadLanguage } from './i18n';
import { locale } from './language.svelte';
import { captionOf } from './presenter-caption';
import { DEMO_SETTINGS } from '../../test/settings';

const user = (content: string): Message => ({ role: 'user', content });
const toolCall: Message = {
  role: 'assistant',
  content: [
    { type: 'tool_use', id: 'toolu_1', name: 'task', input: { prompt: 'find it', description: 'look' } },
  ],
};
const childCall: Message = {
  role: 'assistant',
  content: [{ type: 'tool_use', id: 'toolu_2', name: 'bash', input: { command: 'ls' } }],
};
const childResult: Message = {
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'a.py\nb.py\n' }],
};
const finalReply: Message = { role: 'assistant', content: [{ type: 'text', text: 'It uses pytest.' }] };

/** A run of prompt 1's shape: one task, a child with two calls, its result in the parent. */
const EVENTS: RunEvent[] = [
  {
    type: 'run',
    prompt: 'p',
    settings: DEMO_SETTINGS,
  },
  { type: 'status', status: { kind: 'running' } },
  { type: 'message', agent: 'parent', index: 0, message: user('p') },
  { type: 'model_start', agent: 'parent', call: 1 },
  { type: 'model_end', agent: 'parent', call: 1, durationMs: 1, stopReason: 'tool_use' },
  { type: 'message', agent: 'parent', index: 1, message: toolCall },
  { type: 'tool_start', agent: 'parent', id: 'toolu_1', name: 'task', input: {} },
  { type: 'task_start', agent: 'parent', id: 'toolu_1', description: 'look', prompt: 'find it' },
  {
    type: 'spawn',
    agent: 'subagent-1',
    from: 'parent',
    taskId: 'toolu_1',
    description: 'look',
    messages: [user('find it')],
  },
  { type: 'model_start', agent: 'subagent-1', call: 1 },
  { type: 'model_end', agent: 'subagent-1', call: 1, durationMs: 1, stopReason: 'tool_use' },
  { type: 'message', agent: 'subagent-1', index: 1, message: childCall },
  { type: 'message', agent: 'subagent-1', index: 2, message: childResult },
  { type: 'model_start', agent: 'subagent-1', call: 2 },
  { type: 'model_end', agent: 'subagent-1', call: 2, durationMs: 1, stopReason: 'end_turn' },
  { type: 'message', agent: 'subagent-1', index: 3, message: finalReply },
  { type: 'agent_state', agent: 'subagent-1', state: 'discarded', summary: 'It uses pytest.' },
  { type: 'task_end', agent: 'parent', id: 'toolu_1', summary: 'It uses pytest.' },
  { type: 'status', status: { kind: 'finished' } },
];

const childChars = [user('find it'), childCall, childResult, finalReply].map(messageChars);
const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);

afterEach(() => {
  locale.current = 'en';
});

beforeAll(async () => {
  await loadLanguage('zh');
  await loadLanguage('ja');
});

describe("the lesson's moments in a record", () => {
  it('stops at the task call, the fresh worker, each child call, its final text, the discard and the result', () => {
    const moments = momentsOf(EVENTS);
    expect(moments.map((m) => [m.kind, m.index])).toEqual([
      ['task', 7],
      ['spawn', 8],
      ['call', 9],
      ['call', 13],
      ['final', 15],
      ['discarded', 16],
      ['result', 17],
    ]);
    const [, spawn, call1, call2, final, discarded, result] = moments;
    expect(spawn).toMatchObject({
      agent: 'subagent-1',
      other: 'parent',
      count: 1,
      otherCount: 2,
      forked: false,
    });
    expect(call1).toMatchObject({ call: 1, count: 1, chars: childChars[0] });
    expect(call2).toMatchObject({ call: 2, count: 3, chars: sum(childChars.slice(0, 3)) });
    expect(final).toMatchObject({ agent: 'subagent-1', other: 'parent', chars: 'It uses pytest.'.length });
    expect(discarded).toMatchObject({ count: 4, chars: sum(childChars) });
    expect(result).toMatchObject({
      agent: 'parent',
      other: 'subagent-1',
      chars: 'It uses pytest.'.length,
      otherCount: 4,
      otherChars: sum(childChars),
    });
  });

  it('scans a growing record incrementally, to the same moments as a whole scan', () => {
    const moments = new Moments();
    for (let i = 0; i <= EVENTS.length; i++) moments.scan(EVENTS.slice(0, i));
    expect(moments.list).toEqual(momentsOf(EVENTS));
  });

  it("finds no moment in a run without a subagent, and the parent's own calls are none", () => {
    const solo = EVENTS.filter((e) => !('agent' in e) || e.agent === 'parent').filter(
      (e) => e.type !== 'task_start' && e.type !== 'task_end',
    );
    expect(momentsOf(solo)).toEqual([]);
  });

  it('tells a forked child from a fresh one', () => {
    const forked = EVENTS.map((e) =>
      e.type === 'spawn'
        ? {
            ...e,
            messages: [
              user('p'),
              { role: 'assistant', content: [{ type: 'text', text: 'ok' }] } as Message,
              user('find it'),
            ],
          }
        : e,
    );
    expect(momentsOf(forked)[1]).toMatchObject({ kind: 'spawn', forked: true, count: 3 });
  });

  it('finds the moments of the recorded reference run (a real model), in order', async () => {
    const trace: Trace = JSON.parse(
      readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
    );
    const { record } = await traceRecord(trace);
    const kinds = momentsOf(record.events).map((m) => m.kind);
    expect(kinds[0]).toBe('task');
    expect(kinds.slice(-3)).toEqual(['final', 'discarded', 'result']);
    const calls = record.events.filter((e) => e.type === 'model_start' && e.agent !== 'parent').length;
    expect(kinds.filter((k) => k === 'call')).toHaveLength(calls);
  });
});

describe('captions', () => {
  const captions = () => momentsOf(EVENTS).map(captionOf);

  it('say each moment in one sentence, with the figures of the record', () => {
    expect(captions()).toEqual([
      "Parent calls the task tool (“look”), handing this work to a subagent so that its reading never fills Parent's array.",
      'Subagent 1 starts in a fresh worker with a fresh array of one message, the task prompt alone, while Parent keeps its 2 messages to itself.',
      `Subagent 1 makes model call 1, sending its own 1 message (${childChars[0]} characters) and nothing of Parent's.`,
      `Subagent 1 makes model call 2, sending its own 3 messages (${sum(childChars.slice(0, 3))} characters) and nothing of Parent's.`,
      'Subagent 1 answers with its final text (15 characters): the only thing that will go back to Parent.',
      `Subagent 1's array of 4 messages (${sum(childChars)} characters) is discarded with its worker: Parent never sees it.`,
      `The result arrives in Parent as one tool_result of 15 characters, not Subagent 1's 4 messages (${sum(childChars)} characters).`,
    ]);
  });

  it.each(['zh', 'ja'] as const)('are said in %s, with no English word but the tool names', (language) => {
    locale.current = language;
    for (const caption of captions()) {
      expect(caption.replace(/task|tool_result|worker|look/g, '')).not.toMatch(/[A-Za-z]{3,}/);
      expect(caption).not.toMatch(/\{\{/);
    }
  });

  it('a moment of a kind it does not know is a plain description, never an error', () => {
    const unknown = { index: 3, kind: 'compacted', agent: 'subagent-2', other: null } as unknown as Moment;
    expect(captionOf(unknown)).toBe('Subagent 2: compacted.');
    const noAgent = { index: 0, kind: 'x', agent: 'someone' } as unknown as Moment;
    expect(captionOf(noAgent)).toBe('someone: x.');
  });
});
