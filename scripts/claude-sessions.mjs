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
