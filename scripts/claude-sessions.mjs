/**
 * Claude Code sessions made to measure, for the unit tests, the e2e tests and the bench: written
 * record by record in the shape Claude Code keeps its transcripts (one JSON record a line, an
 * assistant reply a content block a line with its `message.id` and usage, tool results as user
 * records, subagents in `<session>/subagents/agent-<id>.jsonl` with a `.meta.json`), with the
 * playground's own small story in them. No one's real transcript is copied here.
 */

const SESSION = '5e55101a-0000-4000-8000-000000000001';
const MODEL = 'claude-sonnet-4-5';
const START = Date.UTC(2026, 0, 5, 9, 0, 0);

/** Writes one agent's records; `at(seconds)` gives their times. */
function transcript({ agentId = null, sidechain = false } = {}) {
  const lines = [];
  let uuid = 0;
  let last = null;
  const base = {
    sessionId: SESSION,
    cwd: '/home/learner/readability',
    version: '2.1.0',
    gitBranch: 'main',
    userType: 'external',
    isSidechain: sidechain,
    ...(agentId ? { agentId } : {}),
  };
  const push = (seconds, record) => {
    const id = `${agentId ?? 'main'}-${++uuid}`;
    lines.push({
      parentUuid: last,
      ...base,
      ...record,
      uuid: id,
      timestamp: new Date(START + seconds * 1000).toISOString(),
    });
    last = id;
    return id;
  };
  let messageNo = 0;
  return {
    lines,
    user(seconds, content, extra = {}) {
      push(seconds, { type: 'user', message: { role: 'user', content }, ...extra });
    },
    /** A reply, a block a line, all with the reply's usage. */
    reply(seconds, blocks, usage, stop = 'end_turn') {
      const id = `msg_${agentId ?? 'main'}_${++messageNo}`;
      blocks.forEach((block, i) =>
        push(seconds + i * 0.01, {
          type: 'assistant',
          requestId: `req_${id}`,
          message: {
            id,
            type: 'message',
            role: 'assistant',
            model: MODEL,
            content: [block],
            stop_reason: i === blocks.length - 1 ? stop : null,
            usage,
          },
        }),
      );
    },
    result(seconds, toolUseId, content, toolUseResult) {
      push(seconds, {
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content }] },
        ...(toolUseResult ? { toolUseResult } : {}),
      });
    },
    other(seconds, record) {
      push(seconds, record);
    },
    text() {
      return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
    },
  };
}

const usage = (input, cacheRead, cacheWrite, output) => ({
  input_tokens: input,
  cache_read_input_tokens: cacheRead,
  cache_creation_input_tokens: cacheWrite,
  output_tokens: output,
  service_tier: 'standard',
});

/** A subagent that reads `files` one by one and reports; `padding` characters of file per read. */
function subagent(agentId, prompt, files, startSeconds, padding = 600, sidechain = true) {
  const t = transcript({ agentId, sidechain });
  let s = startSeconds;
  t.user(s, prompt);
  let context = 3000;
  files.forEach((file, i) => {
    const id = `toolu_${agentId}_${i + 1}`;
    t.reply(
      (s += 1),
      [{ type: 'tool_use', id, name: 'Read', input: { file_path: file } }],
      usage(4, context, 200, 60),
      'tool_use',
    );
    t.result(
      (s += 0.5),
      id,
      `     1\t# ${file}\n${'x = 1  # line of the file\n'.repeat(Math.ceil(padding / 26))}`,
    );
    context += Math.ceil(padding / 4) + 200;
  });
  t.reply(
    (s += 1),
    [{ type: 'text', text: `Summary of ${files.join(', ')}: each defines one function.` }],
    usage(4, context, 100, 40),
  );
  return { transcript: t, end: s };
}

/**
 * A parent and three subagents started by `Agent` calls: two transcripts in `subagents/` (one
 * linked by its meta file, one by the result's `agentId`), the third `missing` unless asked for.
 * Also: a summary and a snapshot record, an MCP tool whose result holds an image.
 */
