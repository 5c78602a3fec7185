/**
 * The one protocol between the page and its workers, typed on both sides (calls go through
 * Comlink, which turns these interfaces into async RPC).
 *
 *   page ──run(prompt, history)──► parent worker ──runTask(task)──► page
 *                                                                    │ new Worker('subagent-N')
 *                                                                    ▼
 *                                    subagent worker ──run(prompt)── returns only its final text,
 *                                        │                           then the page terminates it
 *                                        └──runTask(task)──► page   (only when subagents may
 *                                                                    delegate: a worker per level)
 *   every agent worker ──MessagePort──► sandbox (one shared filesystem; ../sandbox/protocol.ts)
 *
 * Everything that arrives from another thread is checked here before it is used.
 */
import type { LoopEvent, TaskRequest } from '../../core/loop';
import type { AgentId, Message } from '../../core/messages';
// With its extension: the Vite config loads this file natively (vite-plugins/early-sandbox.ts).
import {
  CONTEXT_MODES,
  LIMIT_RANGES,
  limitProblem,
  type ContextMode,
  type LoopLimits,
} from '../../core/variants.ts';
import { expectString, isRecord, ProtocolError } from '../../core/schema';
import type { ModelConfig } from '../../models/config';
// With its extension, as above.
import { isGateCell } from '../../models/demo/gate.ts';

export { ProtocolError };

export interface AgentSettings {
  model: ModelConfig;
  /** The model id sent in requests. */
  modelName: string;
  /** The sandbox's project directory (WORKDIR of the system prompts). */
  workdir: string;
  bashTimeoutMs: number;
  /** How the parent's work is split (docs/protocol.md, teaching variants). */
  context: ContextMode;
  limits: LoopLimits;
}

/** A timing measured inside a worker, re-recorded on the page's performance timeline. */
export interface TimingEvent {
  type: 'timing';
  agent: AgentId;
  name: string;
  /** Epoch milliseconds (timeOrigin + now), comparable across threads. */
  startEpoch: number;
  durationMs: number;
}

export type WorkerEvent = LoopEvent | TimingEvent;

/**
 * The page's side of a run. The page serves it (Comlink) on a port of its own for that run, and
 * hands the worker the other end (`host` in the APIs below; runtime.ts `hostOn` wraps it). The
 * page closes the port once the run is over, or when it terminates the worker: nothing of a run
 * stays reachable on the page through it, whenever the worker's garbage collector runs.
 */
export interface EventHost {
  /**
   * Events in the order they happened, batched by the worker. `last` marks the batch a worker
   * sends as its run ends, however it ends: events travel on their own port, so the page takes
   * the run's result only once that batch is recorded, and never sees an event after a result.
   * (Awaiting a round trip instead cost a repaint of the busy page on every agent's return.)
   * `times`: when each event happened in the worker (epoch milliseconds), which the record keeps:
   * a page busy drawing the run reads them later, all at once.
   */
  onEvents(events: WorkerEvent[], last?: boolean, times?: number[]): void;
}

/** The page's side of an agent that has `task`: the parent, or a subagent that may delegate. */
export interface TaskHost extends EventHost {
  /**
   * Runs one subagent in its own worker; resolves with its summary only. `handed`: the caller
   * handed the task itself to the worker offered to it (`SubagentWorkerApi.runHanded`), and the
   * page only records it, keeps its turn and ends its worker: the summary it resolves with comes
   * to the caller first on the hand's port.
   */
  runTask(task: TaskRequest, calledAtEpoch: number, handed?: boolean): Promise<string>;
}

export type ParentHost = TaskHost;

export interface ParentRunRequest {
  prompt: string;
  /** The parent's history so far; the worker keeps nothing between runs. */
  history: Message[];
  settings: AgentSettings;
}

export interface SubagentRunRequest {
  agent: AgentId;
  prompt: string;
  /** How far below the parent it is (the parent's subagents are at 1). */
  depth: number;
  /** In `fork` mode (only then): the caller's messages it starts from. */
  forkFrom?: Message[];
  settings: AgentSettings;
}

export interface ParentWorkerApi {
  /**
   * Resolves when the run is over: its messages reached the page as events already. `host`: the
   * port the page serves the run's ParentHost on. `hand`, if given, is a line to a subagent's
   * worker waiting for a task: the run's first `task` call goes down it (as a HandedTask) and its
   * summary comes back on it, not through the page.
   */
  run(request: ParentRunRequest, sandbox: MessagePort, host: MessagePort, hand?: MessagePort): Promise<void>;
}

/** What a caller sends down a hand's port: its task, as it would have sent it to the page. */
export interface HandedTask {
  task: TaskRequest;
}

