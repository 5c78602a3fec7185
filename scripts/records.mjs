/**
 * Run records made to measure, for the benchmark, the screenshots and the e2e tests: shapes a
 * learner's run reaches only slowly (10,000 events, 1,000 model calls, 12 subagents at once),
 * written event by event as the playground records them (src/run/record.ts), so that they open
 * through the same checks as any exported run.
 */

const SETTINGS = {
  provider: 'demo',
  model: 'demo',
  sample: 'python',
  sandbox: 'local',
  context: 'isolated',
  limits: { subagentMaxCalls: 30, outputChars: 50_000, maxTokens: 8000, delegationDepth: 0 },
};

function record(title, events) {
  return {
    format: 's04-playground-run',
    version: 2,
    id: `made-${title.replace(/\W+/g, '-')}`,
    startedAt: Date.UTC(2026, 0, 1),
    title,
    settings: SETTINGS,
    events,
  };
}

/**
 * The parent alone, `calls` model calls in a row, each a bash call whose result is `resultChars`
 * long: `bigRecord()` is 500 calls of 10,000 characters (about 10,000 events, 1,000 messages and
 * 5 MB of tool output), the chart's case is 1,000 calls.
 */
export function parentCallsRecord(calls, resultChars) {
  const output = ('x'.repeat(99) + '\n').repeat(Math.ceil(resultChars / 100)).slice(0, resultChars);
  const events = [
    { t: 0, type: 'run', prompt: 'big', settings: SETTINGS },
    { t: 0, type: 'status', status: { kind: 'running' } },
    { t: 0, type: 'message', agent: 'parent', index: 0, message: { role: 'user', content: 'big' } },
  ];
  let t = 0;
  for (let i = 0; i < calls; i++) {
    const call = i + 1;
    const id = `t${i}`;
    const block = { type: 'tool_use', id, name: 'bash', input: { command: `cat file${i}.txt` } };
    events.push({ t: (t += 1), type: 'model_start', agent: 'parent', call });
    const stream = (event) => events.push({ t, type: 'stream', agent: 'parent', call, event });
    stream({ type: 'block_start', index: 0, block: { ...block, input: {} } });
    for (let k = 0; k < 10; k++) {
      const partial_json = k === 0 ? '{"command":' : k === 9 ? `"cat file${i}.txt"}` : '';
      stream({ type: 'input_json_delta', index: 0, partial_json });
    }
    stream({ type: 'block_stop', index: 0 });
    events.push({
      t: (t += 1),
      type: 'model_end',
      agent: 'parent',
      call,
      durationMs: 1,
      stopReason: 'tool_use',
    });
    events.push({
      t,
      type: 'message',
      agent: 'parent',
      index: 2 * i + 1,
      message: { role: 'assistant', content: [block] },
    });
    events.push({ t, type: 'tool_start', agent: 'parent', id, name: 'bash', input: block.input });
    // As the playground records it: a preview; the whole output is in the tool_result.
    const preview = output.slice(0, 200);
    events.push({
      t: (t += 1),
      type: 'tool_end',
      agent: 'parent',
      id,
      name: 'bash',
      output: preview,
      durationMs: 1,
    });
    events.push({ t, type: 'log', agent: 'parent', line: '  ' + preview });
    events.push({
      t,
      type: 'message',
      agent: 'parent',
      index: 2 * i + 2,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output }] },
    });
  }
  events.push({ t, type: 'status', status: { kind: 'finished' } });
  return record(calls === 500 ? 'big' : `${calls} calls`, events);
}

/** The benchmark's big record: 500 calls, 1,000 messages, 5 MB of tool output, ~10,000 events. */
export const bigRecord = () => parentCallsRecord(500, 10_000);

/**
 * The parent hands out `n` tasks in one response; their subagents run at once, each reading three
 * files, their calls interleaved, each worker created, ready and terminated as the playground
 * records it, and each returning at its own time.
 */