export function claudeSession({ withThird = false, padding = 600, reads = 2 } = {}) {
  const parent = transcript();
  parent.other(0, {
    type: 'file-history-snapshot',
    messageId: 'snap-1',
    snapshot: { trackedFileBackups: {} },
  });
  parent.user(0.1, 'Look at the three modules and tell me what each does.');
  const calls = [
    { id: 'toolu_agent_a', agentId: 'a1b2c3', description: 'Read module one', files: ['one.py', 'two.py'] },
    {
      id: 'toolu_agent_b',
      agentId: 'b4c5d6',
      description: 'Read module two',
      files: ['three.py', 'four.py'],
    },
    { id: 'toolu_agent_c', agentId: 'c7d8e9', description: 'Read module three', files: ['five.py'] },
  ];
  const more = (files) => Array.from({ length: Math.max(0, reads - files.length) }, (_, i) => `more-${i}.py`);
  for (const call of calls) call.files = [...call.files, ...more(call.files)];
  parent.reply(
    1,
    [
      { type: 'text', text: 'I will hand each module to a subagent.' },
      ...calls.map((c) => ({
        type: 'tool_use',
        id: c.id,
        name: c.id === 'toolu_agent_b' ? 'Task' : 'Agent',
        input: {
          description: c.description,
          prompt: `Read ${c.files.join(' and ')}; say what they do.`,
          subagent_type: 'general-purpose',
        },
      })),
    ],
    usage(3, 0, 9000, 300),
    'tool_use',
  );
  const files = {};
  const subs = calls.map((c, i) =>
    subagent(c.agentId, `Read ${c.files.join(' and ')}; say what they do.`, c.files, 1.2 + i * 0.1, padding),
  );
  let s = Math.max(...subs.map((x) => x.end)) + 0.5;
  calls.forEach((c, i) => {
    const summary = `Summary of ${c.files.join(', ')}: each defines one function.`;
    parent.result(
      s + i * 0.01,
      c.id,
      [
        { type: 'text', text: summary },
        { type: 'text', text: `agentId: ${c.agentId} (for resuming)` },
      ],
      {
        status: 'completed',
        agentId: i === 0 ? undefined : c.agentId,
        content: [{ type: 'text', text: summary }],
        totalTokens: 5000,
      },
    );
  });
  s += 1;
  parent.reply(
    s,
    [
      {
        type: 'tool_use',
        id: 'toolu_mcp_1',
        name: 'mcp__shots__screenshot',
        input: { url: 'http://127.0.0.1:9/page' },
      },
    ],
    usage(3, 9000, 500, 50),
    'tool_use',
  );
  parent.result(s + 0.5, 'toolu_mcp_1', [
    { type: 'text', text: 'Screenshot taken.' },
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo'.repeat(40) } },
    { type: 'image', source: { type: 'url', url: 'http://127.0.0.1:9/remote.png' } },
  ]);
  parent.other(s + 0.6, {
    type: 'system',
    subtype: 'informational',
    content: 'A scheduled wake-up is set for later.',
    level: 'info',
  });
  parent.reply(
    s + 1.5,
    [{ type: 'text', text: 'Modules one to five each define one function.' }],
    usage(3, 9500, 400, 80),
  );
  parent.other(s + 1.6, { type: 'summary', summary: 'Reading the modules', leafUuid: 'main-1' });

  files[`${SESSION}.jsonl`] = parent.text();
  calls.forEach((c, i) => {
    if (i === 2 && !withThird) return;
    const dir = `${SESSION}/subagents`;
    files[`${dir}/agent-${c.agentId}.jsonl`] = subs[i].transcript.text();
    if (i === 0) {
      files[`${dir}/agent-${c.agentId}.meta.json`] = JSON.stringify({
        agentType: 'general-purpose',
        description: c.description,
        toolUseId: c.id,
      });
    }
  });
  return files;
}

