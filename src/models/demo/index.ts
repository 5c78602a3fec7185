/**
 * The offline demo model: a `ModelClient` that needs no network and no key, for trying the
 * playground before adding one.
 *
 * It is stateless. The parent and every subagent run in their own Worker with their own instance,
 * so each answer is decided from the request alone, as a real model decides it:
 *
 *   request.system   "You are a coding subagent ..."  -> act as the subagent, else as the parent
 *   request.tools    no `task` for the parent        -> s02's agent: do the work itself
 *                    `task` for a subagent           -> it may delegate part of the work
 *   request.messages last user text                  -> what to do (the three sample prompts, or
 *                                                       a generic exploration for anything else);
 *                                                       a forked subagent's is its task prompt
 *                    tool results after that prompt   -> how far this turn has got, and every fact
 *                                                       the answer is built from
 *
 * It makes real tool calls and derives every statement from what those tools returned, so it
 * follows whatever project is in the sandbox (Python or TypeScript, pytest or unittest, ...).
 * For each kind of prompt, what the parent and the subagent do at each step of a turn:
 *
 *   parent                                   subagent (fresh context, no `task` tool)
 *   ──────                                   ─────────────────────────────────────────
 *   framework: task ─► relay the verdict     list files ─► read deps, config, tests + grep ─► report
 *   summarize: task ─► relay a short list    find *.py ─► read them (batches) ─► one bullet per file
 *     "... in one sentence": relay it          list ─► read every file (batches) ─► one line
 *   create:    task ─► read both files ─►    list ─► read config + a test ─► write module + test
 *              run the test ─► verdict                                      ─► report the paths
 *   other:     task ─► relay + say what      list ─► read README, manifest, entry ─► describe
 *              the demo can and cannot do
 *
 * Without subagents (context mode `none`, no `task` tool) the parent takes the subagent's steps
 * itself, in its own array, and answers from what they returned; forked, a subagent finds its
 * task as the last user text. A subagent allowed to delegate (it has `task`) hands half of the
 * files of a `summarize` task to a subagent of its own.
 *
 * Each loop answers in the language of the prompt it was given (`languageOf`): the parent in the
 * user's, the subagent in that of the task prompt the parent wrote, which is the user's too. The
 * decisions are the same in every language; only the words differ.
 *
 *   the folder          what it does
 *   index.ts            the ModelClient: a plan becomes a response
 *   turn.ts             what a request holds: the prompt, the tool calls and their results
 *   language.ts         which language a prompt is in, which sample prompt it means
 *   parent.ts           the parent's steps: delegate, relay (or work alone)
 *   verify.ts           the parent verifies a created module itself
 *   subagent.ts         the subagent's steps for each kind of prompt
 *   project.ts          reading a listing: files, language, which files to open
 *   testing.ts          the testing framework and its evidence
 *   summaries.ts        what one file does
 *   new-module.ts       where a new module and its test go; templates/ holds their text
 *   module-check.ts     does the test import only what the module defines?
 *   text.ts, words/     its words in each language (words/<lang>.json)
 */
import type { AssistantBlock } from '../../core/messages';
import type { ModelCallOptions, ModelClient, ModelRequest, ModelResponse } from '../../core/model';
import { sleep, streamResponse } from '../stream';
import { callMark, DemoGate } from './gate';
import { planParent } from './parent';
import { planSubagent } from './subagent';
import { answerCodeword, asksCodeword, parentCodeword } from './codeword';
import { textFor } from './say';
import { isSubagentRequest, readTurn, type Plan } from './turn';
import { messageOf } from '../../core/errors';

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomId(prefix: string): string {
  let id = prefix;
  for (let i = 0; i < 22; i++) id += ID_CHARS[Math.floor(Math.random() * ID_CHARS.length)];
  return id;
}

/** The demo's own usage, as a response carries one: never shown (the screen estimates, src/run/tokens.ts). */
function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Turns a plan into a Messages API response with fresh tool_use ids and estimated usage. */
export function toResponse(plan: Plan, request: ModelRequest): ModelResponse {
  const content: AssistantBlock[] = [];
  if (plan.text) content.push({ type: 'text', text: plan.text });
  for (const call of plan.calls ?? []) {
    content.push({ type: 'tool_use', id: randomId('toolu_demo_'), name: call.name, input: call.input });
  }
  if (content.length === 0) content.push({ type: 'text', text: '(no summary)' });
  const calls = plan.calls?.length ?? 0;
  return {
    id: randomId('msg_demo_'),
    model: request.model,
    content,
    stop_reason: calls > 0 ? 'tool_use' : 'end_turn',
    usage: {
      input_tokens: tokens(
        JSON.stringify({ system: request.system, tools: request.tools, messages: request.messages }),
      ),
      output_tokens: tokens(JSON.stringify(content)),
    },
  };
}

/** Decides the next response for a request: the whole of the demo model's "thinking". */
export function demoRespond(request: ModelRequest): ModelResponse {
  const turn = readTurn(request);
  const tools = new Set(request.tools.map((t) => t.name));
  let plan: Plan;
  try {
    const subagent = isSubagentRequest(request);
    // The planted code word (./codeword.ts): answered from what the request holds, in any mode.
    if (asksCodeword(turn.prompt))
      plan = subagent ? answerCodeword(request, turn) : parentCodeword(request, turn, tools);
    else plan = subagent ? planSubagent(turn, tools) : planParent(turn, tools);
  } catch (error) {
    // The demo must never break a run: a parsing slip becomes an honest final answer.
    plan = { text: textFor(turn.prompt).failed(messageOf(error)) };
  }
  // Only call tools this loop actually has (a subagent has no `task` unless it may delegate).
  if (plan.calls) plan = { ...plan, calls: plan.calls.filter((c) => tools.has(c.name)) };
  return toResponse(plan, request);
}

export type DemoSpeed = 'instant' | 'normal' | 'slow';

export interface DemoModelOptions {
  /**
   * `instant`: no pauses (tests); `normal`: a small pause per streamed chunk, like typing;
   * `slow`: a pace a person can follow (about 15-20 s for prompt 1), for a class.
   */
  speed?: DemoSpeed;
  /** The presenter's hold (./gate.ts): while it is shut, a call waits until the page lets it go. */
  gate?: Int32Array;
}

/** Milliseconds between streamed chunks at normal speed. */
export const DEMO_CHUNK_DELAY_MS = 20;
/** At slow speed: between streamed chunks, and before each answer (as if the model thought). */
export const DEMO_SLOW_CHUNK_DELAY_MS = 80;
export const DEMO_SLOW_CALL_PAUSE_MS = 1200;

/** The offline demo model (see the file comment). */
export class DemoModel implements ModelClient {
  readonly label = 'demo (scripted)';
  readonly speed: DemoSpeed;
  readonly #gate: DemoGate | undefined;

  constructor(options: DemoModelOptions = {}) {
    this.speed = options.speed ?? 'normal';
    this.#gate = options.gate && new DemoGate(options.gate);
  }

  async createMessage(request: ModelRequest, options: ModelCallOptions = {}): Promise<ModelResponse> {
    await this.#gate?.pass(callMark(request.messages.length, isSubagentRequest(request)), options.signal);
    const response = demoRespond(request);
    if (this.speed === 'slow') await sleep(DEMO_SLOW_CALL_PAUSE_MS, options.signal);
    const delay =
      this.speed === 'instant' ? 0 : this.speed === 'slow' ? DEMO_SLOW_CHUNK_DELAY_MS : DEMO_CHUNK_DELAY_MS;
    return streamResponse(response, options, delay);
  }
}
