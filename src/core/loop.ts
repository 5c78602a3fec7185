/**
 * The s04 agent loop: one function serves the parent and every subagent.
 *
 *   parent:   messages = [...history, {user: prompt}]      tools = PARENT_TOOLS (with `task`)
 *               │  task(prompt) ─────────────┐
 *               │                            ▼
 *               │              subagent: messages = [{user: prompt}]   (fresh context)
 *               │                        tools = CHILD_TOOLS (no `task`), at most 30 calls
 *               │                        ... works on the SHARED filesystem ...
 *               │  ◄── only its final text ──┘   (its whole array is then thrown away)
 *               ▼
 *   tool_result: "<summary>"
 *
 * The loop is the reference's `while True`: call the model, append its response unchanged, stop
 * unless `stop_reason` is `tool_use`, else run every tool_use in order and append ONE user message
 * with their results. A reply that ends otherwise (a refusal, a cut at max_tokens, a full context
 * window) ends the loop the same way, appended unchanged: a tool_use in it, even one cut in the
 * middle of its input, is never run (docs/real-model.md). (One guard the reference lacks: `tool_use` with no tool_use block also
 * stops, since an empty results message would poison every later request.) A subagent is the same loop with a fresh array, the child tools and a turn
 * cap. Where a subagent runs (here, or in its own Worker) is injected as `runTask`.
 *
 * The teaching variants (./variants.ts) are parameters of the same two functions: `none` gives
 * the parent s02's prompt and no `task`; `fork` starts a child from its caller's history; the
 * limits set the cap, the cut, max_tokens and whether a subagent gets `task` too.
 */
import type { AgentId, AssistantBlock, Message, ToolResultBlock, ToolUseBlock, Usage } from './messages';
import type { ModelClient, ModelRequest, ModelResponse, SentBody, StreamEvent } from './model';
import { ModelCallError, sentBody } from './model';
import {
  CHILD_TOOLS,
  LIMITS,
  PARENT_TOOLS,
  parentSystem,
  subagentSystem,
  TASK_TOOL,
  checkInput,
  type ToolHandler,
  type ToolSchema,
} from './tools';
import {
  forkMessages,
  mayDelegate,
  REFERENCE_LIMITS,
  soloSystem,
  type ContextMode,
  type LoopLimits,
} from './variants';
import { messageOf } from './errors';

/** What a UI or a run log can follow. Every event names the loop it comes from. */
export type LoopEvent =
  | { type: 'message'; agent: AgentId; index: number; message: Message }
  /** `request`: the body sent (SentBody); records made before it was kept have none. */
  | { type: 'model_start'; agent: AgentId; call: number; request?: SentBody }
  | { type: 'stream'; agent: AgentId; call: number; event: StreamEvent }
  | {
      type: 'model_end';
      agent: AgentId;
      call: number;
      durationMs: number;
      usage?: Usage;
      stopReason: string | null;
      /** The model that answered, as the reply named it (absent when the reply named none). */
      model?: string;
    }
  | { type: 'tool_start'; agent: AgentId; id: string; name: string; input: unknown }
  | { type: 'tool_end'; agent: AgentId; id: string; name: string; output: string; durationMs: number }
  | { type: 'task_start'; agent: AgentId; id: string; description: string; prompt: string }
  | { type: 'task_end'; agent: AgentId; id: string; summary: string }
  | { type: 'limit_reached'; agent: AgentId; calls: number }
  | { type: 'log'; agent: AgentId; line: string }
  /** `streamError`: the type of the `error` event the API sent in the middle of the reply. */
  | { type: 'error'; agent: AgentId; error: string; streamError?: string };

export type EventSink = (event: LoopEvent) => void;

/** A `task` call as the parent made it. `description` is for people only, never sent on. */
export interface TaskRequest {
  /** The tool_use id of the `task` call. */
  id: string;
  prompt: string;
  description: string;
  /**
   * In `fork` mode only: the caller's messages before the assistant turn that called `task`. The
   * child starts from them (see `forkMessages`); in s04 it starts from the prompt alone.
   */
  forkFrom?: Message[];
}

