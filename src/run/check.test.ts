import { describe, expect, it } from 'vitest';
import {
  checkRecord,
  MAX_MESSAGE_CHARS,
  MAX_RECORD_BYTES,
  MAX_RECORD_EVENTS,
  parseRecord,
  QUOTED,
  RecordError,
  schemaChecked,
} from './check';
import { newRecord, RECORD_VERSION, type RecordEvent, type RunEvent, type RunSettings } from './record';
import { readFileSync } from 'node:fs';
import { secretSearch } from './secrets';
import {
  logRecord,
  parallelRecord,
  parentCallsRecord,
  textDeltasRecord,
  toolCallsRecord,
} from '../../scripts/records.mjs';
import { reduceAll } from './reduce-range';
import { DEMO_SETTINGS } from '../../test/settings';

const settings: RunSettings = DEMO_SETTINGS;

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

  it('refuses a message over the size of one message, naming the event', () => {
    const r = good();
    const at = r.events.findIndex((e) => e.type === 'message');
    const event = r.events[at] as Extract<RecordEvent, { type: 'message' }>;
    const huge = { ...event, message: { role: 'user' as const, content: 'x'.repeat(MAX_MESSAGE_CHARS) } };
    const events = r.events.map((e, i) => (i === at ? huge : e));
    expect(refusal(() => checkRecord({ ...r, events }))).toBe(
      `event ${at} (message) holds a message of 8.0 MB; one message may be at most 8.0 MB`,
    );
    // Within the size, it opens.
    const fits = {
      ...event,
      message: { role: 'user' as const, content: 'x'.repeat(MAX_MESSAGE_CHARS - 100) },
    };
    expect(() => checkRecord({ ...r, events: r.events.map((e, i) => (i === at ? fits : e)) })).not.toThrow();
  });

  it('refuses a record of more events than a run may have, before checking any of them', () => {
    const r = good();
    const log: RecordEvent = { type: 'log', agent: 'parent', line: 'x', t: 1 };
    const events = [
      ...r.events,
      ...new Array<RecordEvent>(MAX_RECORD_EVENTS - r.events.length + 1).fill(log),
    ];
    const checkedBefore = schemaChecked.events;
    expect(refusal(() => checkRecord({ ...r, events }))).toBe(
      `it has ${MAX_RECORD_EVENTS + 1} events; a run may have at most ${MAX_RECORD_EVENTS} (export a shorter run)`,
    );
    expect(schemaChecked.events).toBe(checkedBefore);
    // At the limit, it is checked as any record (and refused here for its story only).
    expect(refusal(() => checkRecord({ ...r, events: events.slice(1) }))).not.toMatch(/events;/);
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

describe('a record that contradicts itself is refused, naming the event', () => {
  /** The good record with `event` put before its event number `at` (from 1). */
  const withEvent = (at: number, event: RunEvent) => {
    const r = good();
    r.events.splice(at - 1, 0, { ...event, t: r.events[at - 2]?.t ?? 0 } as RecordEvent);
    return r;
  };

  it('an event of an agent that was never spawned, of any kind', () => {
    const events: RunEvent[] = [
      { type: 'log', agent: 'subagent-4', line: 'hi' },
      { type: 'model_start', agent: 'subagent-4', call: 1 },
      { type: 'tool_start', agent: 'subagent-4', id: 't', name: 'bash', input: {} },
      { type: 'agent_state', agent: 'subagent-4', state: 'stopped' },
      { type: 'error', agent: 'subagent-4', error: 'x' },
    ];
    for (const event of events) {
      expect(refusal(() => checkRecord(withEvent(4, event)))).toBe(
        `event 4 (${event.type}): subagent-4 was never spawned`,
      );
    }
  });

  it('a tool end without its start', () => {
    const end: RunEvent = {
      type: 'tool_end',
      agent: 'parent',
      id: 'toolu_9',
      name: 'bash',
      output: '',
      durationMs: 1,
    };
    expect(refusal(() => checkRecord(withEvent(5, end)))).toBe(
      'event 5 (tool_end): parent ends tool call toolu_9, which it never started',
    );
    // Started by another agent, or ended twice: no start of its own.
    const twice = withEvent(5, {
      type: 'tool_start',
      agent: 'parent',
      id: 'toolu_9',
      name: 'bash',
      input: {},
    });
    twice.events.splice(5, 0, { ...end, t: 3 } as RecordEvent, { ...end, t: 3 } as RecordEvent);
    expect(refusal(() => checkRecord(twice))).toBe(
      'event 7 (tool_end): parent ends tool call toolu_9, which it never started',
    );
  });

  it('a task end for a task never started', () => {
    const end: RunEvent = { type: 'task_end', agent: 'parent', id: 'toolu_1', summary: 'pytest' };
    expect(refusal(() => checkRecord(withEvent(6, end)))).toBe(
      'event 6 (task_end): task toolu_1 was never started',
    );
    const started = withEvent(5, {
      type: 'task_start',
      agent: 'parent',
      id: 'toolu_1',
      description: 'd',
      prompt: 'look',
    });
    started.events.splice(6, 0, { ...end, t: 5 } as RecordEvent);
    expect(checkRecord(started).events).toHaveLength(10);
  });

  it('a delta into a block that was never started', () => {
    const stream = (event: Extract<RunEvent, { type: 'stream' }>['event']): RunEvent => ({
      type: 'stream',
      agent: 'parent',
      call: 1,
      event,
    });
    for (const delta of [
      { type: 'text_delta', index: 0, text: 'a' },
      { type: 'thinking_delta', index: 0, thinking: 'a' },
      { type: 'input_json_delta', index: 0, partial_json: '{' },
    ] as const) {
      const r = withEvent(4, { type: 'model_start', agent: 'parent', call: 1 });
      r.events.splice(4, 0, { ...stream(delta), t: 3 } as RecordEvent);
      expect(refusal(() => checkRecord(r))).toBe(
        'event 5 (stream): parent streams into block 0, which was never started',
      );
    }
    // Into block 1 when only block 0 was started; a new call starts with no blocks.
    const r = withEvent(4, { type: 'model_start', agent: 'parent', call: 1 });
    const start = stream({ type: 'block_start', index: 0, block: { type: 'text', text: '' } });
    const into = (index: number) => stream({ type: 'text_delta', index, text: 'a' });
    r.events.splice(4, 0, ...[start, into(0), into(1)].map((e) => ({ ...e, t: 3 }) as RecordEvent));
    expect(refusal(() => checkRecord(r))).toBe(
      'event 7 (stream): parent streams into block 1, which was never started',
    );
    const next = withEvent(4, { type: 'model_start', agent: 'parent', call: 1 });
    const call2: RunEvent = { type: 'model_start', agent: 'parent', call: 2 };
    next.events.splice(4, 0, ...[start, into(0), call2, into(0)].map((e) => ({ ...e, t: 3 }) as RecordEvent));
    expect(refusal(() => checkRecord(next))).toBe(
      'event 8 (stream): parent streams into block 0, which was never started',
    );
  });

  it('a message rewritten after the run finished; one added by a follow-up opens', () => {
    const rewritten = good();
    rewritten.events.push({
      t: 99,
      type: 'message',
      agent: 'parent',
      index: 1,
      message: { role: 'assistant', content: [{ type: 'text', text: 'Something else.' }] },
    });
    expect(refusal(() => checkRecord(rewritten))).toBe(
      'event 9 (message): message 1 of parent is rewritten after the run finished',
    );
    const followUp = good();
    followUp.events.push(
      { t: 99, type: 'run', prompt: 'again', settings },
      { t: 99, type: 'status', status: { kind: 'running' } },
      { t: 99, type: 'message', agent: 'parent', index: 3, message: { role: 'user', content: 'again' } },
    );
    expect(checkRecord(followUp).events).toHaveLength(11);
  });

  it('the records this playground makes hold together', async () => {
    const { traceRecord } = await import('./example');
    const trace = JSON.parse(readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'));
    const made = [
      (await traceRecord(trace)).record,
      parentCallsRecord(20, 100),
      parallelRecord(6),
      textDeltasRecord(400, 50),
      toolCallsRecord(30),
      logRecord(10),
      logRecord(10, 'error'),
    ];
    for (const r of made)
      expect(checkRecord(JSON.parse(JSON.stringify(r))).events).toHaveLength(r.events.length);
  });
});

describe('the events a long record is mostly made of, taken as they are', () => {
  /** The good record with `event` as its event 4 (after the parent's first message). */
  const withRaw = (event: Record<string, unknown>) => {
    const r = good() as unknown as { events: unknown[] };
    r.events.splice(3, 0, { t: 2, agent: 'parent', ...event });
    return r;
  };

  it('are refused where their schema would refuse them, and lose a field it does not read', () => {
    const refused: Array<[Record<string, unknown>, RegExp]> = [
      [{ type: 'log', line: 5 }, /^its shape is wrong at events\.3\.line: /],
      [{ type: 'log', line: 'x', agent: 'subagent-x' }, /^its shape is wrong at events\.3\.agent: /],
      [{ type: 'error' }, /^its shape is wrong at events\.3\.error: /],
      [{ type: 'model_start', call: 1.5 }, /^its shape is wrong at events\.3\.call: /],
      [{ type: 'model_end', call: 1, durationMs: 'x', stopReason: null }, /at events\.3\.durationMs: /],
      [{ type: 'tool_end', id: 't', name: 'bash', output: 7, durationMs: 1 }, /at events\.3\.output: /],
      [{ type: 'tool_start', id: 't', name: 5, input: {} }, /at events\.3\.name: /],
      [
        { type: 'stream', call: 1, event: { type: 'text_delta', index: -1, text: 'a' } },
        /^its shape is wrong at events\.3\.event\.index: /,
      ],
      [{ type: 'log', line: 'x', t: -1 }, /^its shape is wrong at events\.3\.t: /],
      [
        { type: 'stream', call: 1, event: { type: 'block_start', index: 0, block: { type: 'text' } } },
        /^its shape is wrong at events\.3\.event\.block\.text: /,
      ],
    ];
    for (const [event, problem] of refused) {
      expect(
        refusal(() => checkRecord(withRaw(event))),
        JSON.stringify(event),
      ).toMatch(problem);
    }
    const extra = checkRecord(withRaw({ type: 'log', line: 'x', note: 'kept?' }));
    expect(extra.events[3]).toEqual({ t: 2, type: 'log', agent: 'parent', line: 'x' });
    const plain = { t: 2, type: 'log', agent: 'parent', line: 'x' };
    expect(checkRecord(withRaw(plain)).events[3]).toEqual(plain);
  });

  it('messages too: refused where their schema refuses them, a field it drops is dropped', () => {
    const message = (m: unknown, index = 1) => ({ type: 'message', index, message: m });
    const refused: Array<[Record<string, unknown>, RegExp]> = [
      [message({ role: 'assistant', content: 'text' }), /at events\.3\.message\.content: /],
      [message({ role: 'system', content: 'x' }), /at events\.3\.message\.role: /],
      [message({ role: 'user', content: 'x' }, -1), /at events\.3\.index: /],
      [message({ role: 'user', content: [{ type: 'text', text: 5 }] }), /at events\.3\.message\.content: /],
      [message({ role: 'assistant', content: [{ type: 'text', text: 5 }] }), /content\.0\.text: /],
      [
        message({ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'x' }] }),
        /content\.0\.input: /,
      ],
      [
        message({ role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 't' }] }),
        /content\.0\.content: /,
      ],
      [
        message({ role: 'assistant', content: [{ type: 'thinking', thinking: 'x', signature: null }] }),
        /content\.0\.signature: /,
      ],
      [message({ role: 'assistant', content: [{ type: 'redacted_thinking' }] }), /content\.0\.data: /],
      [message({ role: 'assistant', content: [null] }), /at events\.3\.message\.content\.0/],
      [message({ role: 'assistant', content: [[]] }), /at events\.3\.message\.content\.0/],
      [message({ role: 'user', content: 7 }), /at events\.3\.message\.content: /],
      [message(null), /at events\.3\.message: /],
    ];
    for (const [event, problem] of refused) {
      expect(
        refusal(() => checkRecord(withRaw(event))),
        JSON.stringify(event),
      ).toMatch(problem);
    }
    const extra = checkRecord(withRaw(message({ role: 'user', content: 'x', note: 'kept?' })));
    expect(extra.events[3]).toEqual({
      t: 2,
      type: 'message',
      agent: 'parent',
      index: 1,
      message: { role: 'user', content: 'x' },
    });
    const blocks = [
      { type: 'text', text: 'a', citations: [] },
      { type: 'tool_use', id: 't', name: 'bash', input: { command: 'ls' } },
      { type: 'thinking', thinking: 'hm', signature: 's' },
      { type: 'redacted_thinking', data: 'd' },
      { type: 'server_tool_use', id: 's' },
    ];
    const plain = {
      t: 2,
      type: 'message',
      agent: 'parent',
      index: 1,
      message: { role: 'assistant', content: blocks },
    };
    expect(checkRecord(withRaw(plain)).events[3]).toEqual(plain);
  });

  it('the events of the big shapes do not go through a schema: a record of tool calls checks 3 of 4,004', () => {
    const before = schemaChecked.events;
    const checked = checkRecord(toolCallsRecord(500));
    expect(checked.events).toHaveLength(4004);
    // The run and its two statuses; every message, delta, call and tool event is plain.
    expect(schemaChecked.events - before).toBe(3);
  });
});

