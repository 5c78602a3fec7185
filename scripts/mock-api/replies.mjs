/** What each scenario of the mock API answers, decided from the request as a model would. */
import { readFileSync } from 'node:fs';
import { parseReprBlock } from '../../src/models/trace-repr.js';
import { invalid, thinkingBlocks } from './checks.mjs';

const TRACE_URL = new URL('../../public/traces/s04.json', import.meta.url);

// ---------------------------------------------------------------------------------------------
// mock-s04: a small run of the s04 pattern, decided from the request alone (no server state).

/** The system prompt's text: a string, or text blocks (as a client that caches sends it). */
export const systemText = (body) =>
  typeof body.system === 'string'
    ? body.system
    : Array.isArray(body.system)
      ? body.system.map((block) => (typeof block?.text === 'string' ? block.text : '')).join('')
      : '';

export const isSubagent = (body) => systemText(body).startsWith('You are a coding subagent');

/** A parent given no `task` tool (context mode `none`) does the subagent's work itself. */
export const delegates = (body) =>
  !isSubagent(body) && Array.isArray(body.tools) && body.tools.some((tool) => tool?.name === 'task');

function toolResults(message) {
  return Array.isArray(message?.content) ? message.content.filter((b) => b?.type === 'tool_result') : [];
}

function userText(message) {
  if (typeof message?.content === 'string') return message.content;
  const texts = Array.isArray(message?.content) ? message.content.filter((b) => b?.type === 'text') : [];
  return texts.map((b) => b.text).join('');
}

function resultText(result) {
  if (typeof result?.content === 'string') return result.content;
  return Array.isArray(result?.content) ? result.content.map((b) => b?.text ?? '').join('') : '';
}

/** The file the subagent reads: a well-known one if `ls` showed it, else the first with a dot. */
function pickFile(listing) {
  const names = listing.split(/\s+/).filter(Boolean);
  const known = ['README.md', 'package.json', 'pyproject.toml', 'requirements.txt'];
  return known.find((n) => names.includes(n)) ?? names.find((n) => /\.\w+$/.test(n)) ?? 'README.md';
}

export function s04Reply(body, ids) {
  const last = body.messages[body.messages.length - 1];
  const results = toolResults(last);
  if (delegates(body)) {
    if (results.length === 0) {
      const prompt = userText(last);
      return {
        stop_reason: 'tool_use',
        content: [
          { type: 'text', text: "I'll delegate this to a subagent so that my own context stays small." },
          {
            type: 'tool_use',
            id: ids.next(),
            name: 'task',
            input: {
              description: 'Explore the project',
              prompt: `Explore the project in the current directory to answer: ${prompt}\nList the files, read the most relevant one, then summarize your findings.`,
            },
          },
        ],
      };
    }
    return {
      stop_reason: 'end_turn',
      content: [
        { type: 'text', text: `The subagent reported back:\n\n${resultText(results[0]).slice(0, 600)}` },
      ],
    };
  }
  const turn = body.messages.filter((m) => m.role === 'assistant').length;
  if (turn === 0) {
    return {
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'Let me list the files first.' },
        { type: 'tool_use', id: ids.next(), name: 'bash', input: { command: 'ls' } },
      ],
    };
  }
  if (turn === 1) {
    const file = pickFile(resultText(results[0]));
    return {
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', id: ids.next(), name: 'read_file', input: { path: file, limit: 20 } }],
    };
  }
  // messages: [prompt, bash ls, its result, read_file, its result, ...]
  const listing = resultText(toolResults(body.messages[2])[0]).split(/\s+/).filter(Boolean);
  const read = body.messages[3].content.find?.((b) => b?.type === 'tool_use')?.input?.path ?? 'a file';
  const firstLine = resultText(results[0]).split('\n')[0].slice(0, 120);
  return {
    stop_reason: 'end_turn',
    content: [
      {
        type: 'text',
        text: `Findings: the project has ${listing.length} entries (${listing.slice(0, 12).join(', ')}). ${read} begins with: "${firstLine}".`,
      },
    ],
  };
}

