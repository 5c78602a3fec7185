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
 *   every agent worker ──MessagePort──► sandbox (one shared filesystem)
 *
 * Everything that arrives from another thread is checked here before it is used.
 */
import type { LoopEvent, TaskRequest } from '../core/loop';
import type { AgentId, Message } from '../core/messages';
// With its extension: the Vite config loads this file natively (build/early-sandbox.ts).
import {
  CONTEXT_MODES,
  LIMIT_RANGES,
  limitProblem,
  type ContextMode,
  type LoopLimits,
} from '../core/variants.ts';
import type { RuntimeProgress } from '../sandbox/runtimes';
import type { ExecResult, FileChange, FileEntry, FileSlice } from '../sandbox/sandbox';
import type { ModelConfig } from '../models/config';
import type { SampleName } from '../sandbox/samples';

export interface AgentSettings {
  model: ModelConfig;
  /** The model id sent in requests. */
  modelName: string;
  /** The sandbox's project directory (WORKDIR of the system prompts). */
  workdir: string;
  bashTimeoutMs: number;
  /** How the parent's work is split (SPEC.md, teaching variants). */
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

/** The page's side of a run, handed to workers as a Comlink proxy. */
export interface EventHost {
  /** Events in the order they happened, batched by the worker. */
  onEvents(events: WorkerEvent[]): void;
  /**
   * Answers once every event sent before it has been handled: events travel on their own port,
   * so a worker awaits this before it returns, and the page never sees an event after a result.
   */
  flush(): void;
}

/** The page's side of an agent that has `task`: the parent, or a subagent that may delegate. */
export interface TaskHost extends EventHost {
  /** Runs one subagent in its own worker; resolves with its summary only. */
  runTask(task: TaskRequest, calledAtEpoch: number): Promise<string>;
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
  ping(): string;
  run(request: ParentRunRequest, sandbox: MessagePort, host: ParentHost): Promise<Message[]>;
}

/** A subagent worker's answer once it can take its run: its name, and when (its own clock). */
export interface WorkerReady {
  name: string;
  readyAtEpoch: number;
}

export interface SubagentWorkerApi {
  ready(): WorkerReady;
  run(request: SubagentRunRequest, sandbox: MessagePort, host: TaskHost): Promise<string>;
}

/** One command, as an agent worker asks the sandbox to run it. */
export interface ExecRequest {
  /** Unique on its port: `cancel(id)` names it. */
  id: number;
  command: string;
  timeoutMs: number;
  agent: AgentId;
  /**
   * Shared memory the caller raises to stop the command (see src/sandbox/stop-signal.ts): the
   * cancel message alone waits until the sandbox's thread is free, which a runaway loop never is.
   */
  stop?: Int32Array;
}

/** What agents may do to the shared sandbox from another thread. */
export interface SandboxRemote {
  workdir(): string;
  exec(request: ExecRequest): Promise<ExecResult>;
  /** Stops the command of request `id`, if it is still running; it then answers with exit code 130. */
  cancel(id: number): void;
  readFile(path: string): Promise<string>;
  writeFile(path: string, content: string, agent: AgentId): Promise<void>;
  exists(path: string): Promise<boolean>;
  list(): Promise<FileEntry[]>;
}

/**
 * The message the page's first inline script posts to the sandbox worker right after creating it
 * (build/early-sandbox.ts), with the page's query string: the worker then mounts that page's
 * sample on its own, without waiting for the app's bundle to call `boot`.
 */
export const EARLY_BOOT_MESSAGE = 's04:early-boot';

export interface EarlyBoot {
  type: typeof EARLY_BOOT_MESSAGE;
  /** The page's `location.search`. */
  search: string;
}

export function isEarlyBoot(value: unknown): value is EarlyBoot {
  return isRecord(value) && value.type === EARLY_BOOT_MESSAGE && typeof value.search === 'string';
}

export interface SandboxWorkerApi extends SandboxRemote {
  /**
   * Mounts the sample project (replacing any files) and resolves when tools can run. The first
   * call takes over a boot of the same sample that the worker started on its own (see
   * build/early-sandbox.ts).
   */
  boot(sample: SampleName): Promise<{ workdir: string; readyAtEpoch?: number }>;
  /**
   * Serves the sandbox on another port (one per agent worker). `stop`, raised by the page, stops
   * every command of this connection even while the sandbox's thread is busy running one.
   */
  connect(port: MessagePort, id: number, stop?: Int32Array): void;
  /** Stops the connection's commands still running and closes its port (the agent is gone). */
  disconnect(id: number): void;
  /** Sends every file change, in batches. */
  watch(listener: (changes: FileChange[]) => void): void;
  /** Part of a file and its size, for the page's file viewer (not for agents: they read text). */
  readBytes(path: string, offset: number, length: number): Promise<FileSlice>;
  /** Sends the first-use loading of node (QuickJS) and python3 (Pyodide), for the screen. */
  watchRuntimes(listener: (progress: RuntimeProgress) => void): void;
}

/** A message from another thread did not have the expected shape. */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function expectString(record: Record<string, unknown>, field: string, where: string): string {
  const value = record[field];
  if (typeof value !== 'string') throw new ProtocolError(`${where}: '${field}' must be a string`);
  return value;
}

/** Checks settings that arrive in a worker. */
export function checkSettings(value: unknown): AgentSettings {
  if (!isRecord(value)) throw new ProtocolError('settings: expected an object');
  const model = value.model;
  if (!isRecord(model)) throw new ProtocolError("settings: 'model' must be an object");
  if (model.provider === 'demo') {
    if (model.speed !== 'instant' && model.speed !== 'normal') {
      throw new ProtocolError("settings: demo 'speed' must be 'instant' or 'normal'");
    }
  } else if (model.provider === 'anthropic') {
    expectString(model, 'apiKey', 'settings.model');
    expectString(model, 'baseURL', 'settings.model');
    expectString(model, 'model', 'settings.model');
    if (model.relayURL !== undefined) expectString(model, 'relayURL', 'settings.model');
    if (model.offerRelay !== undefined && typeof model.offerRelay !== 'boolean') {
      throw new ProtocolError("settings: 'offerRelay' must be a boolean");
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

/** Checks an exec request as it arrives in the sandbox; a bad one fails the call, not the sandbox. */
export function checkExecRequest(value: unknown): ExecRequest {
  if (!isRecord(value)) throw new ProtocolError('exec: expected an object');
  if (typeof value.id !== 'number' || !Number.isSafeInteger(value.id))
    throw new ProtocolError("exec: 'id' must be an integer");
  if (typeof value.timeoutMs !== 'number' || !(value.timeoutMs > 0))
    throw new ProtocolError("exec: 'timeoutMs' must be a positive number");
  const stop = value.stop;
  const shared = typeof SharedArrayBuffer === 'function' && stop instanceof Int32Array;
  if (stop !== undefined && !(shared && stop.buffer instanceof SharedArrayBuffer && stop.length >= 1))
    throw new ProtocolError("exec: 'stop' must be an Int32Array over shared memory");
  return {
    id: value.id,
    command: expectString(value, 'command', 'exec'),
    timeoutMs: value.timeoutMs,
    agent: expectString(value, 'agent', 'exec'),
    stop,
  };
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