/** What comes back up a hand's port: the summary, once the subagent has finished. A failure comes through the page. */
export interface HandedSummary {
  summary: string;
}

/** A subagent's run that waits for its task on a hand's port: a run request without the task. */
export type HandedRunRequest = Omit<SubagentRunRequest, 'prompt' | 'forkFrom'>;

/** A subagent worker's answer once it can take its run: its name, and when (its own clock). */
export interface WorkerReady {
  name: string;
  readyAtEpoch: number;
}

export interface SubagentWorkerApi {
  ready(): WorkerReady;
  run(request: SubagentRunRequest, sandbox: MessagePort, host: MessagePort): Promise<string>;
  /**
   * Waits on `hand` for a caller's task (a HandedTask), runs it as `run` would and sends the
   * summary back up `hand` as well as to the page; resolves with null, having run nothing, if the
   * offer is withdrawn first (the caller's run ended without a task).
   */
  runHanded(
    request: HandedRunRequest,
    sandbox: MessagePort,
    host: MessagePort,
    hand: MessagePort,
  ): Promise<string | null>;
  /** Withdraws the offer `runHanded` waits on, if no task has come down it yet. */
  withdraw(): void;
}

/** Checks settings that arrive in a worker. */
export function checkSettings(value: unknown): AgentSettings {
  if (!isRecord(value)) throw new ProtocolError('settings: expected an object');
  const model = value.model;
  if (!isRecord(model)) throw new ProtocolError("settings: 'model' must be an object");
  if (model.provider === 'demo') {
    if (model.speed !== 'instant' && model.speed !== 'normal' && model.speed !== 'slow') {
      throw new ProtocolError("settings: demo 'speed' must be 'instant', 'normal' or 'slow'");
    }
    if (model.gate !== undefined && !isGateCell(model.gate)) {
      throw new ProtocolError("settings: demo 'gate' must be one shared Int32 cell");
    }
  } else if (model.provider === 'anthropic') {
    expectString(model, 'apiKey', 'settings.model');
    expectString(model, 'baseURL', 'settings.model');
    expectString(model, 'model', 'settings.model');
    if (model.relayURL !== undefined) expectString(model, 'relayURL', 'settings.model');
    if (model.offerRelay !== undefined && typeof model.offerRelay !== 'boolean') {
      throw new ProtocolError("settings: 'offerRelay' must be a boolean");
    }
    if (model.cache !== undefined && typeof model.cache !== 'boolean') {
      throw new ProtocolError("settings: 'cache' must be a boolean");
    }
    if (model.thinking !== undefined) {
      const budget = isRecord(model.thinking) ? model.thinking.budgetTokens : undefined;
      if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1) {
        throw new ProtocolError("settings: 'thinking.budgetTokens' must be a positive integer");
      }
    }
  } else {
    throw new ProtocolError(`settings: unknown model provider ${JSON.stringify(model.provider)}`);
  }
  expectString(value, 'modelName', 'settings');
  expectString(value, 'workdir', 'settings');
  if (typeof value.bashTimeoutMs !== 'number' || !(value.bashTimeoutMs > 0)) {
    throw new ProtocolError("settings: 'bashTimeoutMs' must be a positive number");
  }
  if (!CONTEXT_MODES.includes(value.context as ContextMode)) {
    throw new ProtocolError(`settings: unknown context mode ${JSON.stringify(value.context)}`);
  }
  const limits = value.limits;
  if (!isRecord(limits)) throw new ProtocolError("settings: 'limits' must be an object");
  for (const key of Object.keys(LIMIT_RANGES) as Array<keyof LoopLimits>) {
    const problem = limitProblem(key, limits[key]);
    if (problem) throw new ProtocolError(`settings.limits: ${problem}`);
  }
  return value as unknown as AgentSettings;
}

function checkMessages(value: unknown, field = 'history', where = 'run'): Message[] {
  if (!Array.isArray(value)) throw new ProtocolError(`${where}: '${field}' must be an array`);
  value.forEach((message, i) => {
    if (!isRecord(message) || (message.role !== 'user' && message.role !== 'assistant')) {
      throw new ProtocolError(`${where}: ${field}[${i}] must be a user or assistant message`);
    }
    if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
      throw new ProtocolError(`${where}: ${field}[${i}].content must be a string or an array of blocks`);
    }
  });
  return value as Message[];
}

/** Checks a parent run request as it arrives in the parent worker. */
export function checkParentRun(value: unknown): ParentRunRequest {
  if (!isRecord(value)) throw new ProtocolError('run: expected an object');
  const prompt = expectString(value, 'prompt', 'run');
  if (!prompt.trim()) throw new ProtocolError('run: the prompt is empty');
  return { prompt, history: checkMessages(value.history), settings: checkSettings(value.settings) };
}