/** Runs one subagent and resolves with the only thing that crosses back: its final text. */
export type RunTask = (task: TaskRequest, signal?: AbortSignal) => Promise<string>;

export interface LoopOptions {
  agent: AgentId;
  model: ModelClient;
  modelName: string;
  system: string;
  tools: ToolSchema[];
  handlers: Record<string, ToolHandler>;
  /** The loop appends to this array in place, like the reference. */
  messages: Message[];
  /** At most this many model calls (the subagent's safety limit); unbounded when absent. */
  maxCalls?: number;
  /** Tool results are cut to this many characters (the subagent's 50,000); uncut when absent. */
  resultChars?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  onEvent?: EventSink;
  /** Runs consecutive `task` calls of one response at the same time (results keep call order). */
  concurrentTasks?: boolean;
  /** Emits the reference's console line (`  <first 200 chars>`) after each tool call. */
  logToolOutput?: boolean;
}

export interface LoopResult {
  messages: Message[];
  last: ModelResponse;
  /** `limit` when the call cap ended the loop before the model stopped by itself. */
  ended: 'model' | 'limit';
}

/** The Error thrown when the user stops a run. */
export class StopError extends Error {
  override name = 'AbortError';
  constructor() {
    super('Stopped');
  }
}

function throwIfStopped(signal?: AbortSignal): void {
  if (signal?.aborted) throw new StopError();
}

function isStop(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error instanceof StopError);
}

/** Errors that end the run instead of becoming an `Error: ...` tool result. */
function isFatal(error: unknown): boolean {
  return isStop(error) || error instanceof ModelCallError;
}

/** Runs one tool as the reference does: unknown names and thrown errors become result strings. */
export async function runTool(
  handlers: Record<string, ToolHandler>,
  block: ToolUseBlock,
  agent: AgentId,
  signal?: AbortSignal,
): Promise<string> {
  const handler = Object.hasOwn(handlers, block.name) ? handlers[block.name] : undefined;
  if (!handler) return `Unknown tool: ${block.name}`;
  try {
    return await handler(block.input as Record<string, unknown>, { agent, toolUseId: block.id, signal });
  } catch (error) {
    if (isFatal(error)) throw error;
    return `Error: ${messageOf(error)}`;
  }
}

