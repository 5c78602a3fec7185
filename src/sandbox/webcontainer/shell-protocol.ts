/**
 * The boundary between the page and a WebContainer shell worker, declared once and checked where
 * each message arrives:
 *
 *   page (page/webcontainer-host.ts)                 shell worker (workers/shell/webcontainer-shell.ts)
 *   run(id, request, host), abort(id) ─────────────▶ servedShellWorker: checks them
 *   checkShellOutcome ◀──────────────────────────── the outcome
 *   checkedShellHost: checks each call's arguments ◀── host.fs, describeFs, spawn, cancel
 *   (its answers) ─────────────────────────────────▶ checkedHostAnswers: checks each answer
 *
 * It holds no just-bash: the page imports it without loading the shell. A malformed call fails
 * with a ProtocolError naming the field, and nothing acts on it.
 */
import * as v from 'valibot';
import { checked } from '../../core/schema';

/** Programs handed to WebContainer instead of just-bash. */
export const SPAWNED_COMMANDS = ['node', 'npm', 'npx', 'python3', 'jsh'] as const;

/** The IFileSystem methods the shell calls on the main thread's filesystem. */
export const FS_METHODS = [
  'readFile',
  'readFileBytes',
  'readFileBuffer',
  'writeFile',
  'appendFile',
  'exists',
  'stat',
  'lstat',
  'mkdir',
  'readdir',
  'readdirWithFileTypes',
  'rm',
  'cp',
  'mv',
  'chmod',
  'symlink',
  'link',
  'readlink',
  'realpath',
  'utimes',
] as const;
export type FsMethod = (typeof FS_METHODS)[number];

/** One command to run. */
export interface ShellRequest {
  command: string;
  cwd: string;
  home: string;
  timeoutMs: number;
}

export interface ShellOutcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** A filesystem call's result; an error keeps its `code` (ENOENT…), which a thrown one would lose in transit. */
export type FsReply = { ok: true; value: unknown } | { ok: false; message: string; code?: string };

/** What the main thread offers one exec's shell. */
export interface ShellHost {
  fs(method: FsMethod, args: unknown[]): Promise<FsReply>;
  /**
   * What the filesystem offers, read up front: the methods it has (just-bash checks for the
   * optional ones) and the paths it lists itself (getAllPaths is synchronous).
   */
  describeFs(): Promise<{ methods: FsMethod[]; paths: string[] }>;
  /** Runs a program in WebContainer; `id` names it for `cancel`. */
  spawn(
    id: number,
    name: string,
    args: string[],
    cwd: string,
    env: Record<string, string>,
  ): Promise<ShellOutcome>;
  cancel(id: number): void;
}

/** The shell worker's API; `host` arrives as a Comlink proxy (each call is a message back). */
export interface ShellWorkerApi {
  run(id: number, request: ShellRequest, host: ShellHost): Promise<ShellOutcome>;
  abort(id: number): void;
}

const text = v.string();
const id = v.pipe(v.number(), v.safeInteger('an integer'));
const ShellRequestSchema = v.object({
  command: text,
  cwd: text,
  home: text,
  timeoutMs: v.pipe(v.number(), v.gtValue(0, 'a positive number')),
});
const ShellOutcomeSchema = v.object({
  stdout: text,
  stderr: text,
  exitCode: v.pipe(v.number(), v.integer()),
});
const FsReplySchema = v.variant('ok', [
  v.object({ ok: v.literal(true), value: v.unknown() }),
  v.object({ ok: v.literal(false), message: text, code: v.optional(text) }),
]);
const FsDescriptionSchema = v.object({ methods: v.array(v.picklist(FS_METHODS)), paths: v.array(text) });
const hostProxy = v.custom<ShellHost>(
  // A Comlink proxy is a function whose properties are the remote's methods.
  (value) => typeof value === 'function' || (typeof value === 'object' && value !== null),
  'a host',
);

/** Checks a shell's outcome as it arrives on the page. */
export function checkShellOutcome(value: unknown): ShellOutcome {
  return checked(ShellOutcomeSchema, value, 'shell outcome');
}

/** `api` behind checks of what the page sends the shell worker. */
export function servedShellWorker(api: ShellWorkerApi): ShellWorkerApi {
  return {
    run: async (runId, request, host) =>
      api.run(
        checked(id, runId, 'run: id'),
        checked(ShellRequestSchema, request, 'run: request'),
        checked(hostProxy, host, 'run: host'),
      ),
    abort: (runId) => api.abort(checked(id, runId, 'abort: id')),
  };
}

/** The page's `host` behind checks of each call a shell worker makes on it. */
export function checkedShellHost(host: ShellHost): ShellHost {
  return {
    fs: async (method, args) =>
      host.fs(
        checked(v.picklist(FS_METHODS), method, 'fs: method'),
        checked(v.array(v.unknown()), args, 'fs: args'),
      ),
    describeFs: () => host.describeFs(),
    spawn: async (spawnId, name, args, cwd, env) =>
      host.spawn(
        checked(id, spawnId, 'spawn: id'),
        checked(v.picklist(SPAWNED_COMMANDS), name, 'spawn: name'),
        checked(v.array(text), args, 'spawn: args'),
        checked(text, cwd, 'spawn: cwd'),
        checked(v.record(text, text), env, 'spawn: env'),
      ),
    cancel: (spawnId) => host.cancel(checked(id, spawnId, 'cancel: id')),
  };
}

/** The page's host as a shell worker sees it, each answer checked as it comes back. */
export function checkedHostAnswers(host: ShellHost): ShellHost {
  return {
    fs: async (method, args) => checked(FsReplySchema, await host.fs(method, args), `fs ${method} reply`),
    describeFs: async () => checked(FsDescriptionSchema, await host.describeFs(), 'describeFs reply'),
    spawn: async (...call) => checkShellOutcome(await host.spawn(...call)),
    cancel: (spawnId) => host.cancel(spawnId),
  };
}
