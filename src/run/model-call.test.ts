import { describe, expect, it } from 'vitest';
import { callsTools, says, ScriptedModel, toolUse } from '../../test/scripted';
import { parentLoop, runSubagent, type LoopEvent } from '../core/loop';
import type { Message } from '../core/messages';
import { CHILD_TOOLS, PARENT_TOOLS, parentSystem, subagentSystem } from '../core/tools';
import { forkMessages, REFERENCE_LIMITS, type ContextMode } from '../core/variants';
import { parseRecord } from './check';
import { callCounts, modelCallView, previewOf } from './model-call';
import { newRecord, type RunEvent, type RunRecord } from './record';

const WORKDIR = '/home/user/project';
const PROMPT = 'Use a subtask to find what testing framework this project uses';

/** A run of the real loops on scripted models, recorded as the page records one (spawns included). */
async function recorded(context: ContextMode = 'isolated') {
  const parent = new ScriptedModel([
    callsTools(toolUse('bash', { command: 'ls' })),
    callsTools(toolUse('task', { prompt: 'Find the framework', description: 'find' })),
    says('It is pytest.'),
  ]);
  const child = new ScriptedModel([
    callsTools(toolUse('read_file', { path: 'requirements.txt' })),
    says('pytest'),
  ]);
  const events: RunEvent[] = [];
  const settings = {
    provider: 'demo' as const,
    model: 'demo',
    sample: 'python' as const,
    sandbox: 'local',
    context,
    limits: REFERENCE_LIMITS,
  };
  events.push({ type: 'run', prompt: PROMPT, settings }, { type: 'status', status: { kind: 'running' } });
  const onEvent = (e: LoopEvent) => events.push(e);
  const handlers = {
    bash: async () => 'requirements.txt',
    read_file: async () => 'pytest',
    write_file: async () => '',
    edit_file: async () => '',
  };
  await parentLoop(PROMPT, {
    model: parent,
    modelName: 'demo',
    workdir: WORKDIR,
    baseHandlers: handlers,
    history: [],
    context,
    onEvent,
    runTask: async (task) => {
      const first: Message[] = task.forkFrom
        ? forkMessages(task.forkFrom, task.prompt)
        : [{ role: 'user', content: task.prompt }];
      events.push({
        type: 'spawn',
        agent: 'subagent-1',
        from: 'parent',
        taskId: task.id,
        description: task.description,
        messages: first,
      });
      const summary = await runSubagent(task.prompt, {
        agent: 'subagent-1',
        model: child,
        modelName: 'demo',
        workdir: WORKDIR,
        baseHandlers: handlers,
        forkFrom: task.forkFrom,
        onEvent,
      });
      events.push({ type: 'agent_state', agent: 'subagent-1', state: 'discarded', summary });
      return summary;
    },
  });
  events.push({ type: 'status', status: { kind: 'finished' } });
  const record: RunRecord = newRecord('r', 0, PROMPT, settings);
  record.events = events.map((e, t) => ({ ...e, t }));
  return { record, parent, child };
}