/** The older layout: the subagents' records in the parent's file, marked `isSidechain`. */
export function sidechainSession() {
  const files = claudeSession({ withThird: true });
  const lines = [];
  for (const [path, text] of Object.entries(files)) {
    if (!path.endsWith('.jsonl')) continue;
    for (const line of text.trim().split('\n')) {
      const record = JSON.parse(line);
      // Older sessions name no agent: only the chain of parentUuid tells the subagents apart.
      delete record.agentId;
      lines.push(record);
    }
  }
  lines.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  return { [`${SESSION}.jsonl`]: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' };
}

/** A session of about `megabytes` MB: three subagents reading many large files. */
export function bigSession(megabytes = 50) {
  // Three subagents, each `reads` reads of `padding` characters (a read is about padding + 600 bytes).
  const padding = 20_000;
  const reads = Math.floor((megabytes * 1024 * 1024) / 3 / (padding + 1900));
  return claudeSession({ withThird: true, padding, reads });
}

export const SESSION_ID = SESSION;

/**
 * Writes records in the order given, each with its uuid, parent and time: `line(seconds, record)`.
 * For the shapes of Claude Code 2.1 below, where the order of the lines is the point.
 */
function writer(sessionId, { agentId = null, sidechain = false, start = START } = {}) {
  const lines = [];
  let uuid = 0;
  let last = null;
  return {
    line(seconds, record) {
      const id = `${agentId ?? 'p'}-${++uuid}`;
      lines.push({
        parentUuid: last,
        isSidechain: sidechain,
        userType: 'external',
        cwd: '/home/learner/tests-tour',
        sessionId,
        version: '2.1.9',
        gitBranch: 'main',
        ...(agentId ? { agentId } : {}),
        ...record,
        uuid: id,
        timestamp: new Date(start + seconds * 1000).toISOString(),
      });
      last = id;
    },
    text() {
      return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
    },
  };
}

/** One line of a reply: one of its blocks, with the reply's id and its usage so far. */
function replyLine(id, model, block, usage, stop = null) {
  return {
    type: 'assistant',
    requestId: `req_${id}`,
    message: { model, id, type: 'message', role: 'assistant', content: [block], stop_reason: stop, usage },
  };
}

const resultLine = (toolUseId, content, extra = {}, isError = false) => ({
  type: 'user',
  message: {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: toolUseId, content, ...(isError ? { is_error: true } : {}) },
    ],
  },
  ...extra,
});

const progressLine = (toolUseId, parentToolUseId, data) => ({
  type: 'progress',
  toolUseID: toolUseId,
  parentToolUseID: parentToolUseId,
  data,
});

export const INTERLEAVED_ID = '5e55101a-0000-4000-8000-000000000002';

/**
 * A session as Claude Code 2.1 writes it, where the order of the lines matters:
 * - the parent's first reply (one `message.id`) is written a block a line, with a tool's result and
 *   progress records between its lines; its three calls' results come as three user records with
 *   progress between them; every line repeats the usage, the last one with the final output;
 * - its subagent (haiku) is linked only by the progress records that name its `agentId`, and its
 *   two parallel results also come as separate records with progress between them;
 * - a second Task call fails validation (no `prompt`): the tool refuses it, no subagent runs;
 * - the first prompt holds an image; a manual compaction (with its summary, and the
 *   `agent-acompact-*` transcript of the call that wrote it) drops the context, and the next call
 *   goes to another model.
 * Figures: parent calls 4, subagent calls 3 (usage below); 7 model calls in the files.
 */
