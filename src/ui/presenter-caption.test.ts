import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../core/messages';
import type { Trace } from '../models/replay';
import { traceRecord } from '../run/example';
import { momentsOf, Moments, type Moment } from '../run/moments';
import { Replay } from '../run/replay';
import { modelCalls } from '../run/measures';
import type { RunEvent, RunRecord } from '../run/record';
import { messageTokens } from '../run/size';
import { loadLanguage } from './i18n';
import { locale } from './language.svelte';
import { callFigures, captionOf } from './presenter-caption';
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
const parentResult: Message = {
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'It uses pytest.' }],
};
const parentReply: Message = { role: 'assistant', content: [{ type: 'text', text: 'pytest.' }] };

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
  {
    type: 'tool_end',
    agent: 'parent',
    id: 'toolu_1',
    name: 'task',
    output: 'It uses pytest.',
    durationMs: 1,
  },
  { type: 'message', agent: 'parent', index: 2, message: parentResult },
  { type: 'model_start', agent: 'parent', call: 2 },
  { type: 'model_end', agent: 'parent', call: 2, durationMs: 1, stopReason: 'end_turn' },
  { type: 'message', agent: 'parent', index: 3, message: parentReply },
  { type: 'status', status: { kind: 'finished' } },
];

const RECORD = {
  format: 's04-playground-run',
  version: 2,
  id: 'r',
  startedAt: 0,
  title: 'p',
  settings: DEMO_SETTINGS,
  events: EVENTS.map((event, t) => ({ ...event, t })),
} as RunRecord;

/** What a call sent and received, as the chart and the columns read it (./measures.ts). */
/** A call's line of the call ledger (src/run/ledger.ts), which the columns and the chart read too. */
function ledger(agent: string, call: number): { sent: number; output: number; context: number } {
  const entry = modelCalls(RECORD).calls.find((c) => c.agent === agent && c.n === call)!;
  return { sent: entry.sent, output: entry.received, context: entry.sent + entry.received };
}

afterEach(() => {
  locale.current = 'en';
});

beforeAll(async () => {
  await loadLanguage('zh');
  await loadLanguage('ja');
});

describe("the lesson's moments in a record", () => {
  it("stops at every call, the task, the fresh worker, the child's final text, the discard and the result in the caller's array", () => {
    const moments = momentsOf(EVENTS);
    expect(moments.map((m) => [m.kind, m.agent, m.index, m.message])).toEqual([
      ['call', 'parent', 3, 0],
      ['task', 'parent', 7, 1],
      ['spawn', 'subagent-1', 8, 0],
      ['call', 'subagent-1', 9, 0],
      ['call', 'subagent-1', 13, 2],
      ['final', 'subagent-1', 15, 3],
      ['discarded', 'subagent-1', 16, 3],
      // The result is the caller's message that holds it, not the task's end (event 17).
      ['result', 'parent', 19, 2],
      ['call', 'parent', 20, 2],
    ]);
    const [parent1, , spawn, call1, call2, final, discarded, result, parent2] = moments;
    expect(parent1).toMatchObject({ call: 1, count: 1, other: null });
    expect(parent1.returned).toBeUndefined();
    expect(spawn).toMatchObject({ other: 'parent', count: 1, otherCount: 2, forked: false });
    expect(call1).toMatchObject({ call: 1, count: 1, other: 'parent' });
    expect(call2).toMatchObject({ call: 2, count: 3 });
    expect(final).toMatchObject({ other: 'parent', call: 2 });
    expect(discarded).toMatchObject({ count: 4, call: 2 });
    expect(result).toMatchObject({ other: 'subagent-1', call: 2, otherCount: 4 });
    expect(parent2).toMatchObject({ call: 2, count: 3, returned: [{ agent: 'subagent-1', call: 2 }] });
  });

  it('scans a growing record incrementally, to the same moments as a whole scan', () => {
    const moments = new Moments();
    for (let i = 0; i <= EVENTS.length; i++) moments.scan(EVENTS.slice(0, i));
    expect(moments.list).toEqual(momentsOf(EVENTS));
  });

  it("finds only the parent's calls in a run without a subagent", () => {
    const solo = EVENTS.filter((e) => !('agent' in e) || e.agent === 'parent').filter(
      (e) => e.type !== 'task_start' && e.type !== 'task_end',
    );
    expect(momentsOf(solo).map((m) => [m.kind, m.call, m.returned])).toEqual([
      ['call', 1, undefined],
      ['call', 2, undefined],
    ]);
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
    expect(momentsOf(forked)[2]).toMatchObject({ kind: 'spawn', forked: true, count: 3 });
  });

  it('finds the moments of the recorded reference run (a real model), in order', async () => {
    const trace: Trace = JSON.parse(
      readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
    );
    const { record } = await traceRecord(trace);
    const kinds = momentsOf(record.events).map((m) => m.kind);
    expect(kinds.slice(0, 2)).toEqual(['call', 'task']);
    expect(kinds.slice(-4)).toEqual(['final', 'discarded', 'result', 'call']);
    const calls = record.events.filter((e) => e.type === 'model_start').length;
    expect(kinds.filter((k) => k === 'call')).toHaveLength(calls);
  });
});