describe('modelCallView', () => {
  it("shows what each call sent: a subagent's first call sent one message, its task prompt", async () => {
    const { record, parent, child } = await recorded();
    const first = modelCallView(record, 'subagent-1', 1)!;
    expect(first.recorded).toBe(true);
    expect(first.context).toBe('isolated');
    expect(first.messages.map((m) => [m.role, m.message])).toEqual([
      ['user', { role: 'user', content: 'Find the framework' }],
    ]);
    expect(first.system).toBe(subagentSystem(WORKDIR));
    expect(first.tools!.map((t) => t.name)).toEqual(CHILD_TOOLS.map((t) => t.name));
    expect(JSON.parse(first.tools![0].schema)).toEqual(CHILD_TOOLS[0].input_schema);
    expect(first.model).toBe('demo');
    expect(first.maxTokens).toBe(8000);
    expect(first.response).toMatchObject({ stopReason: 'tool_use', counted: false, blocks: ['tool_use'] });

    const parentLast = modelCallView(record, 'parent', 3)!;
    expect(parentLast.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(parentLast.tools!.map((t) => t.name)).toEqual(PARENT_TOOLS.map((t) => t.name));
    expect(parentLast.system).toBe(parentSystem(WORKDIR));
    expect(parentLast.response).toMatchObject({ stopReason: 'end_turn', blocks: ['text'] });
    expect(parentLast.chars).toBe(JSON.stringify(parent.requests[2].messages).length - 2 - 4);

    // The body shown is exactly the request each model received.
    for (const [agent, model] of [
      ['parent', parent],
      ['subagent-1', child],
    ] as const) {
      model.requests.forEach((request, i) => {
        expect(JSON.parse(modelCallView(record, agent, i + 1)!.bodyJson()!)).toEqual(request);
      });
    }
    expect(modelCallView(record, 'subagent-1', 3)).toBeNull();
    expect(modelCallView(record, 'subagent-2', 1)).toBeNull();
  });

  it("shows that a fork child's first call sent the parent's messages", async () => {
    const { record, parent } = await recorded('fork');
    const first = modelCallView(record, 'subagent-1', 1)!;
    expect(first.context).toBe('fork');
    // The parent's array before the turn that called task, the task prompt joined to its last message.
    const before = parent.requests[1].messages;
    expect(first.messages).toHaveLength(before.length);
    expect(first.messages.map((m) => m.message)).toEqual(forkMessages(before, 'Find the framework'));
  });

  it('opens a call of a record made before calls kept their body, and says so', async () => {
    const { record } = await recorded();
    for (const event of record.events) if (event.type === 'model_start') delete event.request;
    const old = modelCallView(record, 'parent', 2)!;
    expect(old.recorded).toBe(false);
    expect(old.system).toBeNull();
    expect(old.tools).toBeNull();
    expect(old.bodyJson()).toBeNull();
    // What the loop sends: the agent's array at the call.
    expect(old.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('shows a call as it was at a step: no response before its model_end', async () => {
    const { record } = await recorded();
    const start = record.events.findIndex((e) => e.type === 'model_start' && e.agent === 'subagent-1');
    expect(modelCallView(record, 'subagent-1', 1, start + 1)!.response).toBeNull();
    expect(modelCallView(record, 'subagent-1', 1, start)).toBeNull();
    expect(modelCallView(record, 'subagent-1', 1, start + 1)!.messages).toHaveLength(1);
  });

  it('counts the messages a body names that the record does not hold', async () => {
    const { record } = await recorded();
    const start = record.events.find((e) => e.type === 'model_start' && e.agent === 'subagent-1')!;
    (start as { request: { messages: number } }).request.messages = 4;
    const view = modelCallView(record, 'subagent-1', 1)!;
    expect(view.messages).toHaveLength(1);
    expect(view.missing).toBe(3);
  });

  it('numbers calls per agent up to a step', async () => {
    const { record } = await recorded();
    expect(Object.fromEntries(callCounts(record))).toEqual({ parent: 3, 'subagent-1': 2 });
    const firstChild = record.events.findIndex((e) => e.type === 'model_start' && e.agent === 'subagent-1');
    expect(Object.fromEntries(callCounts(record, firstChild + 1))).toEqual({ parent: 2, 'subagent-1': 1 });
  });

  it('a record with bodies opens again: nothing in a body is named like a secret', async () => {
    const { record } = await recorded();
    const opened = parseRecord(JSON.stringify(record));
    const start = opened.events.find((e) => e.type === 'model_start')!;
    expect(start).toEqual(record.events.find((e) => e.type === 'model_start'));
    expect(modelCallView(opened, 'subagent-1', 1)!.recorded).toBe(true);
  });

  it('previews a message on one line, cut at 120 characters', () => {
    expect(previewOf({ role: 'user', content: 'a\n\n b' })).toBe('a b');
    const long = previewOf({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'x', content: 'y'.repeat(500) }],
    });
    expect(long).toHaveLength(120);
    expect(
      previewOf({
        role: 'assistant',
        content: [{ type: 'text', text: 'Let me look.' }, toolUse('bash', { command: 'ls' }, 'id')],
      }),
    ).toBe('Let me look. · bash {"command":"ls"}');
  });
});
