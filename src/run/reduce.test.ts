import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parentLoop } from '../core/loop';
import type { AgentId, AssistantBlock, Message } from '../core/messages';
import type { ModelRequest, StreamEvent } from '../core/model';
import type { Trace } from '../models/replay';
import { callsTools, says, ScriptedModel, toolUse } from '../../test/scripted';
import { traceRecord } from './example';
import { LiveRun } from './live';
import { REFERENCE_LIMITS, type RunRecord, type RunSettings } from './record';
import {
  bigRecord,
  logRecord,
  parallelRecord,
  parentCallsRecord,
  textDeltasRecord,
  toolCallsRecord,
} from '../../scripts/records.mjs';
import { copied } from './list';
import type { RecordEvent, RunEvent } from './record';
import { arrayChars } from './figures';
import { messageTokens } from './size';
import { reduce, reduced } from './reduce';
import { reduceAll, reduceRange } from './reduce-range';
import { EMPTY_STATE, stateWithHistory, type RunState } from './state';
import { viewOf } from './view';
import { CHECKPOINT, Replay } from './replay';

const trace: Trace = JSON.parse(
  readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
);

const settings: RunSettings = {
  provider: 'anthropic',
  model: trace.model,
  baseURL: 'http://127.0.0.1:1',
  sample: 'python',
  sandbox: 'local',
  context: 'isolated',
  limits: REFERENCE_LIMITS,
};

let tick = 0;
const clock = { epoch: 1_700_000_000_000, now: () => tick++ };

/** Runs the recorded reference run through our loops, recording it as the page does. */
async function recordReferenceRun() {
  const { record, requests } = await traceRecord(trace);
  return { record, requests, view: reduceAll(record.events) };
}

/** The array a loop holds after its last call: the last request's messages plus the response. */
function arrayAfterLastCall(requests: ModelRequest[], isParent: boolean, response: Message): Message[] {
  const own = requests.filter((r) => (r.tools.length === 5) === isParent);
  return [...own[own.length - 1].messages, response];
}