export function interleavedSession() {
  const SONNET = 'claude-sonnet-4-5-20250929';
  const OPUS = 'claude-opus-4-1-20250805';
  const HAIKU = 'claude-haiku-4-5-20251001';
  const p = writer(INTERLEAVED_ID);
  const u = (input, read, write, output) => ({
    input_tokens: input,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: write,
    output_tokens: output,
    service_tier: 'standard',
  });
  p.line(0, { type: 'queue-operation', operation: 'enqueue', content: 'Where do the tests live?' });
  p.line(0.1, {
    type: 'user',
    message: {
      role: 'user',
      content: [
        {
          type: 'text',
          text: 'Where do the tests live, and what do they check? The screenshot shows the failure.',
        },
        {
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo'.repeat(300) },
        },
      ],
    },
  });
  // Call 1 of the parent: four blocks, seven lines apart.
  const early = u(3, 0, 8000, 20);
  p.line(
    1.0,
    replyLine(
      'msg_p1',
      SONNET,
      { type: 'thinking', thinking: 'Two folders, then a subagent.', signature: 'c2lnLXAx' },
      early,
    ),
  );
  p.line(
    1.1,
    replyLine(
      'msg_p1',
      SONNET,
      { type: 'text', text: 'I will read both test folders and ask a subagent to run them.' },
      early,
    ),
  );
  p.line(
    1.2,
    replyLine(
      'msg_p1',
      SONNET,
      {
        type: 'tool_use',
        id: 'toolu_read_a',
        name: 'Read',
        input: { file_path: '/home/learner/tests-tour/tests/test_a.py' },
      },
      early,
    ),
  );
  p.line(
    1.25,
    progressLine('toolu_read_a', 'toolu_read_a', {
      type: 'hook_progress',
      hookEvent: 'PreToolUse',
      hookName: 'PreToolUse:Read',
    }),
  );
  p.line(
    1.3,
    resultLine('toolu_read_a', '     1\tdef test_a():\n     2\t    assert add(1, 2) == 3\n', {
      toolUseResult: {
        type: 'text',
        file: {
          filePath: '/home/learner/tests-tour/tests/test_a.py',
          content: 'def test_a():\n    assert add(1, 2) == 3\n',
          numLines: 2,
        },
      },
    }),
  );
  p.line(
    1.4,
    replyLine(
      'msg_p1',
      SONNET,
      {
        type: 'tool_use',
        id: 'toolu_write_b',
        name: 'Write',
        input: { file_path: '/home/learner/tests-tour/notes.md', content: '# Tests\n- tests/test_a.py\n' },
      },
      early,
    ),
  );
  p.line(
    1.5,
    replyLine(
      'msg_p1',
      SONNET,
      {
        type: 'tool_use',
        id: 'toolu_task_1',
        name: 'Task',
        input: {
          description: 'Run the tests',
          prompt: 'Run the test suite and report which tests fail.',
          subagent_type: 'general-purpose',
        },
      },
      u(3, 0, 8000, 210),
      'tool_use',
    ),
  );
  p.line(
    1.6,
    progressLine('agent_msg_1', 'toolu_task_1', {
      type: 'agent_progress',
      agentId: 'f00d01',
      prompt: 'Run the test suite and report which tests fail.',
      message: {
        type: 'user',
        message: { role: 'user', content: 'Run the test suite and report which tests fail.' },
      },
    }),
  );
  p.line(
    1.7,
    resultLine('toolu_write_b', 'File created successfully at: /home/learner/tests-tour/notes.md', {
      toolUseResult: {
        type: 'create',
        filePath: '/home/learner/tests-tour/notes.md',
        content: '# Tests\n- tests/test_a.py\n',
      },
    }),
  );
  p.line(
    2.5,
    progressLine('agent_msg_2', 'toolu_task_1', {
      type: 'agent_progress',
      agentId: 'f00d01',
      message: { type: 'assistant', message: { model: HAIKU, content: [] } },
    }),
  );
  p.line(
    6.0,
    resultLine('toolu_task_1', [{ type: 'text', text: 'One test fails: test_b (division by zero).' }], {
      toolUseResult: {
        status: 'completed',
        prompt: 'Run the test suite and report which tests fail.',
        content: [{ type: 'text', text: 'One test fails: test_b (division by zero).' }],
        totalDurationMs: 4400,
        totalTokens: 4300,
        totalToolUseCount: 3,
      },
    }),
  );
  // Call 2: a Task call without its prompt, which the tool refuses.
  p.line(
    6.3,
    replyLine(
      'msg_p2',
      SONNET,
      { type: 'tool_use', id: 'toolu_task_bad', name: 'Task', input: { description: 'Check the fixtures' } },
      u(3, 8000, 1500, 90),
      'tool_use',
    ),
  );
  p.line(
    6.4,
    resultLine(
      'toolu_task_bad',
      '<tool_use_error>InputValidationError: Task failed due to the following issue:\nThe required parameter `prompt` is missing</tool_use_error>',
      {
        toolUseResult:
          'InputValidationError: [\n  {\n    "code": "invalid_type",\n    "path": ["prompt"],\n    "message": "Required"\n  }\n]',
      },
      true,
    ),
  );
  // Call 3: the answer.
  p.line(
    7.0,
    replyLine(
      'msg_p3',
      SONNET,
      { type: 'text', text: 'The tests live in tests/; test_b fails on a division by zero.' },
      u(3, 9500, 300, 120),
      'end_turn',
    ),
  );
  p.line(7.1, { type: 'system', subtype: 'turn_duration', durationMs: 7000, isMeta: false });
  // A manual compaction: the boundary, its summary, then a call to another model.
  p.line(9.0, {
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    level: 'info',
    logicalParentUuid: 'p-14',
    compactMetadata: { trigger: 'manual', preTokens: 9923 },
  });
  p.line(9.1, {
    type: 'user',
    isCompactSummary: true,
    isVisibleInTranscriptOnly: true,
    message: {
      role: 'user',
      content:
        'This session is being continued from a previous conversation. Summary: the tests live in tests/; test_b fails.',
    },
  });
  p.line(9.2, { type: 'user', message: { role: 'user', content: 'Write the fix down in one line.' } });
  p.line(
    10.0,
    replyLine(
      'msg_p4',
      OPUS,
      { type: 'text', text: 'Guard the division in b() against zero.' },
      u(5, 0, 2100, 60),
      'end_turn',
    ),
  );

  // The subagent: no meta file, no agentId in the result; only the progress records name it.
  const s = writer(INTERLEAVED_ID, { agentId: 'f00d01', sidechain: true });
  s.line(1.55, {
    type: 'user',
    message: { role: 'user', content: 'Run the test suite and report which tests fail.' },
  });
  s.line(
    2.0,
    replyLine(
      'msg_s1',
      HAIKU,
      { type: 'tool_use', id: 'toolu_s_glob', name: 'Glob', input: { pattern: 'tests/*.py' } },
      u(4, 0, 3000, 10),
    ),
  );
  s.line(
    2.05,
    progressLine('toolu_s_glob', 'toolu_s_glob', { type: 'hook_progress', hookEvent: 'PreToolUse' }),
  );
  s.line(
    2.1,
    replyLine(
      'msg_s1',
      HAIKU,
      { type: 'tool_use', id: 'toolu_s_bash', name: 'Bash', input: { command: 'python -m pytest -q' } },
      u(4, 0, 3000, 80),
      'tool_use',
    ),
  );
  s.line(2.2, resultLine('toolu_s_glob', 'tests/test_a.py\ntests/test_b.py'));
  s.line(
    2.6,
    progressLine('toolu_s_bash', 'toolu_s_bash', {
      type: 'bash_progress',
      output: '..F',
      elapsedTimeSeconds: 1,
    }),
  );
  s.line(3.0, resultLine('toolu_s_bash', '..F\nFAILED tests/test_b.py::test_b - ZeroDivisionError'));
  s.line(
    3.5,
    replyLine(
      'msg_s2',
      HAIKU,
      {
        type: 'tool_use',
        id: 'toolu_s_read',
        name: 'Read',
        input: { file_path: '/home/learner/tests-tour/tests/test_b.py' },
      },
      u(4, 3000, 400, 50),
      'tool_use',
    ),
  );
  s.line(3.7, resultLine('toolu_s_read', '     1\tdef test_b():\n     2\t    assert b(1, 0) == 0\n'));
  s.line(
    5.0,
    replyLine(
      'msg_s3',
      HAIKU,
      { type: 'text', text: 'One test fails: test_b (division by zero).' },
      u(4, 3400, 600, 120),
      'end_turn',
    ),
  );

  // The call that wrote the compaction's summary.
  const c = writer(INTERLEAVED_ID, { agentId: 'acompact-7e57', sidechain: true });
  c.line(8.0, { type: 'user', message: { role: 'user', content: 'Summarise the conversation so far.' } });
  c.line(
    8.9,
    replyLine(
      'msg_c1',
      SONNET,
      { type: 'text', text: 'Summary: the tests live in tests/; test_b fails.' },
      u(10, 9000, 0, 500),
      'end_turn',
    ),
  );

  // Claude Code's warm-up of an agent type: no call started it, it did no work.
  const w = writer(INTERLEAVED_ID, { agentId: 'a0a0a0', sidechain: true });
  w.line(0.05, { type: 'user', message: { role: 'user', content: 'Warmup' } });
  w.line(0.6, replyLine('msg_w1', HAIKU, { type: 'text', text: 'Ready.' }, u(1200, 0, 0, 5), 'end_turn'));

  const dir = `${INTERLEAVED_ID}/subagents`;
  return {
    [`${INTERLEAVED_ID}.jsonl`]: p.text(),
    [`${dir}/agent-f00d01.jsonl`]: s.text(),
    [`${dir}/agent-acompact-7e57.jsonl`]: c.text(),
    [`${dir}/agent-a0a0a0.jsonl`]: w.text(),
  };
}