/** The concatenated text blocks of a response, or `(no summary)` (the subagent's return value). */
export function finalText(response: ModelResponse): string {
  const text = response.content
    .filter((b): b is Extract<AssistantBlock, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('');
  return text || '(no summary)';
}

/** The loop itself: call, append, run tools, append results, until the model stops. */
export async function agentLoop(options: LoopOptions): Promise<LoopResult> {
  const { agent, model, messages, signal } = options;
  const emit: EventSink = options.onEvent ?? (() => {});
  const append = (message: Message) => {
    messages.push(message);
    emit({ type: 'message', agent, index: messages.length - 1, message });
  };

  for (let call = 1; ; call++) {
    throwIfStopped(signal);
    const request: ModelRequest = {
      model: options.modelName,
      system: options.system,
      tools: options.tools,
      messages: structuredClone(messages),
      max_tokens: options.maxTokens ?? LIMITS.maxTokens,
    };
    emit({ type: 'model_start', agent, call, request: sentBody(model, request) });
    const started = performance.now();
    let response: ModelResponse;
    try {
      response = await model.createMessage(request, {
        signal,
        onStream: (event) => emit({ type: 'stream', agent, call, event }),
      });
    } catch (error) {
      if (isStop(error) || signal?.aborted) throw new StopError();
      const failure = error instanceof ModelCallError ? error : new ModelCallError(messageOf(error));
      emit({
        type: 'error',
        agent,
        error: failure.message,
        ...(failure.streamError && { streamError: failure.streamError }),
      });
      throw failure;
    }
    emit({
      type: 'model_end',
      agent,
      call,
      durationMs: performance.now() - started,
      usage: response.usage,
      stopReason: response.stop_reason,
      ...(typeof response.model === 'string' && response.model && { model: response.model }),
    });
    append({ role: 'assistant', content: response.content });

    if (response.stop_reason !== 'tool_use') return { messages, last: response, ended: 'model' };
    if (!response.content.some((b) => b.type === 'tool_use')) {
      // Nothing to answer: an empty user message would be sent with every later call, and the
      // API rejects it. The turn ends as if the model had stopped, and the log says why.
      emit({
        type: 'log',
        agent,
        line: '  (the model sent stop_reason tool_use without a tool_use block: the turn ends here)',
      });
      return { messages, last: response, ended: 'model' };
    }

    const results = await runToolUses(response.content, options, emit);
    append({ role: 'user', content: results });

    if (options.maxCalls !== undefined && call >= options.maxCalls) {
      emit({ type: 'limit_reached', agent, calls: call });
      return { messages, last: response, ended: 'limit' };
    }
  }
}

/** Every tool_use of one response, in order; a run of `task` calls may go at once. */
async function runToolUses(
  content: AssistantBlock[],
  options: LoopOptions,
  emit: EventSink,
): Promise<ToolResultBlock[]> {
  const { agent, handlers, signal } = options;
  const uses = content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
  const outputs: string[] = [];

  const runOne = async (block: ToolUseBlock): Promise<string> => {
    throwIfStopped(signal);
    emit({ type: 'tool_start', agent, id: block.id, name: block.name, input: block.input });
    const started = performance.now();
    const raw = await runTool(handlers, block, agent, signal);
    const output = options.resultChars === undefined ? raw : raw.slice(0, options.resultChars);
    emit({
      type: 'tool_end',
      agent,
      id: block.id,
      name: block.name,
      output,
      durationMs: performance.now() - started,
    });
    return output;
  };

  for (let i = 0; i < uses.length;) {
    let j = i + 1;
    if (options.concurrentTasks && uses[i].name === 'task') {
      while (j < uses.length && uses[j].name === 'task') j++;
    }
    const batch = uses.slice(i, j);
    outputs.push(...(await Promise.all(batch.map(runOne))));
    if (options.logToolOutput) {
      for (let k = i; k < j; k++) emit({ type: 'log', agent, line: `  ${outputs[k].slice(0, 200)}` });
    }
    i = j;
  }

  return uses.map((block, i) => ({ type: 'tool_result', tool_use_id: block.id, content: outputs[i] }));
}

export interface AgentDeps {
  model: ModelClient;
  modelName: string;
  /** The project directory (WORKDIR of the system prompts). */
  workdir: string;
  /** The four base tools (see `baseToolHandlers`). */
  baseHandlers: Record<string, ToolHandler>;
  signal?: AbortSignal;
  onEvent?: EventSink;
  /** The loop limits; the reference's when absent. */
  limits?: LoopLimits;
  /** How the parent's work is split; `isolated` (s04) when absent. */
  context?: ContextMode;
  /** Runs consecutive `task` calls of one response at the same time (results keep call order). */
  concurrentTasks?: boolean;
}

export interface SubagentOptions extends AgentDeps {
  agent: AgentId;
  /** How far below the parent it is: the parent's subagents are at 1 (the default). */
  depth?: number;
  /** In `fork` mode: the caller's messages it starts from (TaskRequest.forkFrom). */
  forkFrom?: Message[];
  /** Where its own `task` calls go, when the limits let it delegate. */
  runTask?: RunTask;
}

/**
 * A subagent: the loop with a fresh array holding only its prompt (or, forked, the caller's
 * history and then its prompt), the child tools and a cap of 30 calls. Only its final text comes
 * back; its messages are dropped with it. Allowed to delegate, it also has `task`.
 */
export async function runSubagent(prompt: string, options: SubagentOptions): Promise<string> {
  const limits = options.limits ?? REFERENCE_LIMITS;
  const depth = options.depth ?? 1;
  const messages: Message[] = options.forkFrom
    ? forkMessages(options.forkFrom, prompt)
    : [{ role: 'user', content: prompt }];
  const delegates = mayDelegate(depth, limits);
  if (delegates && !options.runTask) throw new Error(`${options.agent} may delegate but has no runTask`);
  const { last } = await agentLoop({
    agent: options.agent,
    model: options.model,
    modelName: options.modelName,
    system: subagentSystem(options.workdir),
    tools: delegates ? PARENT_TOOLS : CHILD_TOOLS,
    handlers: delegates
      ? { ...options.baseHandlers, task: taskTool(options.agent, messages, options, options.runTask!) }
      : options.baseHandlers,
    messages,
    maxCalls: limits.subagentMaxCalls,
    resultChars: limits.outputChars,
    maxTokens: limits.maxTokens,
    signal: options.signal,
    onEvent: options.onEvent,
    concurrentTasks: options.concurrentTasks,
  });
  return finalText(last);
}

export interface ParentOptions extends AgentDeps {
  /** The parent's history; the new prompt is appended to it (a follow-up continues it). */
  history: Message[];
  runTask: RunTask;
}

/** Reads a `task` input the way the reference does; the description only labels the task. */
export function taskRequest(id: string, input: Record<string, unknown>): TaskRequest {
  const { prompt, description } = checkInput(TASK_TOOL, input);
  return {
    id,
    prompt: prompt as string,
    description: typeof description === 'string' && description ? description : 'subtask',
  };
}

/**
 * The `task` tool of one loop: logs the reference's line, hands the task to `runTask` and
 * answers with the summary. Forked, the task carries the caller's history up to the turn that
 * called it (that turn is the array's last message while its tools run).
 */
function taskTool(
  agent: AgentId,
  messages: Message[],
  options: Pick<AgentDeps, 'context' | 'onEvent'>,
  runTask: RunTask,
): ToolHandler {
  const emit: EventSink = options.onEvent ?? (() => {});
  return async (input, { toolUseId: id, signal }) => {
    const task = taskRequest(id, input);
    if (options.context === 'fork') task.forkFrom = structuredClone(messages.slice(0, -1));
    emit({ type: 'log', agent, line: `> task (${task.description}): ${task.prompt.slice(0, 80)}` });
    emit({ type: 'task_start', agent, id, description: task.description, prompt: task.prompt });
    const summary = await runTask(task, signal);
    emit({ type: 'task_end', agent, id, summary });
    return summary;
  };
}

/**
 * One prompt to the parent: its loop with the `task` tool wired to `runTask`. In `none` mode it
 * is the reference's previous agent (s02) instead: no `task`, its own system prompt.
 */
export async function parentLoop(prompt: string, options: ParentOptions): Promise<LoopResult> {
  const emit: EventSink = options.onEvent ?? (() => {});
  const messages = options.history;
  messages.push({ role: 'user', content: prompt });
  emit({
    type: 'message',
    agent: 'parent',
    index: messages.length - 1,
    message: messages[messages.length - 1],
  });

  const solo = options.context === 'none';
  return agentLoop({
    agent: 'parent',
    model: options.model,
    modelName: options.modelName,
    system: solo ? soloSystem(options.workdir) : parentSystem(options.workdir),
    tools: solo ? CHILD_TOOLS : PARENT_TOOLS,
    handlers: solo
      ? options.baseHandlers
      : { ...options.baseHandlers, task: taskTool('parent', messages, options, options.runTask) },
    messages,
    maxTokens: (options.limits ?? REFERENCE_LIMITS).maxTokens,
    signal: options.signal,
    onEvent: emit,
    concurrentTasks: options.concurrentTasks,
    logToolOutput: true,
  });
}