describe('the run as a record: reduce(view, event)', () => {
  it('replays the recorded reference run to the arrays the loops sent the model', async () => {
    const { record: recorded, requests, view: live } = await recordReferenceRun();
    expect(requests).toHaveLength(8);
    // A record goes through JSON (export, IndexedDB) and must mean the same afterwards.
    const record: RunRecord = JSON.parse(JSON.stringify(recorded));
    const view = reduceAll(record.events);

    expect(view.status).toEqual({ kind: 'finished' });
    expect(view.subagents.map((s) => [s.id, s.state])).toEqual([['subagent-1', 'discarded']]);
    const lastParent = view.parent.messages[view.parent.messages.length - 1];
    expect(view.parent.messages).toEqual(arrayAfterLastCall(requests, true, lastParent));
    const sub = view.subagents[0];
    expect(sub.messages).toEqual(arrayAfterLastCall(requests, false, sub.messages[sub.messages.length - 1]));
    // Every request a loop sent is a prefix of the array the record rebuilds for that loop.
    for (const request of requests) {
      const array = request.tools.length === 5 ? view.parent.messages : sub.messages;
      expect(array.slice(0, request.messages.length)).toEqual(request.messages);
    }
    expect(sub.summary).toBe((view.parent.messages[2].content as Array<{ content: string }>)[0].content);
    expect(view.parent.calls).toBe(2);
    expect(sub.calls).toBe(6);
    // Counted usage, as the API reported it (the provider is a real one).
    expect(view.parent.ledger.input.uncached).toBeGreaterThan(0);
    expect(view.parent.ledger.estimated).toBe(0);
    expect(view.log[0].text).toMatch(/^> task \(/);
    // The view rebuilt from the JSON record equals the one built as the run went.
    expect(view).toEqual(live);
    // The record's clock advanced as the recorded calls took.
    expect(record.events.at(-1)!.t).toBeGreaterThanOrEqual(
      trace.cycles.reduce((s, c) => s + c.elapsed_ms, 0),
    );
  });

  it('steps: before the spawn there is no subagent; after its return it is discarded', async () => {
    const { record } = await recordReferenceRun();
    const replay = new Replay(record.events);
    const spawnStep = replay.stepOfEvent(record.events.findIndex((e) => e.type === 'spawn'));
    expect(replay.at(spawnStep - 1).subagents).toEqual([]);
    expect(replay.at(spawnStep).subagents.map((s) => s.state)).toEqual(['starting']);
    const endStep = replay.stepOfEvent(record.events.findIndex((e) => e.type === 'agent_state'));
    expect(replay.at(endStep - 1).subagents[0].state).toBe('running');
    expect(replay.at(endStep).subagents[0].state).toBe('discarded');
    expect(replay.at(0).parent.messages).toEqual([]);
    expect(replay.at(replay.steps)).toEqual(reduceAll(record.events));
    // Going back and forth gives the same views (checkpoints change nothing).
    const middle = replay.at(Math.floor(replay.steps / 2));
    replay.at(replay.steps);
    expect(replay.at(Math.floor(replay.steps / 2))).toEqual(middle);
  });

  it('a subagent taken from a ready spare (no `ready` after its spawn) works from its first call', () => {
    let state = reduce(EMPTY_STATE, { type: 'run', prompt: 'hi', settings });
    state = reduce(state, { type: 'status', status: { kind: 'running' } });
    state = reduce(state, { type: 'worker', worker: 'subagent-1', phase: 'ready' });
    state = reduce(state, {
      type: 'spawn',
      agent: 'subagent-1',
      from: 'parent',
      taskId: 't1',
      description: 'look',
      messages: [{ role: 'user', content: 'look' }],
    });
    expect(state.subagents[0].state).toBe('starting');
    state = reduce(state, { type: 'model_start', agent: 'subagent-1', call: 1 });
    expect(state.subagents[0].state).toBe('running');
    state = reduce(state, { type: 'agent_state', agent: 'subagent-1', state: 'discarded', summary: 's' });
    state = reduce(state, { type: 'model_start', agent: 'subagent-1', call: 2 });
    expect(state.subagents[0].state).toBe('discarded');
  });

  it('keeps streamed text as cut off when the call fails, and never in the array', () => {
    let view = reduce(EMPTY_STATE, { type: 'run', prompt: 'hi', settings });
    view = reduce(view, { type: 'status', status: { kind: 'running' } });
    view = reduce(view, {
      type: 'message',
      agent: 'parent',
      index: 0,
      message: { role: 'user', content: 'hi' },
    });
    view = reduce(view, { type: 'model_start', agent: 'parent', call: 1 });
    view = reduce(view, {
      type: 'stream',
      agent: 'parent',
      call: 1,
      event: { type: 'block_start', index: 0, block: { type: 'text', text: '' } },
    });
    view = reduce(view, {
      type: 'stream',
      agent: 'parent',
      call: 1,
      event: { type: 'text_delta', index: 0, text: 'Half an ans' },
    });
    expect(view.parent.draft).toEqual([{ type: 'text', text: 'Half an ans' }]);
    view = reduce(view, { type: 'status', status: { kind: 'failed', reason: 'Connection dropped' } });
    expect(view.parent.draft).toBeNull();
    expect(view.parent.cutOff).toEqual([{ type: 'text', text: 'Half an ans' }]);
    expect(viewOf(view).parent.messages).toEqual([{ role: 'user', content: 'hi' }]);
    // A late stream event from the terminated worker does not bring a draft back.
    view = reduce(view, {
      type: 'stream',
      agent: 'parent',
      call: 1,
      event: { type: 'text_delta', index: 0, text: 'wer' },
    });
    expect(view.parent.draft).toBeNull();
  });

  it("reads how the parent's last reply ended into the status; a later prompt's normal end clears it", () => {
    const turn = (index: number, stopReason: string, content: AssistantBlock[]): RunEvent[] => [
      { type: 'message', agent: 'parent', index, message: { role: 'user', content: 'hi' } },
      { type: 'model_start', agent: 'parent', call: index + 1 },
      { type: 'model_end', agent: 'parent', call: index + 1, durationMs: 1, stopReason },
      { type: 'message', agent: 'parent', index: index + 1, message: { role: 'assistant', content } },
    ];
    const cut: AssistantBlock[] = [
      { type: 'text', text: 'Let me' },
      { type: 'tool_use', id: 't1', name: 'bash', input: {} },
    ];
    const start: RunEvent[] = [
      { type: 'run', prompt: 'hi', settings },
      { type: 'status', status: { kind: 'running' } },
    ];
    const first = reduceAll([
      ...start,
      ...turn(0, 'max_tokens', cut),
      { type: 'status', status: { kind: 'finished' } },
    ]);
    expect(first.status).toEqual({ kind: 'finished', ending: 'max_tokens', cutTool: true });
    expect(first.parent.endings).toEqual({ 1: 'max_tokens' });
    // Cut in its text, not in a tool call: the status says only max_tokens.
    const text = reduceAll([
      ...start,
      ...turn(0, 'max_tokens', [{ type: 'text', text: 'Let me' }]),
      { type: 'status', status: { kind: 'finished' } },
    ]);
    expect(text.status).toEqual({ kind: 'finished', ending: 'max_tokens' });
    // The next prompt ends normally: its status is plain, the earlier reply stays marked.
    const next = reduceAll([
      ...start,
      ...turn(0, 'refusal', [{ type: 'text', text: 'No' }]),
      { type: 'status', status: { kind: 'finished' } },
      ...start,
      ...turn(2, 'end_turn', [{ type: 'text', text: 'Done' }]),
      { type: 'status', status: { kind: 'finished' } },
    ]);
    expect(next.status).toEqual({ kind: 'finished' });
    expect(next.parent.endings).toEqual({ 1: 'refusal' });
    // A follow-up that rewrites the array from a dropped tail takes the old marks away with it.
    const rewritten = reduceAll([
      ...start,
      ...turn(0, 'max_tokens', cut),
      { type: 'status', status: { kind: 'finished' } },
      ...start,
      ...turn(0, 'end_turn', [{ type: 'text', text: 'Done' }]),
      { type: 'status', status: { kind: 'finished' } },
    ]);
    expect(rewritten.parent.messages).toHaveLength(2);
    expect(rewritten.parent.endings).toEqual({});
    // A status that already says how the run ended is kept as it is.
    const said = reduceAll([
      ...start,
      ...turn(0, 'end_turn', [{ type: 'text', text: 'Done' }]),
      { type: 'status', status: { kind: 'finished', ending: 'pause_turn' } },
    ]);
    expect(said.status).toEqual({ kind: 'finished', ending: 'pause_turn' });
  });

  it('a subagent whose reply ended badly is marked in its column, not in the run status', () => {
    const view = reduceAll([
      { type: 'run', prompt: 'hi', settings },
      { type: 'status', status: { kind: 'running' } },
      {
        type: 'spawn',
        agent: 'subagent-1',
        from: 'parent',
        taskId: 't',
        description: 'd',
        messages: [{ role: 'user', content: 'go' }],
      },
      { type: 'model_start', agent: 'subagent-1', call: 1 },
      { type: 'model_end', agent: 'subagent-1', call: 1, durationMs: 1, stopReason: 'refusal' },
      {
        type: 'message',
        agent: 'subagent-1',
        index: 1,
        message: { role: 'assistant', content: [{ type: 'text', text: 'No' }] },
      },
      { type: 'agent_state', agent: 'subagent-1', state: 'discarded', summary: 'No' },
      { type: 'status', status: { kind: 'finished' } },
    ]);
    expect(view.subagents[0].endings).toEqual({ 1: 'refusal' });
    expect(view.parent.endings).toEqual({});
    expect(view.status).toEqual({ kind: 'finished' });
  });

  it('marks files with the agent that made them; a created file stays created', () => {
    let view = reduce(EMPTY_STATE, {
      type: 'files',
      changes: [
        { path: '/p/a.py', kind: 'create', agent: 'subagent-1' },
        { path: '/p/setup', kind: 'create', agent: 'system' },
      ],
    });
    view = reduce(view, { type: 'files', changes: [{ path: '/p/a.py', kind: 'modify', agent: 'parent' }] });
    expect(viewOf(view).marks).toEqual({ '/p/a.py': { agent: 'parent', kind: 'create' } });
  });

  it('counts demo usage as an estimate, not as the API', async () => {
    const model = new ScriptedModel([callsTools(toolUse('bash', { command: 'ls' })), says('done')]);
    const run = new LiveRun('r2', 'go', { ...settings, provider: 'demo' }, clock);
    run.append({ type: 'run', prompt: 'go', settings: { ...settings, provider: 'demo' } });
    await parentLoop('go', {
      model,
      modelName: 'demo',
      workdir: '/w',
      baseHandlers: { bash: async () => 'a.py' },
      history: [],
      runTask: async () => '',
      onEvent: (e) => run.append(e),
    });
    expect(run.view.parent.calls).toBe(2);
    expect(run.view.parent.ledger.input).toEqual({ uncached: 0, cacheRead: 0, cacheWrite: 0 });
    expect(run.view.parent.ledger.estimated).toBe(run.view.parent.ledger.calls);
    expect(run.view.parent.messages).toHaveLength(4);
  });
});

describe('what a record keeps', () => {
  it("keeps a tool_end's output as a preview: the whole output is in the tool_result", () => {
    const run = new LiveRun('r3', 'go', settings, clock);
    const output = 'x'.repeat(10_000);
    run.append({ type: 'tool_end', agent: 'parent', id: 't1', name: 'bash', output, durationMs: 1 });
    run.append({
      type: 'message',
      agent: 'parent',
      index: 0,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: output }] },
    });
    const [end, message] = run.record.events;
    expect(end).toMatchObject({ type: 'tool_end', output: 'x'.repeat(200) });
    expect(JSON.stringify(message)).toContain(output);
    expect(JSON.stringify(run.record).length).toBeLessThan(11_000);
  });
});

