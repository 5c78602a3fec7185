/**
 * The shapes Claude Code has written its sessions in, each read as the API counted it: one model
 * call per `message.id` wherever its lines are, every tool result matched to its call by id,
 * compactions and model switches told apart from a provider's faulty count, every way a subagent
 * was linked, a Task the tool refused, records that name no kind. Fixtures of our own
 * (scripts/claude-sessions.mjs).
 */
import { describe, expect, it } from 'vitest';
import {
  backgroundSession,
  interleavedSession,
  olderSidechainSession,
  untypedSession,
} from '../../scripts/claude-sessions.mjs';
import { parseRecord } from './check';
import { sessionRecord, type SessionFile } from './claude-code';
import { agentFigures, modelCalls } from './measures';
import { reduceAll } from './reduce-range';
import type { RecordEvent } from './record';
import { workersTimeline } from './timeline';
import { contextResets } from './context-resets';
import { modelCallView } from './model-call';
import { modelsUsed, runModels } from './models-used';

const asFiles = (files: Record<string, string>): SessionFile[] =>
  Object.entries(files).map(([path, text]) => ({ path, text }));

type Of<T extends RecordEvent['type']> = Extract<RecordEvent, { type: T }>;
const eventsOf = <T extends RecordEvent['type']>(events: readonly RecordEvent[], type: T) =>
  events.filter((e): e is Of<T> => e.type === type);