describe('what a refusal quotes of the file', () => {
  const megabyte = 'x'.repeat(1024 * 1024);
  /** The refusal's sentence, checked to quote at most QUOTED characters of `long`. */
  const bounded = (run: () => unknown) => {
    const message = refusal(run);
    expect(message.length).toBeLessThan(2 * QUOTED + 100);
    expect(message).not.toContain('x'.repeat(QUOTED));
    return message;
  };

  it("another app's file with a megabyte `format`", () => {
    expect(bounded(() => parseRecord(JSON.stringify({ format: megabyte })))).toBe(
      `it is not a run of this playground (its "format" is "${'x'.repeat(QUOTED - 2)}…)`,
    );
    expect(refusal(() => checkRecord({ format: { nested: megabyte } }))).toBe(
      'it is not a run of this playground (its "format" is {…})',
    );
    // Nested too deep for JSON.stringify's own recursion: still a sentence.
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(refusal(() => parseRecord(`{"format": ${deep}}`))).toBe(
      'it is not a run of this playground (its "format" is […])',
    );
  });

  it('a megabyte where a name, an id or a type belongs', () => {
    const id = good();
    (
      id.events[6] as { message: { content: Array<{ tool_use_id: string }> } }
    ).message.content[0].tool_use_id = megabyte;
    expect(bounded(() => checkRecord(id))).toMatch(
      /^event 7 \(message\): a tool_result for x+… has no tool_use before it$/,
    );
    const type = good();
    (type.events[2] as { type: string }).type = megabyte;
    expect(bounded(() => checkRecord(type))).toMatch(
      /^its shape is wrong at events\.2\.type: .+ expected, "x+… found$/,
    );
    const agent = good();
    (agent.events[4] as { from: string }).from = `subagent-${'1'.repeat(1024 * 1024)}`;
    expect(bounded(() => checkRecord(agent))).toMatch(/^event 5 \(spawn\): subagent-1+… never existed$/);
  });

  it('a file that is not JSON: where it breaks, never its text', () => {
    expect(bounded(() => parseRecord(`{"format": ${megabyte}}`))).toBe(
      'it is not JSON (it has "x" where JSON cannot)',
    );
    expect(bounded(() => parseRecord(`{"format": "${megabyte}`))).toBe('it is not JSON (it ends too soon)');
    expect(bounded(() => parseRecord(`{"format": 1} ${megabyte}`))).toMatch(
      /^it is not JSON \(it (breaks at character 15|has "x" where JSON cannot)\)$/,
    );
  });
});