/** The state after each event, reduced one by one (what reduceRange must equal). */
function oneByOne(events: readonly RunEvent[], from: RunState = EMPTY_STATE): RunState {
  let view = from;
  for (const event of events) view = reduce(view, event);
  return view;
}

/** A parent call streaming one tool_use block whose input arrives as `deltas`. */
function toolInputEvents(deltas: string[]): RunEvent[] {
  const stream = (event: Extract<RunEvent, { type: 'stream' }>['event']): RunEvent => ({
    type: 'stream',
    agent: 'parent',
    call: 1,
    event,
  });
  return [
    { type: 'run', prompt: 'p', settings },
    { type: 'status', status: { kind: 'running' } },
    { type: 'message', agent: 'parent', index: 0, message: { role: 'user', content: 'p' } },
    { type: 'model_start', agent: 'parent', call: 1 },
    stream({ type: 'block_start', index: 0, block: { type: 'tool_use', id: 't', name: 'bash', input: {} } }),
    ...deltas.map((partial_json) => stream({ type: 'input_json_delta', index: 0, partial_json })),
  ];
}

/**
 * Two agents streaming text and thinking into two blocks each, interleaved, with a delta into a
 * block of the other kind (ignored), one to an agent that ended (ignored) and a tool input among them.
 */
function interleaved(): RunEvent[] {
  const stream = (agent: AgentId, event: StreamEvent): RunEvent => ({
    type: 'stream',
    agent,
    call: 1,
    event,
  });
  const text = (agent: AgentId, index: number, text: string) =>
    stream(agent, { type: 'text_delta', index, text });
  const think = (agent: AgentId, index: number, thinking: string) =>
    stream(agent, { type: 'thinking_delta', index, thinking });
  const start = (agent: AgentId, index: number, block: AssistantBlock) =>
    stream(agent, { type: 'block_start', index, block });
  const spawn = (agent: AgentId): RunEvent => ({
    type: 'spawn',
    agent,
    from: 'parent',
    taskId: agent,
    description: agent,
    messages: [{ role: 'user', content: agent }],
  });
  return [
    { type: 'run', prompt: 'p', settings },
    { type: 'status', status: { kind: 'running' } },
    spawn('subagent-1'),
    spawn('subagent-2'),
    spawn('subagent-3'),
    { type: 'agent_state', agent: 'subagent-3', state: 'discarded', summary: 'done' },
    ...(['parent', 'subagent-1', 'subagent-2'] as const).flatMap((agent): RunEvent[] => [
      { type: 'model_start', agent, call: 1 },
      start(agent, 0, { type: 'thinking', thinking: '', signature: '' }),
      start(agent, 1, { type: 'text', text: '' }),
    ]),
    think('parent', 0, 'a'),
    text('subagent-1', 1, 'b'),
    text('parent', 1, 'c'),
    think('subagent-2', 0, 'd'),
    text('parent', 0, 'ignored: a thinking block'),
    think('parent', 0, 'e'),
    text('subagent-3', 1, 'ignored: ended'),
    text('subagent-1', 1, 'f'),
    text('parent', 1, 'g'),
    start('parent', 2, { type: 'tool_use', id: 't', name: 'bash', input: {} }),
    stream('parent', { type: 'input_json_delta', index: 2, partial_json: '{"a":1}' }),
    text('parent', 1, 'h'),
    think('subagent-2', 0, 'i'),
    text('subagent-2', 2, 'no block'),
    text('parent', 1, 'j'),
  ];
}

