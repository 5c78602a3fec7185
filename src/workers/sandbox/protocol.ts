/**
 * The sandbox's two boundaries, declared once and checked where each message arrives:
 *
 *   agent worker ──exec, cancel, readFile, writeFile, exists, list──► sandbox on the agent's port
 *                ◄─ExecResult, text, boolean, entries───────────────  (served by ./service.ts,
 *                                                                      in the sandbox worker or on
 *                                                                      the page for WebContainer)
 *   page ──boot, connect, disconnect, watch, watchRuntimes, watchCommands, readFile, readBytes,
 *          list──► sandbox worker
 *        ◄─{workdir, readyAtEpoch}, file change batches, runtime progress, commands begun,
 *          entries, slices──
 *
 * Requests are checked by the side that serves them (`servedSandbox`, `servedSandboxWorker`),
 * answers by the side that asked (`checkedSandbox`, `checkedSandboxWorker`). A bad request or
 * answer fails its call with a ProtocolError naming the field; a bad batch sent to a listener
 * is dropped with a warning. Nothing malformed is acted on.
 */
import * as v from 'valibot';
import { acceptOrWarn, checked, expectString, isRecord, ProtocolError } from '../../core/schema.ts';
import type { AgentId } from '../../core/messages';
import type { RuntimeName, RuntimeProgress } from '../../sandbox/runtimes';
import type { ExecResult, FileChange, FileEntry, FileSlice } from '../../sandbox/sandbox';
import type { SampleName } from '../../sandbox/samples';

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
  exec(request: ExecRequest): Promise<ExecResult>;
  /** Stops the command of request `id`, if it is still running; it then answers with exit code 130. */
  cancel(id: number): void;
  readFile(path: string): Promise<string>;
  writeFile(path: string, content: string, agent: AgentId): Promise<void>;
  exists(path: string): Promise<boolean>;
  list(): Promise<FileEntry[]>;
}

/** A command the sandbox has begun to run (the page marks `sandbox:exec` with it). */
export interface CommandStart {
  agent: AgentId;
  command: string;
  /** When the sandbox began it, by its own thread's clock (epoch milliseconds). */
  atEpoch: number;
}

/** The sandbox worker's answer to `boot`: the project directory, and when it was ready (its clock). */
export interface Booted {
  workdir: string;
  readyAtEpoch?: number;
}

export interface SandboxWorkerApi extends SandboxRemote {
  /**
   * Mounts the sample project (replacing any files) and resolves when tools can run. The first
   * call takes over a boot of the same sample that the worker started on its own (see
   * vite-plugins/early-sandbox.ts). `ahead`: whether the worker loads what the agents will need
   * ahead of their first command (the common commands, ICU's data); false with `ahead=off`
   * (src/page/ahead.ts), for this boot and every later one. True when not given.
   */
  boot(sample: SampleName, ahead?: boolean): Promise<Booted>;
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
  /** Sends each command as the sandbox begins it, before it runs (a runaway one never yields). */
  watchCommands(listener: (start: CommandStart) => void): void;
  /** Loads a runtime ahead of its first use (python3 in idle time: Pyodide takes seconds). */
  preloadRuntime(runtime: RuntimeName): Promise<void>;
  /** Stops a load `preloadRuntime` started and that is still going (a run has started). */
  cancelPreload(): void;
}

/**
 * The message the page's first inline script posts to the sandbox worker right after creating it
 * (vite-plugins/early-sandbox.ts), with the page's query string: the worker then mounts that page's
 * sample on its own, without waiting for the app's bundle to call `boot`.
 */
export const EARLY_BOOT_MESSAGE = 's04:early-boot';

export interface EarlyBoot {
  type: typeof EARLY_BOOT_MESSAGE;
  /** The page's `location.search`. */
  search: string;
}

export function isEarlyBoot(value: unknown): value is EarlyBoot {
  return v.is(v.object({ type: v.literal(EARLY_BOOT_MESSAGE), search: v.string() }), value);
}

// ---- the schemas ----------------------------------------------------------------------------

// Not samples.ts's SAMPLE_NAMES: that module bundles the samples, and vite-plugins/early-sandbox.ts
// (run by Vite's config in Node) imports this one.
const SAMPLES = ['python', 'typescript'] as const satisfies readonly SampleName[];
const text = v.string();
const id = v.pipe(v.number(), v.safeInteger('an integer'));
const count = v.pipe(v.number(), v.safeInteger('an integer'), v.minValue(0, 'not negative'));
const path = v.pipe(text, v.startsWith('/', 'an absolute path'));
/** Who made a change: an agent, or the learner (`user`) or set-up (`system`). */
const author = v.pipe(text, v.nonEmpty('an agent name'));
const sharedCell = v.custom<Int32Array>(
  (value) =>
    typeof SharedArrayBuffer === 'function' &&
    value instanceof Int32Array &&
    value.buffer instanceof SharedArrayBuffer &&
    value.length >= 1,
  'an Int32Array over shared memory',
);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any listener; its calls are checked where they arrive
const callback = v.custom<(...args: any[]) => void>(
  // A Comlink proxy is a function too.
  (value) => typeof value === 'function',
  'a function',
);

export const ExecResultSchema = v.object({
  stdout: text,
  stderr: text,
  exitCode: v.pipe(v.number(), v.integer('an integer')),
  timedOut: v.boolean(),
});

const FileEntrySchema = v.object({ path, type: v.picklist(['file', 'directory']), size: count });
const FileEntriesSchema = v.array(FileEntrySchema);