describe('a field named like a secret is found at any depth', () => {
  it('below the 64 levels a recursive search stopped at', () => {
    for (const depth of [65, 10_000, 100_000]) {
      // Written as text: JSON.stringify itself recurses, and would not get this deep.
      const open = Array.from({ length: depth }, (_, i) => (i % 2 ? '{"inner":' : '[')).join('');
      const close = Array.from({ length: depth }, (_, i) => (i % 2 ? '}' : ']'))
        .reverse()
        .join('');
      const json = JSON.stringify(good()).replace(
        '"type":"status"',
        `"extra":${open}{"x-api-key":"sk-ant-1"}${close},"type":"status"`,
      );
      expect(refusal(() => parseRecord(json))).toBe(
        'it carries a field named "x-api-key", which may hold a secret: it is not opened',
      );
    }
  });
});

describe('the secret search reads the text first', () => {
  it('a file whose text names no secret is not searched object by object', () => {
    const before = secretSearch.visited;
    expect(parseRecord(JSON.stringify(logRecord(2000))).events).toHaveLength(2004);
    expect(secretSearch.visited - before).toBe(0);
  });

  it('a name that could be a secret sends the file through the search, which refuses only a field', () => {
    const r = good();
    (r.events[2] as unknown as { message: { content: string } }).message.content = 'set Authorization';
    const before = secretSearch.visited;
    expect(parseRecord(JSON.stringify(r)).events).toHaveLength(r.events.length);
    expect(secretSearch.visited - before).toBeGreaterThan(r.events.length);
  });

  it('finds a field whose name is written with escapes, in any case, at any depth', () => {
    for (const name of ['\\u0061piKey', 'AUTH\\u005ftoken', '\\u0041uthorization']) {
      const json = JSON.stringify(good()).replace(
        '"type":"status"',
        `"extra":[{"a":{"${name}":"sk-ant-1"}}],"type":"status"`,
      );
      expect(refusal(() => parseRecord(json))).toMatch(
        /^it carries a field named "(apiKey|AUTH_token|Authorization)"/,
      );
    }
  });
});

