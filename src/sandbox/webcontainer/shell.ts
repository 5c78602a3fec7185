/**
 * The WebContainer backend's shell: just-bash, kept off the page's main thread.
 *
 *   main thread (index.ts)                        shell worker (workers/shell/webcontainer-shell.ts)
 *   WebContainer, its files and spawn             runShell: one Bash per exec, its deadline
 *   ShellHost ◄─────────── fs calls ───────────── RemoteFs (IFileSystem; each call a message)
 *             ◄─────── node, npm, npx, … ───────── custom commands → host.spawn / host.cancel
 *
 * WebContainer must live on the main thread, but a runaway shell loop (`while true; do :; done`)
 * must not freeze the page: the interpreter runs in a worker, and only file operations and
 * program starts cross over. The deadline is enforced in the worker by just-bash's
 * maxExecutionTimeMs; the main thread terminates (and replaces) a worker that does not answer
 * in time. Tests in Node, which has no Web Workers, use `inProcessShell`: the same code without
 * the transport.
 */
import { Bash, defineCommand, type IFileSystem } from 'just-bash';
import { normalize } from '../paths';
import { regexEngine } from '../regex-engine';
import { SHELL_COMMANDS, normalizeGrepArgs, normalizeXargsArgs } from '../shell-args';
import {
  FS_METHODS,
  SPAWNED_COMMANDS,
  type FsMethod,
  type FsReply,
  type ShellHost,
  type ShellOutcome,
  type ShellRequest,
} from './shell-protocol';
import { messageOf } from '../../core/errors';

export {
  FS_METHODS,
  SPAWNED_COMMANDS,
  type FsMethod,
  type FsReply,
  type ShellHost,
  type ShellOutcome,
  type ShellRequest,
};

const EXECUTION_LIMITS = {
  maxCommandCount: 1e12,
  maxLoopIterations: 1e12,
  maxWorkUnits: 1e12,
  maxOutputSize: 512 * 1024 * 1024,
};

/** Runs commands for the WebContainer backend: in a worker in the browser, in-process in tests. */
export interface ShellRunner {
  /** `hung` is set when the shell did not answer by the deadline (plus a grace) and was killed. */
  run(
    request: ShellRequest,
    host: ShellHost,
    signal?: AbortSignal,
  ): Promise<ShellOutcome & { hung?: boolean }>;
  dispose(): void;
}

/** What `fs` offers a remote shell (see ShellHost.describeFs). */
export function describeFs(fs: IFileSystem): { methods: FsMethod[]; paths: string[] } {
  const methods = FS_METHODS.filter(
    (m) => typeof (fs as unknown as Record<string, unknown>)[m] === 'function',
  );
  return { methods, paths: fs.getAllPaths() };
}

/** Answers a filesystem call on the main thread. */
export async function answerFs(fs: IFileSystem, method: FsMethod, args: unknown[]): Promise<FsReply> {
  try {
    const call = (fs as unknown as Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined>)[
      method
    ];
    if (!call) throw Object.assign(new Error(`ENOSYS: ${method} is not supported`), { code: 'ENOSYS' });
    return { ok: true, value: await call.apply(fs, args) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return {
      ok: false,
      message: messageOf(error),
      code: typeof code === 'string' ? code : undefined,
    };
  }
}

/** IFileSystem whose every call is answered by the host (over a MessagePort, or directly). */
class RemoteFs {
  constructor(
    readonly host: ShellHost,
    methods: FsMethod[],
    readonly paths: string[],
  ) {
    for (const method of methods) {
      (this as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
        const reply = await host.fs(method, args);
        if (reply.ok) return reply.value;
        throw Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {});
      };
    }
  }

  resolvePath(base: string, path: string): string {
    return normalize(path.startsWith('/') ? path : `${base}/${path}`);
  }

  getAllPaths(): string[] {
    return this.paths;
  }
}

/** A built-in wrapped so that its arguments are rewritten first (as on the offline backend). */
function rewriting(name: string, rewrite: (args: string[]) => string[]) {
  return defineCommand(name, async (args, ctx) => {
    if (!ctx.origCommand) return { stdout: '', stderr: `${name}: not available\n`, exitCode: 127 };
    return ctx.origCommand(rewrite(args));
  });
}

const REWRITES = [
  rewriting('xargs', normalizeXargsArgs),
  rewriting('grep', normalizeGrepArgs),
  rewriting('egrep', normalizeGrepArgs),
  rewriting('fgrep', normalizeGrepArgs),
];

let spawnIds = 0;

/** Runs one command in its own just-bash over the host's filesystem; the deadline is enforced here. */
export async function runShell(
  request: ShellRequest,
  host: ShellHost,
  signal?: AbortSignal,
): Promise<ShellOutcome> {
  const { methods, paths } = await host.describeFs();
  const fs = new RemoteFs(host, methods, paths) as unknown as IFileSystem;
  const programs = SPAWNED_COMMANDS.map((name) =>
    defineCommand(name, async (args, ctx) => {
      const id = ++spawnIds;
      const onAbort = () => host.cancel(id);
      if (ctx.signal?.aborted) onAbort();
      ctx.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        return await host.spawn(id, name, args, ctx.cwd, { ...(ctx.exportedEnv ?? {}) });
      } finally {
        ctx.signal?.removeEventListener('abort', onAbort);
      }
    }),
  );
  const bash = new Bash({
    fs,
    cwd: request.cwd,
    env: { HOME: request.home, USER: 'user', TMPDIR: '/tmp' },
    commands: SHELL_COMMANDS,
    customCommands: [...REWRITES, ...programs],
    executionLimits: { ...EXECUTION_LIMITS, maxExecutionTimeMs: Math.max(1, request.timeoutMs) },
  });
  await regexEngine();
  const result = await bash.exec(request.command, { signal, cwd: request.cwd });
  return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
}

/** The shell on the calling thread (Node tests: no Web Workers there). */
export function inProcessShell(): ShellRunner {
  return { run: (request, host, signal) => runShell(request, host, signal), dispose: () => {} };
}
