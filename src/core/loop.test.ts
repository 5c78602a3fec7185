import { describe, expect, it } from 'vitest';
import { callsTools, says, ScriptedModel, toolUse } from '../../test/scripted';
import type { AgentId, Message } from './messages';
import { ModelCallError, type ModelClient } from './model';
import {
  agentLoop,
  finalText,
  parentLoop,
  runSubagent,
  StopError,
  type LoopEvent,
  type RunTask,
  type TaskRequest,
} from './loop';
import { CHILD_TOOLS, PARENT_TOOLS, type ToolHandler } from './tools';
import { REFERENCE_LIMITS } from './variants';

const WORKDIR = '/home/user/project';
const PARENT_SYSTEM = `You are a coding agent at ${WORKDIR}. Use the task tool to delegate exploration or subtasks.`;
const SUBAGENT_SYSTEM = `You are a coding subagent at ${WORKDIR}. Complete the given task, then summarize your findings.`;

/** Base tools that answer from a record, and remember every call. */
function fakeTools() {
  const calls: Array<{ agent: AgentId; name: string; input: unknown }> = [];
  const files: Record<string, string> = { 'requirements.txt': 'pytest\npytest-cov\n' };
  const handlers: Record<string, ToolHandler> = {
    bash: async (input, { agent }) => {
      calls.push({ agent, name: 'bash', input });
      return `ran: ${String(input.command)}`;
    },
    read_file: async (input, { agent }) => {
      calls.push({ agent, name: 'read_file', input });
      const text = files[String(input.path)];
      if (text === undefined) throw new Error(`[Errno 2] No such file or directory: '${String(input.path)}'`);
      return text;
    },
    write_file: async (input, { agent }) => {
      calls.push({ agent, name: 'write_file', input });
      files[String(input.path)] = String(input.content);
      return `Wrote ${String(input.content).length} bytes`;
    },
    edit_file: async () => 'Edited',
  };
  return { calls, files, handlers };
}

/** Runs subagents in-process with the given model, recording their events. */
function inProcessTasks(model: ModelClient, handlers: Record<string, ToolHandler>, events: LoopEvent[]) {
  let n = 0;
  const tasks: TaskRequest[] = [];
  const runTask: RunTask = (task, signal) => {
    tasks.push(task);
    return runSubagent(task.prompt, {
      agent: `subagent-${++n}`,
      model,
      modelName: 'test-model',
      workdir: WORKDIR,
      baseHandlers: handlers,
      signal,
      onEvent: (e) => events.push(e),
    });
  };
  return { runTask, tasks };
}

function setup(
  parentSteps: ConstructorParameters<typeof ScriptedModel>[0],
  childSteps: ConstructorParameters<typeof ScriptedModel>[0] = [],
) {
  const parent = new ScriptedModel(parentSteps);
  const child = new ScriptedModel(childSteps);
  const tools = fakeTools();
  const events: LoopEvent[] = [];
  const { runTask, tasks } = inProcessTasks(child, tools.handlers, events);
  const history: Message[] = [];
  const run = (prompt: string, extra: { signal?: AbortSignal; concurrentTasks?: boolean } = {}) =>
    parentLoop(prompt, {
      model: parent,
      modelName: 'test-model',
      workdir: WORKDIR,
      baseHandlers: tools.handlers,
      history,
      runTask,
      onEvent: (e) => events.push(e),
      ...extra,
    });
  return { parent, child, tools, events, history, run, tasks };
}