export function parallelRecord(n) {
  const files = ['src/main.py', 'src/stats.py', 'src/utils.py', 'tests/test_main.py', 'README.md'];
  const prompt = `Delegate: ${n} subtasks at once, one per area of the project`;
  const events = [];
  let t = 0;
  const at = (ms, event) => events.push({ t: (t = Math.max(t, Math.round(ms))), ...event });
  at(0, { type: 'run', prompt, settings: SETTINGS });
  at(0, { type: 'status', status: { kind: 'running' } });
  at(0, { type: 'worker', worker: 'parent', phase: 'created' });
  at(30, { type: 'worker', worker: 'parent', phase: 'ready' });
  at(30, { type: 'message', agent: 'parent', index: 0, message: { role: 'user', content: prompt } });
  at(30, { type: 'model_start', agent: 'parent', call: 1 });
  const tasks = Array.from({ length: n }, (_, k) => ({
    id: `task_${k + 1}`,
    agent: `subagent-${k + 1}`,
    description: `Area ${k + 1}`,
    prompt: `Read ${files[k % files.length]} and summarise it in one line`,
  }));
  const uses = tasks.map((task) => ({
    type: 'tool_use',
    id: task.id,
    name: 'task',
    input: { description: task.description, prompt: task.prompt },
  }));
  at(400, { type: 'model_end', agent: 'parent', call: 1, durationMs: 370, stopReason: 'tool_use' });
  at(400, { type: 'message', agent: 'parent', index: 1, message: { role: 'assistant', content: uses } });

  // Each subagent's own story, as timed events; merged by time below.
  const timed = [];
  tasks.forEach((task, k) => {
    const start = 400 + k * 12;
    const agent = task.agent;
    const push = (ms, event) => timed.push({ ms, order: timed.length, event });
    push(start, { type: 'tool_start', agent: 'parent', id: task.id, name: 'task', input: uses[k].input });
    push(start, {
      type: 'task_start',
      agent: 'parent',
      id: task.id,
      description: task.description,
      prompt: task.prompt,
    });
    push(start, { type: 'worker', worker: agent, phase: 'created' });
    push(start, {
      type: 'spawn',
      agent,
      from: 'parent',
      taskId: task.id,
      description: task.description,
      messages: [{ role: 'user', content: task.prompt }],
    });
    let ms = start + 25;
    push(ms, { type: 'worker', worker: agent, phase: 'ready' });
    const reads = 2 + (k % 3);
    let index = 1;
    for (let call = 1; call <= reads; call++) {
      const id = `${agent}_read_${call}`;
      const path = files[(k + call) % files.length];
      push(ms, { type: 'model_start', agent, call });
      ms += 180 + ((k * 37 + call * 53) % 160);
      const block = { type: 'tool_use', id, name: 'read_file', input: { path } };
      push(ms, { type: 'model_end', agent, call, durationMs: 180, stopReason: 'tool_use' });
      push(ms, { type: 'message', agent, index: index++, message: { role: 'assistant', content: [block] } });
      push(ms, { type: 'tool_start', agent, id, name: 'read_file', input: block.input });
      ms += 2 + (k % 4);
      const content = `# ${path}\n` + 'def f():\n    return 1\n'.repeat(20);
      push(ms, {
        type: 'tool_end',
        agent,
        id,
        name: 'read_file',
        output: content.slice(0, 200),
        durationMs: 2,
      });
      const result = { type: 'tool_result', tool_use_id: id, content };
      push(ms, { type: 'message', agent, index: index++, message: { role: 'user', content: [result] } });
    }
    const summary = `${task.description}: ${files[k % files.length]} holds small helpers, each one line.`;
    push(ms, { type: 'model_start', agent, call: reads + 1 });
    ms += 150 + ((k * 29) % 120);
    push(ms, { type: 'model_end', agent, call: reads + 1, durationMs: 150, stopReason: 'end_turn' });
    const reply = { role: 'assistant', content: [{ type: 'text', text: summary }] };
    push(ms, { type: 'message', agent, index: index++, message: reply });
    push(ms, { type: 'agent_state', agent, state: 'discarded', summary });
    push(ms, { type: 'task_end', agent: 'parent', id: task.id, summary });
    push(ms, {
      type: 'tool_end',
      agent: 'parent',
      id: task.id,
      name: 'task',
      output: summary,
      durationMs: ms - start,
    });
    push(ms + 3, { type: 'worker', worker: agent, phase: 'terminated' });
    task.summary = summary;
  });
  timed.sort((a, b) => a.ms - b.ms || a.order - b.order);
  for (const { ms, event } of timed) at(ms, event);

  const results = tasks.map((task) => ({ type: 'tool_result', tool_use_id: task.id, content: task.summary }));
  at(t, { type: 'message', agent: 'parent', index: 2, message: { role: 'user', content: results } });
  at(t, { type: 'model_start', agent: 'parent', call: 2 });
  const answer = `The ${n} areas, one line each:\n` + tasks.map((task) => `- ${task.summary}`).join('\n');
  at(t + 300, { type: 'model_end', agent: 'parent', call: 2, durationMs: 300, stopReason: 'end_turn' });
  at(t, {
    type: 'message',
    agent: 'parent',
    index: 3,
    message: { role: 'assistant', content: [{ type: 'text', text: answer }] },
  });
  at(t, { type: 'status', status: { kind: 'finished' } });
  return record(prompt, events);
}