describe('a 2.1 session whose lines are interleaved', () => {
  const { record, problems } = sessionRecord(asFiles(interleavedSession()));
  const view = reduceAll(record.events);
  const { calls } = modelCalls(record);

  it('counts one model call per message.id, with the usage of its last line', () => {
    expect(calls.filter((c) => c.agent === 'parent').map((c) => [c.sent, c.received])).toEqual([
      [8003, 210],
      [9503, 90],
      [9803, 120],
      [2105, 60],
    ]);
    expect(calls.filter((c) => c.agent === 'subagent-1').map((c) => [c.sent, c.received])).toEqual([
      [3004, 80],
      [3404, 50],
      [4004, 120],
    ]);
    expect(calls).toHaveLength(7);
    const parent = agentFigures(view.parent);
    expect(parent.input).toEqual({ uncached: 14, cacheRead: 17500, cacheWrite: 11900 });
    expect(parent.received).toBe(480);
    const sub = agentFigures(view.subagents[0]);
    expect(sub.input).toEqual({ uncached: 12, cacheRead: 6400, cacheWrite: 4000 });
    expect(sub.received).toBe(250);
  });

  it('keeps a reply whole: its blocks in order however far apart its lines were', () => {
    const first = eventsOf(record.events, 'message').find((e) => e.agent === 'parent' && e.index === 1)!;
    expect(first.message.role).toBe('assistant');
    expect((first.message.content as { type: string }[]).map((b) => b.type)).toEqual([
      'thinking',
      'text',
      'tool_use',
      'tool_use',
      'tool_use',
    ]);
  });

  it('matches every tool result to its call by id, however many records brought them', () => {
    const answers = eventsOf(record.events, 'message').find((e) => e.agent === 'parent' && e.index === 2)!;
    const blocks = answers.message.content as { type: string; tool_use_id?: string }[];
    expect(blocks.map((b) => [b.type, b.tool_use_id])).toEqual([
      ['tool_result', 'toolu_read_a'],
      ['tool_result', 'toolu_write_b'],
      ['tool_result', 'toolu_task_1'],
    ]);
    // The subagent's two parallel results, with a progress record between them: one message.
    expect(view.subagents[0].messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    const parallel = view.subagents[0].messages[2].content as { type: string }[];
    expect(parallel.map((b) => b.type)).toEqual(['tool_result', 'tool_result']);
    // No tool is left open: every start has its end, and every row of the timeline ends.
    const starts = eventsOf(record.events, 'tool_start').map((e) => e.id);
    const ends = eventsOf(record.events, 'tool_end').map((e) => e.id);
    expect([...ends].sort()).toEqual([...starts].sort());
    const { rows } = workersTimeline(record);
    expect(rows.filter((r) => r.id !== 'parent').every((r) => r.end !== null)).toBe(true);
  });

  it('links the subagent that only progress records name, and leaves progress out of the log', () => {
    expect(problems.map((p) => p.code)).toEqual(['failedSubagent']);
    expect(view.subagents[0]).toMatchObject({ taskId: 'toolu_task_1', state: 'discarded' });
    expect(view.subagents[0].summary).toBe('One test fails: test_b (division by zero).');
    expect(view.log.some((l) => l.text.includes('progress'))).toBe(false);
  });

  it('shows a Task the tool refused as failed, with its error, not as a missing transcript', () => {
    const failed = view.subagents[1];
    expect(failed).toMatchObject({ taskId: 'toolu_task_bad', state: 'failed' });
    expect(failed.summary).toBe(
      'InputValidationError: Task failed due to the following issue:\nThe required parameter `prompt` is missing',
    );
    expect(problems[0]).toEqual({
      code: 'failedSubagent',
      params: { agent: 'subagent-2', description: 'Check the fixtures', error: failed.summary },
    });
  });

  it('records the compaction and the model switch as the agent’s own, never a faulty count', () => {
    expect(eventsOf(record.events, 'context_reset').map(({ t, ...rest }) => [t, rest])).toEqual([
      [
        9000,
        {
          type: 'context_reset',
          agent: 'parent',
          reason: 'compaction',
          model: 'claude-sonnet-4-5-20250929',
          trigger: 'manual',
          tokensBefore: 9923,
        },
      ],
      [9200, { type: 'context_reset', agent: 'parent', reason: 'model', model: 'claude-opus-4-1-20250805' }],
    ]);
    // The smaller count after it is counted: the parent is not marked partial, nothing is estimated.
    expect(view.parent.ledger.partial).toBe(false);
    expect(calls.every((c) => c.counted)).toBe(true);
    // Its context is the last call's count: 2,105 sent and 60 received.
    expect(agentFigures(view.parent)).toMatchObject({ context: 2165, counted: true });
    // The array starts again from the summary.
    expect(view.parent.messages).toHaveLength(2);
    expect((view.parent.messages[0].content as { type: string }[])[0].type).toBe('compaction_summary');
  });

  it('tells of the call that wrote the summary, and of a warm-up, in the log, not as subagents', () => {
    expect(view.subagents).toHaveLength(2);
    expect(view.log.map((l) => l.text)).toContain(
      '[warmup] agent-a0a0a0.jsonl: 1 model call(s) warmed an agent up (1200 tokens sent)',
    );
    expect(view.log.map((l) => l.text)).toContain(
      '[compaction] agent-acompact-7e57.jsonl: 1 model call(s) to claude-sonnet-4-5-20250929 wrote the summary (9010 tokens sent)',
    );
  });

  it('keeps an image as an image block, its data not kept', () => {
    const prompt = eventsOf(record.events, 'message').find((e) => e.agent === 'parent' && e.index === 0)!;
    const image = (prompt.message.content as unknown as { type: string; source: object }[])[1];
    expect(image.type).toBe('image');
    expect(image.source).toMatchObject({ media_type: 'image/png', data: '[2 KB not kept]' });
  });

  it('is a record like any other: it exports and opens again through every check', () => {
    const again = parseRecord(JSON.stringify(record));
    expect(eventsOf(again.events, 'context_reset')).toHaveLength(2);
  });
});

describe('older shapes', () => {
  it('links sidechains in one file by the agentId on the result record, whatever their prompts', () => {
    const { record, problems } = sessionRecord(asFiles(olderSidechainSession()));
    expect(problems).toEqual([]);
    const view = reduceAll(record.events);
    expect(view.subagents.map((a) => [a.taskId, a.state, a.summary, a.messages.length])).toEqual([
      ['toolu_o_1', 'discarded', 'alpha is fine', 2],
      ['toolu_o_2', 'discarded', 'beta is fine', 2],
    ]);
  });

  it('reads records that name no type by their role, and says how many say nothing', () => {
    const { record, problems } = sessionRecord(asFiles(untypedSession()));
    expect(problems).toEqual([{ code: 'untyped', params: { name: 'untyped.jsonl', count: 1 } }]);
    const view = reduceAll(record.events);
    expect(view.parent.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(modelCalls(record).calls).toHaveLength(1);
  });
});

describe('where the context dropped, for the chart and the timeline', () => {
  it('places each reset after the calls of the run that started before it', () => {
    const { record } = sessionRecord(asFiles(interleavedSession()));
    expect(contextResets(record).map((m) => [m.agent, m.reason, m.after, m.tokensBefore])).toEqual([
      ['parent', 'compaction', 6, 9923],
      ['parent', 'model', 6, undefined],
    ]);
  });
});

describe('the models a session used', () => {
  it('names each call’s model, and each agent’s models in the order it used them', () => {
    const { record } = sessionRecord(asFiles(interleavedSession()));
    expect(modelsUsed(record)).toEqual([
      { agent: 'parent', models: ['claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805'] },
      { agent: 'subagent-1', models: ['claude-haiku-4-5-20251001'] },
    ]);
    expect(runModels(record)).toEqual([
      'claude-sonnet-4-5-20250929',
      'claude-opus-4-1-20250805',
      'claude-haiku-4-5-20251001',
    ]);
    expect(modelCallView(record, 'subagent-1', 2)?.response?.model).toBe('claude-haiku-4-5-20251001');
  });
});

describe('files that cannot be read', () => {
  it('leaves out a file the browser could not read, and says why; the rest opens', () => {
    const files = asFiles(interleavedSession());
    const sub = files.findIndex((f) => f.path.endsWith('agent-f00d01.jsonl'));
    files[sub] = { path: files[sub].path, text: '', unreadable: 'NotReadableError' };
    const { record, problems } = sessionRecord(files);
    expect(problems).toContainEqual({
      code: 'unreadable',
      params: { name: 'agent-f00d01.jsonl', reason: 'NotReadableError' },
    });
    // Its call is then a column that says its transcript is missing.
    expect(reduceAll(record.events).subagents[0].state).toBe('missing');
  });
});

describe('a subagent launched in the background', () => {
  it('works on after its call returned, and ends with its transcript', () => {
    const { record, problems } = sessionRecord(asFiles(backgroundSession()));
    expect(problems).toEqual([]);
    const view = reduceAll(record.events);
    expect(view.subagents.map((a) => [a.taskId, a.state, a.messages.length])).toEqual([
      ['toolu_bg', 'discarded', 4],
    ]);
    const row = workersTimeline(record).rows.find((r) => r.id === 'subagent-1')!;
    // From the parent's call (1 s) to its own last record (29 s), not to the launch's result (1.2 s).
    expect([row.start, row.end]).toEqual([1000, 29000]);
    expect(row.segments.filter((s) => s.kind === 'model').map((s) => [s.start, s.end])).toEqual([
      [1100, 5000],
      [20000, 29000],
    ]);
  });
});