describe('parent requests', () => {
  it('sends the reference system prompt, the five tools, max_tokens 8000 and the prompt', async () => {
    const { parent, run } = setup([says('hi')]);
    await run('Use a subtask to find what testing framework this project uses');
    expect(parent.requests).toHaveLength(1);
    const request = parent.requests[0];
    expect(request.system).toBe(PARENT_SYSTEM);
    expect(request.max_tokens).toBe(8000);
    expect(request.model).toBe('test-model');
    expect(request.tools.map((t) => t.name)).toEqual([
      'bash',
      'read_file',
      'write_file',
      'edit_file',
      'task',
    ]);
    expect(request.messages).toEqual([
      { role: 'user', content: 'Use a subtask to find what testing framework this project uses' },
    ]);
  });

  it('says with each model_start what the call sends: the body, its messages as their count', async () => {
    const { parent, child, run, events } = setup(
      [callsTools(toolUse('task', { prompt: 'find the framework', description: 'find' })), says('pytest')],
      [says('It is pytest.')],
    );
    await run('Use a subtask to find what testing framework this project uses');
    const starts = events.filter((e) => e.type === 'model_start');
    const sentTo = (agent: string) => (agent === 'parent' ? parent : child).requests;
    const seen = new Map<string, number>();
    for (const start of starts) {
      const n = seen.get(start.agent) ?? 0;
      seen.set(start.agent, n + 1);
      const { messages, ...body } = sentTo(start.agent)[n];
      expect(start.request).toEqual({ ...body, messages: messages.length });
    }
    expect(starts.map((e) => [e.agent, e.request?.messages])).toEqual([
      ['parent', 1],
      ['subagent-1', 1],
      ['parent', 3],
    ]);
  });

  it('has tool schemas identical to the recorded reference request', async () => {
    const { readFile } = await import('node:fs/promises');
    const trace = JSON.parse(
      await readFile(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
    );
    const [parentRequest, childRequest] = [trace.cycles[0].request, trace.cycles[1].request];
    expect(JSON.stringify(PARENT_TOOLS)).toBe(JSON.stringify(parentRequest.tools));
    expect(JSON.stringify(CHILD_TOOLS)).toBe(JSON.stringify(childRequest.tools));
  });

  it('the task tool is the only difference between the parent and child tool lists', () => {
    expect(PARENT_TOOLS.slice(0, 4)).toEqual(CHILD_TOOLS);
    expect(PARENT_TOOLS[4].name).toBe('task');
    expect(PARENT_TOOLS[4].input_schema).toEqual({
      type: 'object',
      properties: {
        prompt: { type: 'string' },
        description: { type: 'string', description: 'Short description of the task' },
      },
      required: ['prompt'],
    });
    expect(CHILD_TOOLS.some((t) => t.name === 'task')).toBe(false);
  });
});

describe('subagent isolation', () => {
  it('starts a subagent with a fresh array, child tools and its own system prompt', async () => {
    const { child, run } = setup(
      [
        callsTools(toolUse('task', { prompt: 'Find the test framework', description: 'find tests' })),
        says('It is pytest.'),
      ],
      [
        callsTools(toolUse('read_file', { path: 'requirements.txt' })),
        says('Found pytest in requirements.txt'),
      ],
    );
    await run('an earlier turn that the subagent must not see');
    expect(child.requests[0].system).toBe(SUBAGENT_SYSTEM);
    expect(child.requests[0].messages).toEqual([{ role: 'user', content: 'Find the test framework' }]);
    expect(child.requests[0].tools).toEqual(CHILD_TOOLS);
    expect(child.requests[0].max_tokens).toBe(8000);
    // The description labels the task for people; it is never sent to the subagent.
    expect(JSON.stringify(child.requests)).not.toContain('find tests');
  });

  it('returns only the final text to the parent as an ordinary tool_result', async () => {
    const { parent, run, history } = setup(
      [callsTools(toolUse('task', { prompt: 'Explore' }, 'toolu_task')), says('Done.')],
      [
        callsTools(toolUse('bash', { command: 'ls' })),
        callsTools(toolUse('read_file', { path: 'requirements.txt' })),
        {
          content: [
            { type: 'text', text: 'Summary: ' },
            { type: 'text', text: 'pytest' },
          ],
          stop_reason: 'end_turn',
        },
      ],
    );
    await run('find the framework');
    expect(parent.requests[1].messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_task', content: 'Summary: pytest' }],
    });
    // Nothing of the subagent's own work (its tool calls and results) reaches the parent.
    expect(JSON.stringify(history)).not.toContain('ran: ls');
    expect(JSON.stringify(history)).not.toContain('pytest-cov');
    expect(history).toHaveLength(4);
  });

  it('gives a subagent that calls task the reference error, not a subagent of its own', async () => {
    const { child, run } = setup(
      [callsTools(toolUse('task', { prompt: 'go' })), says('ok')],
      [callsTools(toolUse('task', { prompt: 'recurse' }, 'toolu_r')), says('could not recurse')],
    );
    await run('p');
    expect(child.requests[1].messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_r', content: 'Unknown tool: task' }],
    });
    expect(child.requests).toHaveLength(2);
  });

  it('shares the filesystem: what a subagent writes the parent reads', async () => {
    const { parent, run } = setup(
      [
        callsTools(toolUse('task', { prompt: 'write it' })),
        callsTools(toolUse('read_file', { path: 'notes.md' }, 'toolu_read')),
        says('verified'),
      ],
      [
        callsTools(toolUse('write_file', { path: 'notes.md', content: 'from the subagent' })),
        says('wrote notes.md'),
      ],
    );
    await run('p');
    expect(parent.requests[2].messages[4]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_read', content: 'from the subagent' }],
    });
  });

  it('falls back to "(no summary)" when the last response has no text', async () => {
    const { parent, run } = setup(
      [callsTools(toolUse('task', { prompt: 'x' }, 'toolu_t')), says('ok')],
      [{ content: [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }], stop_reason: 'end_turn' }],
    );
    await run('p');
    expect(parent.requests[1].messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_t', content: '(no summary)' },
    ]);
  });

  it('labels a task without a description "subtask" in the log', async () => {
    const { events, run } = setup(
      [callsTools(toolUse('task', { prompt: 'look around' })), says('ok')],
      [says('seen')],
    );
    await run('p');
    const logs = events.filter((e) => e.type === 'log').map((e) => (e as { line: string }).line);
    expect(logs).toEqual(['> task (subtask): look around', '  seen']);
  });
});

