import { describe, expect, it } from 'vitest';
import { callsTools, says, ScriptedModel, toolUse } from '../../test/scripted';
import { parentLoop, runSubagent, type LoopEvent, type RunTask, type TaskRequest } from './loop';
import type { AgentId, Message } from './messages';
import { CHILD_TOOLS, PARENT_TOOLS, type ToolHandler } from './tools';
import {
  forkMessages,
  isReferenceLimits,
  limitProblem,
  mayDelegate,
  REFERENCE_LIMITS,
  type ContextMode,
  type LoopLimits,
} from './variants';

const WORKDIR = '/home/user/project';
const PARENT_SYSTEM = `You are a coding agent at ${WORKDIR}. Use the task tool to delegate exploration or subtasks.`;
const SUBAGENT_SYSTEM = `You are a coding subagent at ${WORKDIR}. Complete the given task, then summarize your findings.`;
const S02_SYSTEM = `You are a coding agent at ${WORKDIR}. Use tools to solve tasks. Act, don't explain.`;

function tools(output: (input: Record<string, unknown>) => string = (i) => `ran: ${String(i.command)}`) {
  const calls: Array<{ agent: AgentId; name: string }> = [];
  const record =
    (name: string): ToolHandler =>
    async (input, { agent }) => {
      calls.push({ agent, name });
      return output(input);
    };
  const handlers = {
    bash: record('bash'),
    read_file: record('read_file'),
    write_file: record('write_file'),
    edit_file: record('edit_file'),
  };
  return { calls, handlers };
}

/**
 * Subagents in-process, one scripted model per spawn (in spawn order, as the page numbers the
 * workers), each a level deeper than the agent that asked for it.
 */
function tree(
  models: ScriptedModel[],
  handlers: Record<string, ToolHandler>,
  options: { context?: ContextMode; limits?: LoopLimits } = {},
) {
  const spawns: Array<{ agent: AgentId; from: AgentId; depth: number; task: TaskRequest }> = [];
  const events: LoopEvent[] = [];
  const runTaskFor =
    (from: AgentId, depth: number): RunTask =>
    (task, signal) => {
      const agent = `subagent-${spawns.length + 1}`;
      const model = models[spawns.length];
      spawns.push({ agent, from, depth, task });
      return runSubagent(task.prompt, {
        agent,
        model,
        modelName: 'm',
        workdir: WORKDIR,
        baseHandlers: handlers,
        depth,
        forkFrom: task.forkFrom,
        runTask: runTaskFor(agent, depth + 1),
        signal,
        onEvent: (e) => events.push(e),
        ...options,
      });
    };
  return { spawns, events, runTask: runTaskFor('parent', 1) };
}

async function runParent(
  parent: ScriptedModel,
  children: ScriptedModel[],
  options: { context?: ContextMode; limits?: LoopLimits; history?: Message[]; prompt?: string } = {},
) {
  const base = tools();
  const { context, limits } = options;
  const subagents = tree(children, base.handlers, { context, limits });
  const history = options.history ?? [];
  await parentLoop(options.prompt ?? 'Use a subtask to find what testing framework this project uses', {
    model: parent,
    modelName: 'm',
    workdir: WORKDIR,
    baseHandlers: base.handlers,
    history,
    runTask: subagents.runTask,
    context,
    limits,
  });
  return { ...subagents, history, calls: base.calls };
}

describe('context mode none: the parent is s02', () => {
  it('sends CHILD_TOOLS and the s02 system prompt, and keeps every result in its own array', async () => {
    const parent = new ScriptedModel([
      callsTools(toolUse('read_file', { path: 'requirements.txt' }, 'r1')),
      says('pytest'),
    ]);
    const { spawns, history } = await runParent(parent, [], { context: 'none' });
    for (const request of parent.requests) {
      expect(request.system).toBe(S02_SYSTEM);
      expect(request.tools).toEqual(CHILD_TOOLS);
      expect(request.max_tokens).toBe(8000);
    }
    expect(spawns).toEqual([]);
    expect(history[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'r1', content: 'ran: undefined' }],
    });
  });

  it('has no task tool to call: a task call gets the reference error', async () => {
    const parent = new ScriptedModel([
      callsTools(toolUse('task', { prompt: 'go' }, 't1')),
      says('I could not delegate.'),
    ]);
    const { spawns, history } = await runParent(parent, [], { context: 'none' });
    expect(spawns).toEqual([]);
    expect(history[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'Unknown tool: task' },
    ]);
  });
});

describe('context mode isolated: s04', () => {
  it('is the default and the same as asking for it', async () => {
    const script = () => [callsTools(toolUse('task', { prompt: 'Find it' }, 't1')), says('done')];
    const child = () => [says('found')];
    const plain = new ScriptedModel(script());
    const plainChild = new ScriptedModel(child());
    await runParent(plain, [plainChild]);
    const asked = new ScriptedModel(script());
    const askedChild = new ScriptedModel(child());
    await runParent(asked, [askedChild], { context: 'isolated', limits: REFERENCE_LIMITS });
    expect(asked.requests).toEqual(plain.requests);
    expect(askedChild.requests).toEqual(plainChild.requests);
    expect(plain.requests[0].system).toBe(PARENT_SYSTEM);
    expect(plainChild.requests[0].messages).toEqual([{ role: 'user', content: 'Find it' }]);
  });
});