describe('reduceRange: a run of streamed deltas applied at once', () => {
  it('gives the view of reducing one by one, at every step of the reference run and of made records', async () => {
    const { record } = await recordReferenceRun();
    const records = [
      record.events,
      parentCallsRecord(60, 500).events,
      parallelRecord(4).events,
      textDeltasRecord(3000, 200).events,
      interleaved(),
      logRecord(300).events,
      logRecord(300, 'error').events,
    ] as unknown as RunEvent[][];
    for (const events of records) {
      // Stopped at every event, as a step-through may, and at the end.
      let state = EMPTY_STATE;
      let expected = EMPTY_STATE;
      for (let i = 0; i < events.length;) {
        const end = Math.min(events.length, i + 1 + (i % 7));
        state = reduceRange(state, events, i, end);
        expected = oneByOne(events.slice(i, end), expected);
        expect(viewOf(state)).toEqual(viewOf(expected));
        i = end;
      }
      expect(reduceAll(events)).toEqual(viewOf(oneByOne(events)));
    }
  });

  it('joins deltas: 5,000 input deltas of 500 calls are 500 joined applications', () => {
    const events = bigRecord().events as unknown as RunEvent[];
    const deltas = events.filter((e) => e.type === 'stream' && e.event.type === 'input_json_delta').length;
    expect(deltas).toBe(5000);
    const view = reduceAll(events);
    expect(view.applied).toBe(events.length);
    expect(view.parent.messages).toHaveLength(1001);
  });

  it('shows a tool input parsed where one by one would: a `}` before the last delta, whitespace, a bad end', () => {
    const cases = [
      ['{"command":', '"ls"', '}'],
      ['{"command":"ls"}', ' ', '\n'],
      ['{"a":{"b":1}', '}'],
      ['{"a":', '1}', 'x'],
      [' ', '{"a":1}'],
      ['{"a":1', '}', ', "b": 2}'],
    ];
    for (const deltas of cases) {
      const events = toolInputEvents(deltas);
      for (let from = 0; from < events.length; from++) {
        const start = oneByOne(events.slice(0, from));
        expect(viewOf(reduceRange(start, events, from, events.length)), deltas.join('|')).toEqual(
          viewOf(oneByOne(events)),
        );
      }
    }
  });

  it('joins interleaved text deltas of agents streaming at once: 20,000 are a few hundred applications', () => {
    const events = textDeltasRecord(20_000, 1000).events as unknown as RunEvent[];
    const before = reduced.applications;
    const view = reduceAll(events);
    // 10 calls of 2 agents: each call's 2,000 interleaved deltas are 2 applications.
    expect(reduced.applications - before).toBeLessThan(events.length - 20_000 + 100);
    expect(view).toEqual(viewOf(oneByOne(events)));
  });

  it('adds log lines and errors in a row at once: 20,000 of them are one application', () => {
    for (const type of ['log', 'error'] as const) {
      const events = logRecord(20_000, type).events as unknown as RunEvent[];
      const before = reduced.applications;
      const view = reduceAll(events);
      expect(reduced.applications - before).toBeLessThanOrEqual(5);
      expect(view).toEqual(viewOf(oneByOne(events)));
    }
  });

  it('keeps deltas of different agents, blocks and kinds apart', () => {
    const stream = (agent: 'parent' | 'subagent-1', index: number, text: string): RunEvent => ({
      type: 'stream',
      agent,
      call: 1,
      event: { type: 'text_delta', index, text },
    });
    const events: RunEvent[] = [
      { type: 'run', prompt: 'p', settings },
      { type: 'status', status: { kind: 'running' } },
      { type: 'message', agent: 'parent', index: 0, message: { role: 'user', content: 'p' } },
      {
        type: 'spawn',
        agent: 'subagent-1',
        from: 'parent',
        taskId: 't1',
        description: 'd',
        messages: [{ role: 'user', content: 'x' }],
      },
      { type: 'worker', worker: 'subagent-1', phase: 'ready' },
      { type: 'model_start', agent: 'parent', call: 1 },
      { type: 'model_start', agent: 'subagent-1', call: 1 },
      ...(['parent', 'subagent-1'] as const).flatMap((agent) => [
        {
          type: 'stream',
          agent,
          call: 1,
          event: { type: 'block_start', index: 0, block: { type: 'text', text: '' } },
        } as RunEvent,
        {
          type: 'stream',
          agent,
          call: 1,
          event: { type: 'block_start', index: 1, block: { type: 'text', text: '' } },
        } as RunEvent,
      ]),
      stream('parent', 0, 'a'),
      stream('parent', 0, 'b'),
      stream('subagent-1', 0, 'c'),
      stream('parent', 0, 'd'),
      stream('parent', 1, 'e'),
      stream('parent', 1, 'f'),
      stream('subagent-1', 1, 'g'),
    ];
    const view = reduceAll(events);
    expect(view).toEqual(viewOf(oneByOne(events)));
    expect(view.parent.draft).toEqual([
      { type: 'text', text: 'abd' },
      { type: 'text', text: 'ef' },
    ]);
    expect(view.subagents[0].draft).toEqual([
      { type: 'text', text: 'c' },
      { type: 'text', text: 'g' },
    ]);
  });
});