/** mock-parallel: the parent delegates two tasks in ONE response; subagents answer as in mock-s04. */
export function parallelReply(body, ids) {
  if (isSubagent(body)) return s04Reply(body, ids);
  const results = toolResults(body.messages[body.messages.length - 1]);
  if (results.length === 0) {
    const task = (description, prompt) => ({
      type: 'tool_use',
      id: ids.next(),
      name: 'task',
      input: { description, prompt },
    });
    return {
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'Two independent questions: I will ask two subagents at once.' },
        task('survey files', 'List the files of the project and summarize what you find.'),
        task('read the readme', 'List the files, read the README, and summarize it.'),
      ],
    };
  }
  return {
    stop_reason: 'end_turn',
    content: [
      {
        type: 'text',
        text: results.map((r, i) => `Subagent ${i + 1}: ${resultText(r).slice(0, 300)}`).join('\n\n'),
      },
    ],
  };
}

/** mock-fanout: four tasks at once from every agent that has `task`; the others answer at once. */
export function fanoutReply(body, ids) {
  const hasTask = Array.isArray(body.tools) && body.tools.some((tool) => tool?.name === 'task');
  const results = toolResults(body.messages[body.messages.length - 1]);
  if (hasTask && results.length === 0) {
    const task = (n) => ({
      type: 'tool_use',
      id: ids.next(),
      name: 'task',
      input: { description: `part ${n}`, prompt: `Look into part ${n} of the project and report.` },
    });
    return {
      stop_reason: 'tool_use',
      content: [{ type: 'text', text: 'Four parts at once.' }, task(1), task(2), task(3), task(4)],
    };
  }
  const text = results.length ? `All ${results.length} parts reported.` : 'Part looked into: nothing to add.';
  return { stop_reason: 'end_turn', content: [{ type: 'text', text }] };
}

/** mock-drop: the text of the reply that never arrives whole. */
export const DROPPED_TEXT =
  'Let me look at the project first. I will list the files, then read the one that names the test framework.';

/** mock-tool-use-no-block: says it calls a tool, sends none. */
export const TOOL_USE_WITHOUT_BLOCK = {
  stop_reason: 'tool_use',
  content: [{ type: 'text', text: 'I will run a command to look at the project.' }],
};

/** mock-unknown-block: a block of a type that is neither text, tool_use nor thinking. */
export const WITH_UNKNOWN_BLOCK = {
  stop_reason: 'end_turn',
  content: [
    { type: 'text', text: 'Here is my answer, with one more block after this text.' },
    { type: 'mock_annotation', note: 'A block type this client has never seen.' },
  ],
};

/**
 * The replies that end badly: each answers every call of its scenario, so a run's first reply
 * ends that way. Shapes as the API sends them (the SDK's own stream fixtures show a refusal's
 * `stop_details`; a reply cut at max_tokens inside a tool_use ends its input mid-JSON).
 */
export const BAD_ENDINGS = {
  'mock-refusal': {
    stop_reason: 'refusal',
    stop_details: { type: 'refusal', category: null, explanation: null },
    content: [{ type: 'text', text: 'I looked at the request, and I' }],
  },
  'mock-max-tokens': {
    stop_reason: 'max_tokens',
    content: [
      {
        type: 'text',
        text: 'The project keeps its tests in tests/, and the configuration in pyproject.toml names the framework as',
      },
    ],
  },
  'mock-max-tokens-tool': {
    stop_reason: 'max_tokens',
    content: [
      { type: 'text', text: 'I will hand the exploration to a subagent.' },
      // Only `partial_json` reaches a streaming client; the whole input is never sent.
      {
        type: 'tool_use',
        id: 'toolu_mock_cut',
        name: 'task',
        input: {},
        partial_json: '{"description": "Explore the project", "prompt": "List the files and read the one th',
      },
    ],
  },
  'mock-context-window': {
    stop_reason: 'model_context_window_exceeded',
    content: [{ type: 'text', text: 'Reading the files one by one, the first of them' }],
  },
};