/**
 * The shapes that made opening a record quadratic (each event copied all the ones of its kind
 * before it), each under the 25 MB a run file may be: `lines` log lines, or `lines` errors.
 */
export function logRecord(lines, type = 'log') {
  const events = [
    { t: 0, type: 'run', prompt: `${lines} ${type} lines`, settings: SETTINGS },
    { t: 0, type: 'status', status: { kind: 'running' } },
    { t: 0, type: 'message', agent: 'parent', index: 0, message: { role: 'user', content: 'log' } },
  ];
  for (let i = 0; i < lines; i++) {
    const text = `  line ${i}: ${'x'.repeat(40)}`;
    events.push(
      type === 'log'
        ? { t: i, type: 'log', agent: 'parent', line: text }
        : { t: i, type: 'error', agent: 'parent', error: text },
    );
  }
  events.push({ t: lines, type: 'status', status: { kind: 'finished' } });
  return record(`${lines} ${type} lines`, events);
}

/**
 * Two subagents at once streaming `deltas` text deltas between them, interleaved (so that no two
 * deltas in a row go to the same block: none can be joined), in calls of `perCall` deltas each;
 * every call but the last also runs a bash command.
 */
export function textDeltasRecord(deltas, perCall = 1000) {
  const agents = ['subagent-1', 'subagent-2'];
  const events = [];
  // A millisecond every 100 events: a delta's time is as short as it may be written.
  const push = (event) => events.push({ t: Math.floor(events.length / 100), ...event });
  push({ type: 'run', prompt: 'deltas', settings: SETTINGS });
  push({ type: 'status', status: { kind: 'running' } });
  push({ type: 'message', agent: 'parent', index: 0, message: { role: 'user', content: 'deltas' } });
  push({ type: 'model_start', agent: 'parent', call: 1 });
  const uses = agents.map((agent, k) => ({
    type: 'tool_use',
    id: `task_${k}`,
    name: 'task',
    input: { prompt: `part ${k}` },
  }));
  push({ type: 'model_end', agent: 'parent', call: 1, durationMs: 1, stopReason: 'tool_use' });
  push({ type: 'message', agent: 'parent', index: 1, message: { role: 'assistant', content: uses } });
  agents.forEach((agent, k) => {
    push({ type: 'tool_start', agent: 'parent', id: uses[k].id, name: 'task', input: uses[k].input });
    push({ type: 'task_start', agent: 'parent', id: uses[k].id, description: agent, prompt: `part ${k}` });
    push({
      type: 'spawn',
      agent,
      from: 'parent',
      taskId: uses[k].id,
      description: agent,
      messages: [{ role: 'user', content: `part ${k}` }],
    });
    push({ type: 'worker', worker: agent, phase: 'ready' });
  });
  const calls = Math.ceil(deltas / 2 / perCall);
  let left = deltas;
  for (let call = 1; call <= calls; call++) {
    const last = call === calls;
    for (const agent of agents) {
      push({ type: 'model_start', agent, call });
      push({
        type: 'stream',
        agent,
        call,
        event: { type: 'block_start', index: 0, block: { type: 'text', text: '' } },
      });
    }
    const n = Math.min(perCall, Math.ceil(left / 2));
    for (let d = 0; d < n; d++) {
      for (const agent of agents) {
        if (left-- <= 0) break;
        push({ type: 'stream', agent, call, event: { type: 'text_delta', index: 0, text: 'a' } });
      }
    }
    agents.forEach((agent, k) => {
      const text = 'a'.repeat(n);
      const id = `${agent}_${call}`;
      const content = last
        ? [{ type: 'text', text }]
        : [
            { type: 'text', text },
            { type: 'tool_use', id, name: 'bash', input: { command: 'ls' } },
          ];
      push({ type: 'model_end', agent, call, durationMs: 1, stopReason: last ? 'end_turn' : 'tool_use' });
      push({ type: 'message', agent, index: 2 * call - 1, message: { role: 'assistant', content } });
      if (last) {
        push({ type: 'agent_state', agent, state: 'discarded', summary: 'done' });
        push({ type: 'task_end', agent: 'parent', id: uses[k].id, summary: 'done' });
        push({
          type: 'tool_end',
          agent: 'parent',
          id: uses[k].id,
          name: 'task',
          output: 'done',
          durationMs: 1,
        });
        return;
      }
      push({ type: 'tool_start', agent, id, name: 'bash', input: { command: 'ls' } });
      push({ type: 'tool_end', agent, id, name: 'bash', output: 'a.py', durationMs: 1 });
      const result = { type: 'tool_result', tool_use_id: id, content: 'a.py' };
      push({ type: 'message', agent, index: 2 * call, message: { role: 'user', content: [result] } });
    });
  }
  const results = uses.map((use) => ({ type: 'tool_result', tool_use_id: use.id, content: 'done' }));
  push({ type: 'message', agent: 'parent', index: 2, message: { role: 'user', content: results } });
  push({ type: 'status', status: { kind: 'finished' } });
  return record(`${deltas} text deltas`, events);
}