describe('reducing a record is linear in its events, for every kind of event', () => {
  /** Items copied from array to array while a record is opened: reduced to its end and shown. */
  function openCost(events: readonly RunEvent[]): number {
    const before = copied.items;
    const replay = new Replay(events as RecordEvent[]);
    replay.at(replay.steps);
    return copied.items - before;
  }
  const asEvents = (record: { events: unknown[] }) => record.events as RunEvent[];
  /** `n` file changes, each of its own file, one event each. */
  const fileChanges = (n: number): RunEvent[] => [
    { type: 'run', prompt: 'files', settings },
    ...Array.from({ length: n }, (_, i): RunEvent => ({
      type: 'files',
      changes: [{ path: `/p/f${i}.py`, kind: 'create', agent: 'parent' }],
    })),
  ];
  const shapes: Array<[string, (n: number) => RunEvent[]]> = [
    ['log lines', (n) => asEvents(logRecord(n))],
    ['errors', (n) => asEvents(logRecord(n, 'error'))],
    ['text deltas of two agents, interleaved', (n) => asEvents(textDeltasRecord(n, 200))],
    ['tool calls and their messages', (n) => asEvents(toolCallsRecord(n / 8))],
    ['file changes', fileChanges],
  ];

  for (const [name, make] of shapes) {
    it(`${name}: twice the events, twice the work`, () => {
      const small = openCost(make(20_000));
      const large = openCost(make(40_000));
      // Quadratic (each event copying all the ones before it) would be 4 times, and millions.
      expect(large).toBeLessThan(2.2 * small + 1000);
      expect(large).toBeLessThan(10 * 40_000);
    });
  }

  it('a step costs its view and at most a checkpoint apart of reducing, wherever it goes', () => {
    const events = asEvents(logRecord(40_000));
    const replay = new Replay(events as RecordEvent[]);
    replay.at(replay.steps);
    for (const step of [1, 777, 20_000, 39_999, 12_345, 40_002, 3]) {
      const before = copied.items;
      const view = replay.at(step);
      expect(copied.items - before).toBeLessThan(2 * view.log.length + 5000);
    }
  });

  it('any step, visited in any order, is the view of reducing its events one by one', () => {
    const events = asEvents(textDeltasRecord(6000, 150));
    const replay = new Replay(events as RecordEvent[]);
    const steps = replay.steps;
    const order = [steps, 1, Math.floor(steps / 2), steps - 1, 7, Math.floor(steps / 3), steps, 0];
    for (const step of order) {
      const end = step === 0 ? 0 : events.findLastIndex((_, i) => replay.stepOfEvent(i) === step) + 1;
      expect(replay.at(step), `step ${step}`).toEqual(viewOf(oneByOne(events.slice(0, end))));
    }
  });
});