describe('captions', () => {
  const captions = () => momentsOf(EVENTS).map((moment) => captionOf(moment, RECORD));

  it("say each moment in one sentence, in tokens, with each call's figures as the chart reads them", () => {
    const p1 = ledger('parent', 1);
    const c1 = ledger('subagent-1', 1);
    const c2 = ledger('subagent-1', 2);
    const parent2 = ledger('parent', 2);
    const held = c2.context;
    // The result's figure is the message that holds it in Parent's array: what Parent's context grew by.
    const result = EVENTS.find(
      (e) =>
        e.type === 'message' &&
        e.agent === 'parent' &&
        Array.isArray(e.message.content) &&
        e.message.content.some((b) => b.type === 'tool_result'),
    ) as Extract<(typeof EVENTS)[number], { type: 'message' }>;
    const n = (value: number) => value.toLocaleString('en');
    expect(captions()).toEqual([
      `Parent call 1 sends ${n(p1.sent)} tokens: the system prompt, the tools and its 1 message.`,
      "Parent calls the task tool (“look”), handing this work to a subagent so that its reading never fills Parent's array.",
      'Subagent 1 starts in a fresh worker with a fresh array of one message, the task prompt alone, while Parent keeps its 2 messages to itself.',
      `Subagent 1 call 1 sends ${n(c1.sent)} tokens: its system prompt, its tools and its own 1 message (a record without its requests: the isolation check cannot look).`,
      `Subagent 1 call 2 sends ${n(c2.sent)} tokens: its system prompt, its tools and its own 3 messages (a record without its requests: the isolation check cannot look).`,
      `Subagent 1 answers with its final text (${n(c2.output)} tokens): the only thing that will go back to Parent.`,
      `Subagent 1's context of ${n(held)} tokens (4 messages) is discarded with its worker: Parent never sees it.`,
      `The result arrives in Parent's array as one tool_result of ${n(messageTokens(result.message))} tokens, not Subagent 1's 4 messages (${n(held)} tokens).`,
      `Parent call 2 sends ${n(parent2.sent)} tokens, not the ${n(held)} tokens Subagent 1 held: only its result came back.`,
    ]);
    // The figures are the calls' own, not zero.
    for (const figure of [p1.sent, c1.sent, c2.sent, c2.output, parent2.sent])
      expect(figure).toBeGreaterThan(0);
  });

  it('reads every figure through callFigures: per agent, per call, in tokens', () => {
    const { sent, output, context } = ledger('subagent-1', 2);
    expect(callFigures(RECORD, 'subagent-1', 2)).toEqual({ sent, received: output, context });
    expect(callFigures(RECORD, 'subagent-1', 9)).toEqual({ sent: 0, received: 0, context: 0 });
  });

  it.each(['zh', 'ja'] as const)('are said in %s, with no English word but the tool names', (language) => {
    locale.current = language;
    for (const caption of captions()) {
      expect(caption.replace(/task|tool_result|worker|look|token/g, '')).not.toMatch(/[A-Za-z]{3,}/);
      expect(caption).not.toMatch(/\{\{/);
    }
  });

  it('a moment of a kind it does not know is a plain description, never an error', () => {
    const unknown = { index: 3, kind: 'compacted', agent: 'subagent-2', other: null } as unknown as Moment;
    expect(captionOf(unknown, RECORD)).toBe('Subagent 2: compacted.');
    const noAgent = { index: 0, kind: 'x', agent: 'someone' } as unknown as Moment;
    expect(captionOf(noAgent, RECORD)).toBe('someone: x.');
  });
});

describe('captions read from the view the screen holds', () => {
  /** Every moment's caption, the record read by the captions themselves (a copy: nothing shared). */
  function readAlone(record: RunRecord): string[] {
    const copy: RunRecord = structuredClone(record);
    return momentsOf(copy.events).map((moment) => captionOf(moment, copy));
  }

  /** Every moment's caption, given the record's view at its end as an opened record's replay has it. */
  function readFromReplay(record: RunRecord): string[] {
    const replay = new Replay(record.events);
    expect(replay.lastStepIsEnd).toBe(true);
    const end = replay.at(replay.steps);
    return momentsOf(record.events).map((moment) => captionOf(moment, record, end));
  }

  it('are the same, moment by moment, as those reading the record, for a run of one task', () => {
    const captions = readFromReplay(RECORD);
    expect(captions).toEqual(readAlone(RECORD));
    expect(captions.length).toBeGreaterThan(5);
  });

  it('are the same, moment by moment, for a run of 40 subagents at once, in every language', async () => {
    const { parallelRecord } = await import('../../scripts/records.mjs');
    const record = parallelRecord(40) as unknown as RunRecord;
    for (const language of ['en', 'zh', 'ja'] as const) {
      locale.current = language;
      const captions = readFromReplay(record);
      expect(captions).toEqual(readAlone(record));
      expect(captions.length).toBeGreaterThan(120);
      // Figures are in them: the result and call captions name tokens read from the ledger.
      expect(captions.filter((c) => /\d{2,}/.test(c)).length).toBeGreaterThan(40);
    }
  });
});