describe('loop rules', () => {
  it('keeps assistant content unchanged, thinking signatures included', async () => {
    const content = [
      { type: 'thinking' as const, thinking: 'Let me look.', signature: 'sig-123' },
      { type: 'redacted_thinking' as const, data: 'opaque' },
      { type: 'text' as const, text: 'Checking.' },
      { type: 'tool_use' as const, id: 'toolu_a', name: 'bash', input: { command: 'ls' } },
    ];
    const { parent, run } = setup([{ content, stop_reason: 'tool_use' }, says('done')]);
    await run('p');
    expect(parent.requests[1].messages[1]).toEqual({ role: 'assistant', content });
  });

  it('answers every tool_use in order in ONE user message with matching ids', async () => {
    const { parent, run } = setup([
      callsTools(
        toolUse('bash', { command: 'one' }, 'a'),
        toolUse('read_file', { path: 'requirements.txt' }, 'b'),
        toolUse('bash', { command: 'three' }, 'c'),
      ),
      says('done'),
    ]);
    await run('p');
    expect(parent.requests[1].messages).toHaveLength(3);
    expect(parent.requests[1].messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: 'ran: one' },
        { type: 'tool_result', tool_use_id: 'b', content: 'pytest\npytest-cov\n' },
        { type: 'tool_result', tool_use_id: 'c', content: 'ran: three' },
      ],
    });
  });

  it('ends when stop_reason is anything but tool_use, even with tool_use blocks present', async () => {
    const { parent, tools, run } = setup([
      { content: [toolUse('bash', { command: 'never' })], stop_reason: 'max_tokens' },
    ]);
    const result = await run('p');
    expect(parent.requests).toHaveLength(1);
    expect(tools.calls).toHaveLength(0);
    expect(result.ended).toBe('model');
  });

  it('ends the turn when stop_reason is tool_use but no tool_use block came, saying so in the log', async () => {
    const { parent, events, history, run } = setup([
      says('I will call a tool now.', 'tool_use'),
      says('second answer'),
    ]);
    const result = await run('first');
    expect(parent.requests).toHaveLength(1);
    expect(result.ended).toBe('model');
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(events).toContainEqual({
      type: 'log',
      agent: 'parent',
      line: expect.stringMatching(/stop_reason tool_use without a tool_use block/),
    });
    // Nothing empty was kept to be sent with the next prompt.
    await run('second');
    expect(parent.requests[1].messages).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'text', text: 'I will call a tool now.' }] },
      { role: 'user', content: 'second' },
    ]);
  });

  it('ends a subagent the same way, returning the text it has', async () => {
    const { child, run, parent } = setup(
      [callsTools(toolUse('task', { prompt: 'look' }, 't1')), says('done')],
      [says('Found it: pytest.', 'tool_use')],
    );
    await run('p');
    expect(child.requests).toHaveLength(1);
    expect(parent.requests[1].messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'Found it: pytest.' },
    ]);
  });

  it('answers an unknown tool with "Unknown tool: <name>"', async () => {
    const { parent, run } = setup([callsTools(toolUse('deploy', {}, 'x')), says('ok')]);
    await run('p');
    expect(parent.requests[1].messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'x', content: 'Unknown tool: deploy' },
    ]);
  });

  it('turns a throwing tool into "Error: <message>" and goes on', async () => {
    const { parent, run } = setup([
      callsTools(
        toolUse('read_file', { path: 'missing.txt' }, 'x'),
        toolUse('bash', { command: 'after' }, 'y'),
      ),
      says('ok'),
    ]);
    const result = await run('p');
    expect(parent.requests[1].messages[2].content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'x',
        content: "Error: [Errno 2] No such file or directory: 'missing.txt'",
      },
      { type: 'tool_result', tool_use_id: 'y', content: 'ran: after' },
    ]);
    expect(result.ended).toBe('model');
  });

  it('turns a malformed task input into an error naming the field', async () => {
    const { parent, tasks, run } = setup([
      callsTools(toolUse('task', { description: 'no prompt' }, 'x'), toolUse('task', { prompt: 42 }, 'y')),
      says('ok'),
    ]);
    await run('p');
    expect(tasks).toHaveLength(0);
    expect(parent.requests[1].messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'x', content: "Error: task is missing required field 'prompt'" },
      {
        type: 'tool_result',
        tool_use_id: 'y',
        content: "Error: task field 'prompt' must be a string, got number 42",
      },
    ]);
  });

  it("cuts subagent tool results to 50,000 characters but not the parent's", async () => {
    const big = 'x'.repeat(60_000);
    const tools = fakeTools();
    tools.handlers.bash = async () => big;
    const child = new ScriptedModel([callsTools(toolUse('bash', { command: 'big' }, 'b')), says('ok')]);
    await runSubagent('go', {
      agent: 'subagent-1',
      model: child,
      modelName: 'm',
      workdir: WORKDIR,
      baseHandlers: tools.handlers,
    });
    const result = (child.requests[1].messages[2].content as Array<{ content: string }>)[0].content;
    expect(result.length).toBe(50_000);

    const parent = new ScriptedModel([callsTools(toolUse('bash', { command: 'big' }, 'b')), says('ok')]);
    await parentLoop('p', {
      model: parent,
      modelName: 'm',
      workdir: WORKDIR,
      baseHandlers: tools.handlers,
      history: [],
      runTask: async () => '',
    });
    expect((parent.requests[1].messages[2].content as Array<{ content: string }>)[0].content.length).toBe(
      60_000,
    );
  });

  it("stops a subagent after 30 model calls and returns the 30th response's text", async () => {
    const steps = Array.from({ length: 40 }, (_, i) => ({
      content: [
        { type: 'text' as const, text: `turn ${i + 1}` },
        toolUse('bash', { command: `step ${i + 1}` }),
      ],
      stop_reason: 'tool_use',
    }));
    const child = new ScriptedModel(steps);
    const events: LoopEvent[] = [];
    const tools = fakeTools();
    const summary = await runSubagent('loop forever', {
      agent: 'subagent-1',
      model: child,
      modelName: 'm',
      workdir: WORKDIR,
      baseHandlers: tools.handlers,
      onEvent: (e) => events.push(e),
    });
    expect(child.requests).toHaveLength(30);
    expect(summary).toBe('turn 30');
    expect(tools.calls).toHaveLength(30);
    expect(events).toContainEqual({ type: 'limit_reached', agent: 'subagent-1', calls: 30 });
  });

  it('takes the call cap as a parameter', async () => {
    const child = new ScriptedModel(
      Array.from({ length: 10 }, () => callsTools(toolUse('bash', { command: 'x' }))),
    );
    await runSubagent('go', {
      agent: 's',
      model: child,
      modelName: 'm',
      workdir: WORKDIR,
      baseHandlers: fakeTools().handlers,
      limits: { ...REFERENCE_LIMITS, subagentMaxCalls: 3 },
    });
    expect(child.requests).toHaveLength(3);
  });

  it('continues the parent history with a follow-up prompt', async () => {
    const { parent, run, history } = setup([says('first answer'), says('second answer')]);
    await run('first');
    await run('second');
    expect(parent.requests[1].messages).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'text', text: 'first answer' }] },
      { role: 'user', content: 'second' },
    ]);
    expect(history).toHaveLength(4);
  });

  it('sends a snapshot of the messages, not the live array', async () => {
    const { parent, run } = setup([callsTools(toolUse('bash', { command: 'a' })), says('ok')]);
    await run('p');
    expect(parent.requests[0].messages).toHaveLength(1);
  });
});

