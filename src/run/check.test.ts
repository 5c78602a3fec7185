import { describe, expect, it } from 'vitest';
import { checkRecord, MAX_RECORD_BYTES, parseRecord, RecordError } from './check';
import {
  newRecord,
  REFERENCE_LIMITS,
  RECORD_VERSION,
  type RecordEvent,
  type RunEvent,
  type RunSettings,
} from './record';
import { reduceAll } from './reduce';

const settings: RunSettings = {
  provider: 'demo',
  model: 'demo',
  sample: 'python',
  sandbox: 'local',
  context: 'isolated',
  limits: REFERENCE_LIMITS,
};

function record(events: RunEvent[]) {
  const r = newRecord('run-1', 1_700_000_000_000, 'find the tests', settings);
  r.events = events.map((e, i): RecordEvent => ({ ...e, t: i }));
  return r;
}

const good = () =>
  record([
    { type: 'run', prompt: 'find the tests', settings },
    { type: 'status', status: { kind: 'running' } },
    { type: 'message', agent: 'parent', index: 0, message: { role: 'user', content: 'find the tests' } },
    {
      type: 'message',
      agent: 'parent',
      index: 1,
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'task', input: { prompt: 'look' } }],
      },
    },
    {
      type: 'spawn',
      agent: 'subagent-1',
      from: 'parent',
      taskId: 'toolu_1',
      description: 'subtask',
      messages: [{ role: 'user', content: 'look' }],
    },
    { type: 'agent_state', agent: 'subagent-1', state: 'discarded', summary: 'pytest' },
    {
      type: 'message',
      agent: 'parent',
      index: 2,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'pytest' }],
      },
    },
    { type: 'status', status: { kind: 'finished' } },
  ]);

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RecordError);
    return (error as Error).message;
  }
  throw new Error('expected the record to be refused');
}

describe('opening a record from outside', () => {
  it('opens a well-formed record through JSON, unchanged', () => {
    const r = good();
    expect(parseRecord(JSON.stringify(r))).toEqual(r);
    expect(reduceAll(r.events).subagents[0].summary).toBe('pytest');
  });

  it('refuses a file that is not JSON, naming the problem', () => {
    expect(refusal(() => parseRecord('{"format": '))).toMatch(/^it is not JSON \(/);
  });

  it('refuses JSON of another shape', () => {
    expect(refusal(() => parseRecord('[1, 2]'))).toBe('it is not a run: expected a JSON object');
    expect(refusal(() => parseRecord('{"name": "package"}'))).toBe(
      'it is not a run of this playground (its "format" is null)',
    );
    const broken = { ...good(), events: [{ t: 0, type: 'message', agent: 'parent', index: 0 }] };
    expect(refusal(() => checkRecord(broken))).toMatch(/^its shape is wrong at events\.0/);
  });

  it('refuses a record of a newer version', () => {
    const newer = { ...good(), version: RECORD_VERSION + 1 };
    expect(refusal(() => checkRecord(newer))).toBe(
      `it was saved by a newer version of the playground (run format ${RECORD_VERSION + 1}; this one reads up to ${RECORD_VERSION})`,
    );
  });

  it('refuses a file over the size limit before parsing it', () => {
    expect(refusal(() => parseRecord('{}', 50 * 1024 * 1024))).toBe(
      `it is 50 MB; a run file may be at most ${MAX_RECORD_BYTES / 1024 / 1024} MB`,
    );
  });

  it('refuses a record whose events contradict each other', () => {
    const orphan = good();
    // The assistant turn says something instead of calling `task`; the subagent goes with it.
    (orphan.events[3] as { message: unknown }).message = {
      role: 'assistant',
      content: [{ type: 'text', text: 'Let me look.' }],
    };
    orphan.events.splice(4, 2);
    expect(refusal(() => checkRecord(orphan))).toBe(
      'event 5 (message): a tool_result for toolu_1 has no tool_use before it',
    );
    const ghost = good();
    ghost.events.push({
      t: 99,
      type: 'message',
      agent: 'subagent-7',
      index: 0,
      message: { role: 'user', content: 'x' },
    });
    expect(refusal(() => checkRecord(ghost))).toBe('event 9 (message): subagent-7 was never spawned');
    const gap = good();
    (gap.events[6] as { index: number }).index = 5;
    expect(refusal(() => checkRecord(gap))).toBe(
      'event 7 (message): message 5 of parent comes before message 2',
    );
    const backwards = good();
    backwards.events[4].t = 0;
    expect(refusal(() => checkRecord(backwards))).toBe(
      'event 5 (spawn) happens before the event ahead of it',
    );
  });

  it('refuses a record that carries a field named like a key, wherever it is', () => {
    for (const field of ['apiKey', 'x-api-key', 'Authorization']) {
      const r = good() as unknown as { settings: Record<string, unknown> };
      r.settings = { ...r.settings, [field]: 'sk-ant-123' };
      expect(refusal(() => checkRecord(r))).toBe(
        `it carries a field named "${field}", which may hold a secret: it is not opened`,
      );
    }
    const deep = good();
    (deep.events[2] as unknown as { extra: unknown }).extra = [{ headers: { authorization: 'Bearer x' } }];
    expect(refusal(() => checkRecord(deep))).toMatch(/field named "authorization"/);
  });

  it('reads the first export format (version 1) as a record', () => {
    const v1 = {
      format: 's04-playground-run',
      version: 1,
      exportedAt: '2026-11-01T10:00:00.000Z',
      model: { provider: 'demo', model: 'claude-sonnet-5-5', baseURL: 'https://api.anthropic.com' },
      sandbox: { label: 'offline shell', workdir: '/home/project', sample: 'python' },
      status: { kind: 'finished' },
      parent: { messages: parentMessages() },
      subagents: [
        {
          id: 'subagent-1',
          description: 'subtask',
          taskId: 'toolu_1',
          state: 'discarded',
          summary: 'pytest',
          messages: [
            { role: 'user', content: 'look' },
            { role: 'assistant', content: [{ type: 'text', text: 'pytest' }] },
          ],
        },
      ],
      log: [],
    };
    const r = checkRecord(v1);
    const view = reduceAll(r.events);
    expect(view.parent.messages).toEqual(parentMessages());
    expect(view.subagents.map((s) => [s.id, s.state, s.summary, s.messages.length])).toEqual([
      ['subagent-1', 'discarded', 'pytest', 2],
    ]);
    expect(view.status).toEqual({ kind: 'finished' });
  });
});

function parentMessages() {
  return good()
    .events.filter((e) => e.type === 'message')
    .map((e) => (e as { message: unknown }).message);
}