/** Checks a subagent run request as it arrives in a subagent worker. */
export function checkSubagentRun(value: unknown): SubagentRunRequest {
  if (!isRecord(value)) throw new ProtocolError('run: expected an object');
  const agent = expectString(value, 'agent', 'run');
  if (!/^subagent-\d+$/.test(agent)) throw new ProtocolError(`run: '${agent}' is not a subagent name`);
  const prompt = expectString(value, 'prompt', 'run');
  const settings = checkSettings(value.settings);
  const { depth } = value;
  // The deepest subagent sits one level below the last that may delegate.
  const deepest = settings.limits.delegationDepth + 1;
  if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 1 || depth > deepest) {
    throw new ProtocolError(`run: 'depth' must be an integer from 1 to ${deepest}`);
  }
  const fork = settings.context === 'fork';
  if (fork !== (value.forkFrom !== undefined)) {
    throw new ProtocolError(
      fork ? "run: a forked subagent needs 'forkFrom'" : "run: 'forkFrom' is given only in fork mode",
    );
  }
  return {
    agent,
    prompt,
    depth,
    ...(fork ? { forkFrom: checkMessages(value.forkFrom, 'forkFrom') } : {}),
    settings,
  };
}

const EVENT_TYPES = new Set([
  'message',
  'model_start',
  'stream',
  'model_end',
  'tool_start',
  'tool_end',
  'task_start',
  'task_end',
  'limit_reached',
  'log',
  'error',
  'timing',
]);

/** Checks an event as it arrives on the page from a worker. */
export function checkEvent(value: unknown): WorkerEvent {
  if (!isRecord(value) || typeof value.type !== 'string' || !EVENT_TYPES.has(value.type)) {
    throw new ProtocolError(`event: unknown event ${JSON.stringify(isRecord(value) ? value.type : value)}`);
  }
  if (typeof value.agent !== 'string')
    throw new ProtocolError(`event ${value.type}: 'agent' must be a string`);
  if (value.type === 'message' && (typeof value.index !== 'number' || !isRecord(value.message))) {
    throw new ProtocolError("event message: needs 'index' and 'message'");
  }
  return value as unknown as WorkerEvent;
}

/** Checks a subagent worker's `ready` answer as it arrives on the page. */
export function checkReady(value: unknown): WorkerReady {
  if (!isRecord(value)) throw new ProtocolError('ready: expected an object');
  const readyAtEpoch = value.readyAtEpoch;
  if (typeof readyAtEpoch !== 'number' || !Number.isFinite(readyAtEpoch))
    throw new ProtocolError("ready: 'readyAtEpoch' must be a finite number");
  return { name: expectString(value, 'name', 'ready'), readyAtEpoch };
}

/** Checks a task request as it arrives on the page from the parent worker. */
export function checkTask(value: unknown): TaskRequest {
  if (!isRecord(value)) throw new ProtocolError('task: expected an object');
  return {
    id: expectString(value, 'id', 'task'),
    prompt: expectString(value, 'prompt', 'task'),
    description: expectString(value, 'description', 'task'),
    ...(value.forkFrom === undefined ? {} : { forkFrom: checkMessages(value.forkFrom, 'forkFrom', 'task') }),
  };
}

/** Checks a task as it arrives down a hand's port in a subagent's worker, from its caller's worker. */
export function checkHandedTask(value: unknown): TaskRequest {
  if (!isRecord(value)) throw new ProtocolError('handed task: expected an object');
  return checkTask(value.task);
}

/** Checks a summary as it arrives up a hand's port, in the caller's worker. */
export function checkHandedSummary(value: unknown): string {
  if (!isRecord(value)) throw new ProtocolError('handed summary: expected an object');
  return checkSummary(value.summary);
}

/** Checks a subagent's summary where it arrives: on the page from its worker, in the parent from the page. */
export function checkSummary(value: unknown): string {
  if (typeof value !== 'string') throw new ProtocolError('summary: expected a string');
  return value;
}

/** Checks a batch of events whole, before any of it is recorded. */
export function checkEvents(value: unknown): WorkerEvent[] {
  if (!Array.isArray(value)) throw new ProtocolError('events: expected an array of events');
  return value.map(checkEvent);
}

/** Checks the times of a batch of `count` events (epoch milliseconds), if it has them. */
export function checkTimes(value: unknown, count: number): number[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length !== count)
    throw new ProtocolError(`events: expected ${count} times, one for each event`);
  for (const time of value) checkEpoch(time, 'events: a time');
  return value as number[];
}

/** Checks a time measured in another thread (epoch milliseconds). */
export function checkEpoch(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new ProtocolError(`${where}: expected a finite number of epoch milliseconds`);
  return value;
}