describe('failures and stopping', () => {
  it('ends with an error event when a model call fails, keeping the history', async () => {
    const { events, run, history } = setup([
      callsTools(toolUse('bash', { command: 'ls' })),
      new ModelCallError('401 authentication_error: invalid x-api-key', 401),
    ]);
    await expect(run('p')).rejects.toThrow('401 authentication_error');
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(events).toContainEqual({
      type: 'error',
      agent: 'parent',
      error: '401 authentication_error: invalid x-api-key',
    });
  });

  it("ends the whole run when a subagent's model call fails (it is not a tool error)", async () => {
    const { parent, run } = setup(
      [callsTools(toolUse('task', { prompt: 'x' }))],
      [new Error('Connection error.')],
    );
    const failure = await run('p').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ModelCallError);
    expect((failure as Error).message).toBe('Connection error.');
    expect(parent.requests).toHaveLength(1);
  });

  it('stops at once when the signal is aborted during a tool', async () => {
    const controller = new AbortController();
    const { parent, tools, run } = setup([callsTools(toolUse('bash', { command: 'slow' })), says('never')]);
    tools.handlers.bash = (_input, { signal }) =>
      new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new StopError()));
        queueMicrotask(() => controller.abort());
      });
    await expect(run('p', { signal: controller.signal })).rejects.toBeInstanceOf(StopError);
    expect(parent.requests).toHaveLength(1);
  });

  it('stops before a model call when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { parent, run } = setup([says('never')]);
    await expect(run('p', { signal: controller.signal })).rejects.toBeInstanceOf(StopError);
    expect(parent.requests).toHaveLength(0);
  });
});