export const OLDER_ID = '5e55101a-0000-4000-8000-000000000003';

/**
 * An older session (2.0): the subagents' records in the parent's file, each marked `isSidechain`
 * with its `agentId`, and the parent's result record naming the subagent by a top-level `agentId`.
 * The sidechains' prompts are not the calls' prompts word for word.
 */
export function olderSidechainSession() {
  const MODEL = 'claude-sonnet-4-5-20250929';
  const p = writer(OLDER_ID);
  const u = (read, output) => ({
    input_tokens: 2,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: 100,
    output_tokens: output,
  });
  const lines = [];
  const all = (w) =>
    lines.push(
      ...w
        .text()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    );
  p.line(0, { type: 'user', message: { role: 'user', content: 'Check both packages.' } });
  p.line(
    1,
    replyLine(
      'msg_o1',
      MODEL,
      {
        type: 'tool_use',
        id: 'toolu_o_1',
        name: 'Task',
        input: { description: 'Check alpha', prompt: 'Check package alpha.' },
      },
      u(1000, 30),
    ),
  );
  p.line(
    1.01,
    replyLine(
      'msg_o1',
      MODEL,
      {
        type: 'tool_use',
        id: 'toolu_o_2',
        name: 'Task',
        input: { description: 'Check beta', prompt: 'Check package beta.' },
      },
      u(1000, 60),
      'tool_use',
    ),
  );
  p.line(5, { ...resultLine('toolu_o_1', 'alpha is fine'), agentId: 'e1e2e3' });
  p.line(5.1, { ...resultLine('toolu_o_2', 'beta is fine'), agentId: 'e4e5e6' });
  p.line(6, replyLine('msg_o2', MODEL, { type: 'text', text: 'Both are fine.' }, u(1200, 20), 'end_turn'));
  all(p);
  for (const [agentId, name, at] of [
    ['e1e2e3', 'alpha', 1.5],
    ['e4e5e6', 'beta', 1.6],
  ]) {
    const s = writer(OLDER_ID, { agentId, sidechain: true });
    s.line(at, {
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'text', text: `Check package ${name}.\n\nReport briefly.` }],
      },
    });
    s.line(
      at + 1,
      replyLine(`msg_${agentId}`, MODEL, { type: 'text', text: `${name} is fine` }, u(500, 10), 'end_turn'),
    );
    all(s);
  }
  lines.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  return { [`${OLDER_ID}.jsonl`]: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' };
}