const FileChangeSchema = v.object({ path, kind: v.picklist(['create', 'modify', 'delete']), agent: author });
const FileChangesSchema = v.array(FileChangeSchema);

const RuntimeProgressSchema = v.object({
  runtime: v.picklist(['node', 'python']),
  phase: v.picklist(['loading', 'ready', 'failed', 'stopped']),
  loaded: v.optional(count),
  total: v.optional(count),
  elapsedMs: v.optional(v.pipe(v.number(), v.finite())),
  message: v.optional(text),
});

const CommandStartSchema = v.object({
  agent: author,
  command: text,
  atEpoch: v.pipe(v.number(), v.finite()),
});

const FileSliceSchema = v.object({ size: count, bytes: v.instance(Uint8Array) });
const BootedSchema = v.object({ workdir: path, readyAtEpoch: v.optional(v.pipe(v.number(), v.finite())) });

// ---- checks where the sandbox serves ---------------------------------------------------------

// Hand-written rather than a schema: every command an agent runs goes through it.
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

/** `remote` behind checks of every request an agent worker sends it. */
export function servedSandbox(remote: SandboxRemote): SandboxRemote {
  return {
    exec: async (request) => remote.exec(checkExecRequest(request)),
    cancel: (value) => remote.cancel(checked(id, value, 'cancel: id')),
    readFile: async (value) => remote.readFile(checked(path, value, 'readFile: path')),
    writeFile: async (p, content, agent) =>
      remote.writeFile(
        checked(path, p, 'writeFile: path'),
        checked(text, content, 'writeFile: content'),
        checked(author, agent, 'writeFile: agent'),
      ),
    exists: async (value) => remote.exists(checked(path, value, 'exists: path')),
    list: () => remote.list(),
  };
}

/** `api` behind checks of every request the page sends the sandbox worker. */
export function servedSandboxWorker(api: SandboxWorkerApi): SandboxWorkerApi {
  return {
    ...servedSandbox(api),
    boot: async (sample, ahead) =>
      api.boot(
        checked(v.picklist(SAMPLES), sample, 'boot: sample'),
        checked(v.optional(v.boolean()), ahead, 'boot: ahead'),
      ),
    connect(port, connection, stop) {
      api.connect(
        checked(v.instance(MessagePort), port, 'connect: port'),
        checked(id, connection, 'connect: id'),
        checked(v.optional(sharedCell), stop, 'connect: stop'),
      );
    },
    disconnect: (connection) => api.disconnect(checked(id, connection, 'disconnect: id')),
    watch: (listener) => api.watch(checked(callback, listener, 'watch: listener')),
    watchRuntimes: (listener) => api.watchRuntimes(checked(callback, listener, 'watchRuntimes: listener')),
    watchCommands: (listener) => api.watchCommands(checked(callback, listener, 'watchCommands: listener')),
    preloadRuntime: async (runtime) =>
      api.preloadRuntime(checked(v.picklist(['node', 'python']), runtime, 'preloadRuntime: runtime')),
    cancelPreload: () => api.cancelPreload(),
    readBytes: async (p, offset, length) =>
      api.readBytes(
        checked(path, p, 'readBytes: path'),
        checked(count, offset, 'readBytes: offset'),
        checked(count, length, 'readBytes: length'),
      ),
  };
}

// ---- checks where the answers arrive ---------------------------------------------------------

/** What an agent worker asks of the sandbox, with each answer checked as it comes back. */
export function checkedSandbox(remote: {
  [K in keyof SandboxRemote]: (...args: Parameters<SandboxRemote[K]>) => Promise<unknown>;
}): SandboxRemote {
  return {
    exec: async (request) => checked(ExecResultSchema, await remote.exec(request), 'exec result'),
    cancel: (value) => void remote.cancel(value).catch(() => {}),
    readFile: async (p) => checked(text, await remote.readFile(p), 'readFile result'),
    writeFile: async (p, content, agent) => void (await remote.writeFile(p, content, agent)),
    exists: async (p) => checked(v.boolean(), await remote.exists(p), 'exists result'),
    list: async () => checked(FileEntriesSchema, await remote.list(), 'list result'),
  };
}

/** The listeners the page hands the sandbox worker, dropping (with a warning) what is malformed. */
export function checkedListeners(listeners: {
  changes?: (changes: FileChange[]) => void;
  progress?: (progress: RuntimeProgress) => void;
  commands?: (start: CommandStart) => void;
}): { changes: (raw: unknown) => void; progress: (raw: unknown) => void; commands: (raw: unknown) => void } {
  return {
    changes(raw) {
      const changes = acceptOrWarn(FileChangesSchema, raw, 'file changes');
      if (changes) listeners.changes?.(changes);
    },
    progress(raw) {
      const progress = acceptOrWarn(RuntimeProgressSchema, raw, 'runtime progress');
      if (progress) listeners.progress?.(progress);
    },
    commands(raw) {
      const start = acceptOrWarn(CommandStartSchema, raw, 'command start');
      if (start) listeners.commands?.(start);
    },
  };
}

/** Checks the sandbox worker's answers as they arrive on the page. */
export const sandboxAnswers = {
  boot: (value: unknown): Booted => checked(BootedSchema, value, 'boot result'),
  list: (value: unknown): FileEntry[] => checked(FileEntriesSchema, value, 'list result'),
  readFile: (value: unknown): string => checked(text, value, 'readFile result'),
  readBytes: (value: unknown): FileSlice => checked(FileSliceSchema, value, 'readBytes result'),
};