describe('events and concurrency', () => {
  it('emits the reference log lines, message events and timed tool events', async () => {
    const { events, run } = setup(
      [callsTools(toolUse('task', { prompt: 'P'.repeat(100), description: 'find' }, 't1')), says('ok')],
      [callsTools(toolUse('bash', { command: 'ls' })), says('S'.repeat(300))],
    );
    await run('p');
    const logs = events.filter((e) => e.type === 'log').map((e) => (e as { line: string }).line);
    expect(logs).toEqual([`> task (find): ${'P'.repeat(80)}`, `  ${'S'.repeat(200)}`]);
    const toolEnd = events.find((e) => e.type === 'tool_end' && e.agent === 'subagent-1');
    expect(toolEnd).toMatchObject({ name: 'bash', output: 'ran: ls' });
    expect(events.find((e) => e.type === 'task_end')).toMatchObject({ id: 't1', summary: 'S'.repeat(300) });
    const parentMessages = events.filter((e) => e.type === 'message' && e.agent === 'parent');
    expect(parentMessages.map((e) => (e as { index: number }).index)).toEqual([0, 1, 2, 3]);
    const childMessages = events.filter((e) => e.type === 'message' && e.agent === 'subagent-1');
    expect(childMessages.map((e) => (e as { index: number }).index)).toEqual([1, 2, 3]);
    expect(
      events.some((e) => e.type === 'stream' && e.agent === 'subagent-1' && e.event.type === 'text_delta'),
    ).toBe(true);
  });

  it('runs consecutive task calls at once when asked, keeping results in call order', async () => {
    const started: string[] = [];
    const releases: Array<() => void> = [];
    const parent = new ScriptedModel([
      callsTools(toolUse('task', { prompt: 'A' }, 'ta'), toolUse('task', { prompt: 'B' }, 'tb')),
      says('ok'),
    ]);
    const runTask: RunTask = (task) =>
      new Promise((resolve) => {
        started.push(task.prompt);
        releases.push(() => resolve(`summary ${task.prompt}`));
        if (releases.length === 2) releases.reverse().forEach((r) => r()); // B finishes first
      });
    await parentLoop('p', {
      model: parent,
      modelName: 'm',
      workdir: WORKDIR,
      baseHandlers: {},
      history: [],
      runTask,
      concurrentTasks: true,
    });
    expect(started).toEqual(['A', 'B']);
    expect(parent.requests[1].messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'ta', content: 'summary A' },
      { type: 'tool_result', tool_use_id: 'tb', content: 'summary B' },
    ]);
  });

  it('runs task calls one after another by default, as the reference does', async () => {
    let running = 0;
    let most = 0;
    const parent = new ScriptedModel([
      callsTools(toolUse('task', { prompt: 'A' }), toolUse('task', { prompt: 'B' })),
      says('ok'),
    ]);
    const runTask: RunTask = async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return 's';
    };
    await parentLoop('p', {
      model: parent,
      modelName: 'm',
      workdir: WORKDIR,
      baseHandlers: {},
      history: [],
      runTask,
    });
    expect(most).toBe(1);
  });

  it('agentLoop appends to the array it is given', async () => {
    const messages: Message[] = [{ role: 'user', content: 'hi' }];
    const model = new ScriptedModel([says('hello')]);
    const result = await agentLoop({
      agent: 'x',
      model,
      modelName: 'm',
      system: 's',
      tools: [],
      handlers: {},
      messages,
    });
    expect(result.messages).toBe(messages);
    expect(messages).toHaveLength(2);
    expect(finalText(result.last)).toBe('hello');
  });
});