/** A file whose records name no `type`: two say their role, one says nothing of what it is. */
export function untypedSession() {
  const p = writer('5e55101a-0000-4000-8000-000000000004');
  p.line(0, { message: { role: 'user', content: 'Hello there.' } });
  p.line(1, {
    message: {
      role: 'assistant',
      id: 'msg_u1',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'Hello.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 10, output_tokens: 3 },
    },
  });
  p.line(2, { note: 'something else' });
  return { 'untyped.jsonl': p.text() };
}

/**
 * A subagent launched in the background (2.1, `run_in_background`): its call's result comes at
 * once (`async_launched`), the parent's turn ends, and the subagent works on after it; its end is
 * told later in a `<task-notification>` prompt.
 */
export function backgroundSession() {
  const id = '5e55101a-0000-4000-8000-000000000005';
  const MODEL = 'claude-sonnet-4-5-20250929';
  const u = (read, output) => ({
    input_tokens: 3,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: 50,
    output_tokens: output,
  });
  const p = writer(id);
  p.line(0, { type: 'user', message: { role: 'user', content: 'Lint the project in the background.' } });
  p.line(
    1,
    replyLine(
      'msg_b1',
      MODEL,
      {
        type: 'tool_use',
        id: 'toolu_bg',
        name: 'Agent',
        input: {
          description: 'Lint',
          prompt: 'Run the linter and list the warnings.',
          run_in_background: true,
        },
      },
      u(1000, 40),
      'tool_use',
    ),
  );
  p.line(
    1.2,
    resultLine('toolu_bg', 'Async agent launched successfully.\nagentId: b9b9b9', {
      toolUseResult: {
        isAsync: true,
        status: 'async_launched',
        agentId: 'b9b9b9',
        description: 'Lint',
        prompt: 'Run the linter and list the warnings.',
      },
    }),
  );
  p.line(
    2,
    replyLine(
      'msg_b2',
      MODEL,
      { type: 'text', text: 'The linter runs in the background.' },
      u(1100, 20),
      'end_turn',
    ),
  );
  p.line(30, {
    type: 'user',
    message: { role: 'user', content: '<task-notification>Lint finished: two warnings.</task-notification>' },
  });
  p.line(31, replyLine('msg_b3', MODEL, { type: 'text', text: 'Two warnings.' }, u(1200, 10), 'end_turn'));
  const s = writer(id, { agentId: 'b9b9b9', sidechain: true });
  s.line(1.1, { type: 'user', message: { role: 'user', content: 'Run the linter and list the warnings.' } });
  s.line(
    5,
    replyLine(
      'msg_bs1',
      MODEL,
      { type: 'tool_use', id: 'toolu_lint', name: 'Bash', input: { command: 'npx eslint .' } },
      u(500, 30),
      'tool_use',
    ),
  );
  s.line(20, resultLine('toolu_lint', 'two warnings'));
  s.line(29, replyLine('msg_bs2', MODEL, { type: 'text', text: 'Two warnings.' }, u(600, 15), 'end_turn'));
  return { [`${id}.jsonl`]: p.text(), [`${id}/subagents/agent-b9b9b9.jsonl`]: s.text() };
}