describe('context mode fork', () => {
  it("starts the child from the parent's history before the task call, the prompt merged into its last user message", async () => {
    const earlier: Message[] = [
      { role: 'user', content: 'What is in this project?' },
      { role: 'assistant', content: [{ type: 'text', text: 'A small Python package.' }] },
    ];
    const parent = new ScriptedModel([
      callsTools(toolUse('read_file', { path: 'README.md' }, 'r1')),
      callsTools(
        { type: 'text', text: 'Delegating.' },
        toolUse('task', { prompt: 'Find the test framework' }, 't1'),
      ),
      says('pytest'),
    ]);
    const child = new ScriptedModel([says('It is pytest.')]);
    const { spawns } = await runParent(parent, [child], {
      context: 'fork',
      history: structuredClone(earlier),
      prompt: 'Use a subtask to find what testing framework this project uses',
    });
    const request = child.requests[0];
    expect(request.system).toBe(SUBAGENT_SYSTEM);
    expect(request.tools).toEqual(CHILD_TOOLS);
    // Everything the parent had before the turn that called task: not that turn itself.
    expect(request.messages).toEqual([
      ...earlier,
      { role: 'user', content: 'Use a subtask to find what testing framework this project uses' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'r1', name: 'read_file', input: { path: 'README.md' } }],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'r1', content: 'ran: undefined' },
          { type: 'text', text: 'Find the test framework' },
        ],
      },
    ]);
    // Roles alternate, as the API requires.
    request.messages.forEach((m, i) => expect(m.role).toBe(i % 2 ? 'assistant' : 'user'));
    expect(spawns[0].task.forkFrom).toEqual(parent.requests[1].messages);
    // The parent still gets only the summary.
    expect(parent.requests[2].messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 't1', content: 'It is pytest.' }],
    });
  });

  it('turns a prompt given as a string into text blocks when it merges', () => {
    const history: Message[] = [{ role: 'user', content: 'the user asked' }];
    expect(forkMessages(history, 'the task')).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'the user asked' },
          { type: 'text', text: 'the task' },
        ],
      },
    ]);
    expect(history).toEqual([{ role: 'user', content: 'the user asked' }]);
    expect(forkMessages([], 'the task')).toEqual([{ role: 'user', content: 'the task' }]);
  });

  it('keeps the cap, the cut and the summary-only return of an isolated child', async () => {
    const parent = new ScriptedModel([callsTools(toolUse('task', { prompt: 'go' }, 't1')), says('ok')]);
    const child = new ScriptedModel(
      Array.from({ length: 5 }, (_, i) =>
        callsTools({ type: 'text', text: `turn ${i + 1}` }, toolUse('bash', { command: 'x' })),
      ),
    );
    const limits = { ...REFERENCE_LIMITS, subagentMaxCalls: 2 };
    await runParent(parent, [child], { context: 'fork', limits });
    expect(child.requests).toHaveLength(2);
    expect(parent.requests[1].messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 't1', content: 'turn 2' }],
    });
  });
});

describe('loop limits', () => {
  it('sends the chosen max_tokens from every loop', async () => {
    const limits = { ...REFERENCE_LIMITS, maxTokens: 1234 };
    const parent = new ScriptedModel([callsTools(toolUse('task', { prompt: 'go' })), says('ok')]);
    const child = new ScriptedModel([says('done')]);
    await runParent(parent, [child], { limits });
    expect([...parent.requests, ...child.requests].map((r) => r.max_tokens)).toEqual([1234, 1234, 1234]);
    const solo = new ScriptedModel([says('ok')]);
    await runParent(solo, [], { limits, context: 'none' });
    expect(solo.requests[0].max_tokens).toBe(1234);
  });

  it("stops a subagent at the chosen call cap and returns that response's text", async () => {
    const parent = new ScriptedModel([callsTools(toolUse('task', { prompt: 'go' }, 't1')), says('ok')]);
    const child = new ScriptedModel(
      Array.from({ length: 40 }, (_, i) =>
        callsTools({ type: 'text', text: `turn ${i + 1}` }, toolUse('bash', { command: 'x' })),
      ),
    );
    const { events } = await runParent(parent, [child], {
      limits: { ...REFERENCE_LIMITS, subagentMaxCalls: 35 },
    });
    expect(child.requests).toHaveLength(35);
    expect(events).toContainEqual({ type: 'limit_reached', agent: 'subagent-1', calls: 35 });
  });

  it("cuts a subagent's tool results at the chosen length", async () => {
    const base = tools(() => 'y'.repeat(3000));
    const child = new ScriptedModel([callsTools(toolUse('bash', { command: 'big' })), says('ok')]);
    await runSubagent('go', {
      agent: 'subagent-1',
      model: child,
      modelName: 'm',
      workdir: WORKDIR,
      baseHandlers: base.handlers,
      limits: { ...REFERENCE_LIMITS, outputChars: 1000 },
    });
    const results = child.requests[1].messages[2].content as Array<{ content: string }>;
    expect(results[0].content).toBe('y'.repeat(1000));
  });
});