describe('a broken version-1 file gets a sentence, never a JavaScript error', () => {
  const v1 = () => ({
    format: 's04-playground-run',
    version: 1,
    exportedAt: '2026-11-01T10:00:00.000Z',
    model: { provider: 'anthropic', model: 'claude', baseURL: 'https://api.anthropic.com' },
    sandbox: { label: 'offline shell', sample: 'python' },
    status: { kind: 'finished' },
    parent: { messages: parentMessages() },
    subagents: [
      {
        id: 'subagent-1',
        description: 'subtask',
        taskId: 'toolu_1',
        summary: 'pytest',
        messages: [
          { role: 'user', content: 'look' },
          { role: 'assistant', content: [{ type: 'text', text: 'pytest' }] },
        ],
      },
    ],
  });

  /** Every path to a value inside `value`, the value itself included (the empty path). */
  function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
    const inner =
      typeof value === 'object' && value !== null
        ? Object.entries(value).flatMap(([key, item]) =>
            paths(item, [...at, Array.isArray(value) ? Number(key) : key]),
          )
        : [];
    return [at, ...inner];
  }

  it('each part replaced by a value of another kind, or left out', () => {
    const replacements: unknown[] = [null, 0, 'x', true, [], {}, [null], [1], { find: 1 }];
    let tried = 0;
    let opened = 0;
    for (const path of paths(v1()).filter((p) => p.length > 0)) {
      for (const replacement of [...replacements, undefined]) {
        const broken = v1() as unknown as Record<string | number, unknown>;
        let holder = broken;
        for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
        const last = path[path.length - 1];
        if (replacement === undefined) delete holder[last];
        else holder[last] = structuredClone(replacement);
        tried++;
        try {
          checkRecord(broken);
          opened++;
        } catch (error) {
          expect(error, `${path.join('.')} = ${JSON.stringify(replacement)}`).toBeInstanceOf(RecordError);
        }
      }
    }
    expect(tried).toBeGreaterThan(400);
    // Some parts are optional (a label, a summary): those files still open.
    expect(opened).toBeGreaterThan(0);
  });
});

function parentMessages() {
  return good()
    .events.filter((e) => e.type === 'message')
    .map((e) => (e as { message: unknown }).message);
}