describe('what a step costs the screen', () => {
  const asEvents = (record: { events: unknown[] }) => record.events as RecordEvent[];

  it("keeps each array's size as its messages come: at every step, the JSON of the messages shown", async () => {
    const { record } = await recordReferenceRun();
    const rewritten: RunEvent[] = [
      {
        type: 'message',
        agent: 'parent',
        index: 0,
        message: { role: 'user', content: 'a long first prompt' },
      },
      {
        type: 'message',
        agent: 'parent',
        index: 1,
        message: { role: 'assistant', content: [{ type: 'text', text: 'x' }] },
      },
      {
        type: 'message',
        agent: 'parent',
        index: 1,
        message: { role: 'assistant', content: [{ type: 'text', text: 'yy' }] },
      },
      { type: 'message', agent: 'parent', index: 0, message: { role: 'user', content: 'short' } },
    ];
    const records = [
      record.events,
      asEvents(parallelRecord(4)),
      asEvents(toolCallsRecord(40)),
      rewritten.map((e, t) => ({ ...e, t })),
    ] as RecordEvent[][];
    for (const events of records) {
      const replay = new Replay(events);
      for (let step = 0; step <= replay.steps; step++) {
        const view = replay.at(step);
        for (const agent of [view.parent, ...view.subagents]) {
          expect(agent.chars, `step ${step} of ${agent.id}`).toBe(arrayChars(agent.messages));
          // The tokens kept the same way: the estimate of the messages shown.
          expect(agent.tokens).toBe(agent.messages.reduce((sum, m) => sum + messageTokens(m), 0));
        }
      }
    }
    const history = viewOf(
      stateWithHistory(
        rewritten.slice(0, 2).map((e) => (e as Extract<RunEvent, { type: 'message' }>).message),
      ),
    );
    expect(history.parent.chars).toBe(arrayChars(history.parent.messages));
  });

  it('a record opened again starts from the checkpoints already made: a step reduces at most a checkpoint', () => {
    const events = asEvents(logRecord(40_000));
    const first = new Replay(events);
    first.at(first.steps);
    const again = new Replay(events);
    for (const step of [again.steps, 39_999, 1, 20_000, 12_345, 3, 40_002]) {
      const before = reduced.events;
      const view = again.at(step);
      expect(reduced.events - before, `step ${step}`).toBeLessThanOrEqual(CHECKPOINT);
      expect(view).toEqual(viewOf(oneByOne(events.slice(0, view.applied) as RunEvent[])));
    }
  });
});