describe('delegation depth', () => {
  it('gives no subagent task at the reference depth 0', () => {
    expect(mayDelegate(1, REFERENCE_LIMITS)).toBe(false);
  });

  it('gives task to subagents above the limit and CHILD_TOOLS to those at it', async () => {
    const limits = { ...REFERENCE_LIMITS, delegationDepth: 2 };
    const parent = new ScriptedModel([callsTools(toolUse('task', { prompt: 'level 1' }, 't1')), says('ok')]);
    const first = new ScriptedModel([callsTools(toolUse('task', { prompt: 'level 2' }, 't2')), says('one')]);
    const second = new ScriptedModel([callsTools(toolUse('task', { prompt: 'level 3' }, 't3')), says('two')]);
    const third = new ScriptedModel([
      callsTools(toolUse('task', { prompt: 'level 4' }, 't4')),
      says('three'),
    ]);
    const { spawns } = await runParent(parent, [first, second, third], { limits });
    expect(spawns.map(({ agent, from, depth }) => ({ agent, from, depth }))).toEqual([
      { agent: 'subagent-1', from: 'parent', depth: 1 },
      { agent: 'subagent-2', from: 'subagent-1', depth: 2 },
      { agent: 'subagent-3', from: 'subagent-2', depth: 3 },
    ]);
    expect(first.requests[0].tools).toEqual(PARENT_TOOLS);
    expect(second.requests[0].tools).toEqual(PARENT_TOOLS);
    expect(third.requests[0].tools).toEqual(CHILD_TOOLS);
    // Each delegating subagent is still a subagent: its own system prompt, its summary only.
    expect(second.requests[0].system).toBe(SUBAGENT_SYSTEM);
    expect(third.requests[1].messages.at(-1)!.content).toEqual([
      { type: 'tool_result', tool_use_id: 't4', content: 'Unknown tool: task' },
    ]);
    expect(second.requests[1].messages.at(-1)!.content).toEqual([
      { type: 'tool_result', tool_use_id: 't3', content: 'three' },
    ]);
    expect(first.requests[1].messages.at(-1)!.content).toEqual([
      { type: 'tool_result', tool_use_id: 't2', content: 'two' },
    ]);
  });

  it("forks a grandchild from its own caller's history", async () => {
    const limits = { ...REFERENCE_LIMITS, delegationDepth: 1 };
    const parent = new ScriptedModel([callsTools(toolUse('task', { prompt: 'level 1' }, 't1')), says('ok')]);
    const first = new ScriptedModel([callsTools(toolUse('task', { prompt: 'level 2' }, 't2')), says('one')]);
    const second = new ScriptedModel([says('two')]);
    await runParent(parent, [first, second], { limits, context: 'fork', prompt: 'top' });
    expect(first.requests[0].messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'top' },
          { type: 'text', text: 'level 1' },
        ],
      },
    ]);
    expect(second.requests[0].messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'top' },
          { type: 'text', text: 'level 1' },
          { type: 'text', text: 'level 2' },
        ],
      },
    ]);
    expect(second.requests[0].tools).toEqual(CHILD_TOOLS);
  });

  it('logs the task line of a delegating subagent under its own name', async () => {
    const limits = { ...REFERENCE_LIMITS, delegationDepth: 1 };
    const parent = new ScriptedModel([callsTools(toolUse('task', { prompt: 'level 1' })), says('ok')]);
    const first = new ScriptedModel([
      callsTools(toolUse('task', { prompt: 'read b.py', description: 'half' })),
      says('one'),
    ]);
    const { events } = await runParent(parent, [first, new ScriptedModel([says('two')])], { limits });
    expect(events).toContainEqual({ type: 'log', agent: 'subagent-1', line: '> task (half): read b.py' });
  });
});

describe('the limits themselves', () => {
  it('names the range of a value out of it', () => {
    expect(limitProblem('subagentMaxCalls', 30)).toBeUndefined();
    expect(limitProblem('outputChars', 500)).toBe('outputChars must be an integer from 1,000 to 200,000');
    expect(limitProblem('delegationDepth', 3)).toBeUndefined();
    expect(limitProblem('delegationDepth', 4)).toBe('delegationDepth must be an integer from 0 to 3');
  });

  it('tells the reference limits from changed ones', () => {
    expect(isReferenceLimits(REFERENCE_LIMITS)).toBe(true);
    expect(isReferenceLimits({ ...REFERENCE_LIMITS, delegationDepth: 1 })).toBe(false);
  });
});