/** mock-overloaded-mid-stream: the text that streams before the API's `event: error`. */
export const OVERLOADED_TEXT =
  'Let me look at the project first. I will list the files, then read the one that names the test framework.';

/** Model text that would restyle, cover and impersonate the app if it were rendered as given. */
function spoofText(origin) {
  return [
    'Here is what I found.',
    '<style>button{display:none}</style>',
    '<div style="position:fixed;inset:0;z-index:2147483647;background:#fff">Nothing to see</div>',
    '<p role="status">Finished</p>',
    '<button>Run</button>',
    `<img src="${origin}/pixel.png" alt="">`,
    'End of the report.',
  ].join('\n\n');
}

/** mock-spoof: mock-s04, with the hostile text before the parent's first task call. */
export function spoofReply(body, ids, origin) {
  const reply = s04Reply(body, ids);
  if (isSubagent(body) || reply.stop_reason !== 'tool_use') return reply;
  return { ...reply, content: [{ type: 'text', text: spoofText(origin) }, ...reply.content.slice(1)] };
}

/** mock-shell: one bash call with the prompt as its command, then a short end. */
export function shellReply(body, ids) {
  const last = body.messages[body.messages.length - 1];
  if (toolResults(last).length > 0)
    return { stop_reason: 'end_turn', content: [{ type: 'text', text: 'Ran it.' }] };
  return {
    stop_reason: 'tool_use',
    content: [{ type: 'tool_use', id: ids.next(), name: 'bash', input: { command: userText(last) } }],
  };
}

/** mock-runaway-*: one bash call in the parent, the runaway or a quick one, then a quote of its result. */
export function runawayReply(body, ids, command) {
  const last = body.messages[body.messages.length - 1];
  const results = toolResults(last);
  if (results.length === 0) {
    const runaway = /runaway/i.test(userText(last));
    return {
      stop_reason: 'tool_use',
      content: [
        {
          type: 'tool_use',
          id: ids.next(),
          name: 'bash',
          input: { command: runaway ? command : 'echo ready' },
        },
      ],
    };
  }
  return {
    stop_reason: 'end_turn',
    content: [{ type: 'text', text: `The command said: ${resultText(results[0]).slice(0, 200)}` }],
  };
}

export function withThinking(reply, body) {
  const n = body.messages.filter((m) => m.role === 'assistant').length + 1;
  return {
    ...reply,
    content: [...thinkingBlocks(n, isSubagent(body) ? 'the subtask' : 'the request'), ...reply.content],
  };
}

// ---------------------------------------------------------------------------------------------
// mock-trace: the recorded reference run. Its thinking blocks were written as Python reprs,
// `ThinkingBlock(signature='...', thinking="...", type='thinking')`; they are parsed back.

/** The recorder dumped SDK objects, which adds `caller: null` to tool_use blocks; the API never sent it. */
function apiBlock(block) {
  if (block.type === 'unknown') return parseReprBlock(block.raw);
  if (block.type === 'tool_use' && block.caller === null) {
    const { caller: _caller, ...rest } = block;
    return rest;
  }
  return block;
}

let traceReplies;
function loadTrace() {
  if (!traceReplies) {
    const trace = JSON.parse(readFileSync(TRACE_URL, 'utf8'));
    traceReplies = { parent: [], subagent: [] };
    for (const cycle of trace.cycles) {
      const loop = cycle.request.system.startsWith('You are a coding subagent') ? 'subagent' : 'parent';
      traceReplies[loop].push({
        id: cycle.response.id,
        model: cycle.response.model,
        stop_reason: cycle.response.stop_reason,
        usage: cycle.response.usage,
        content: cycle.response.content.map(apiBlock),
      });
    }
  }
  return traceReplies;
}

export function traceReply(body) {
  const loop = isSubagent(body) ? 'subagent' : 'parent';
  const turn = body.messages.filter((m) => m.role === 'assistant').length;
  const reply = loadTrace()[loop][turn];
  if (!reply) throw invalid(`mock-trace: the recorded run has no ${loop} response #${turn + 1}`);
  return structuredClone(reply);
}