/**
 * The parent alone making `calls` tool calls, one per model call (2 messages each: the array a
 * step-through rebuilds grows to 2 * calls + 1 messages), each call's input streamed in one delta.
 */
export function toolCallsRecord(calls) {
  const events = [
    { t: 0, type: 'run', prompt: `${calls} tool calls`, settings: SETTINGS },
    { t: 0, type: 'status', status: { kind: 'running' } },
    { t: 0, type: 'message', agent: 'parent', index: 0, message: { role: 'user', content: 'calls' } },
  ];
  for (let i = 0; i < calls; i++) {
    const call = i + 1;
    const id = `t${i}`;
    const input = { command: `ls ${i}` };
    const t = call;
    events.push({ t, type: 'model_start', agent: 'parent', call });
    const stream = (event) => events.push({ t, type: 'stream', agent: 'parent', call, event });
    stream({ type: 'block_start', index: 0, block: { type: 'tool_use', id, name: 'bash', input: {} } });
    stream({ type: 'input_json_delta', index: 0, partial_json: JSON.stringify(input) });
    events.push({ t, type: 'model_end', agent: 'parent', call, durationMs: 1, stopReason: 'tool_use' });
    const block = { type: 'tool_use', id, name: 'bash', input };
    events.push({
      t,
      type: 'message',
      agent: 'parent',
      index: 2 * i + 1,
      message: { role: 'assistant', content: [block] },
    });
    events.push({ t, type: 'tool_start', agent: 'parent', id, name: 'bash', input });
    events.push({ t, type: 'tool_end', agent: 'parent', id, name: 'bash', output: 'a.py', durationMs: 1 });
    const result = { type: 'tool_result', tool_use_id: id, content: 'a.py' };
    events.push({
      t,
      type: 'message',
      agent: 'parent',
      index: 2 * i + 2,
      message: { role: 'user', content: [result] },
    });
  }
  events.push({ t: calls, type: 'status', status: { kind: 'finished' } });
  return record(`${calls} tool calls`, events);
}

/** The bench's shapes of big records, by name: each under the 25 MB a run file may be. */
export const recordShapes = {
  '150k log lines': () => logRecord(150_000),
  '150k errors': () => logRecord(150_000, 'error'),
  '232k text deltas': () => textDeltasRecord(232_000),
  '20k tool calls': () => toolCallsRecord(20_000),
};
