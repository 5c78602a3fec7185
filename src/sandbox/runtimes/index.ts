/**
 * `node` and `python3` for the offline shell: just-bash custom commands over language runtimes
 * that load on first use, so the page's first load carries none of them.
 *
 *   node file.js    ─▶ quickjs.ts  QuickJS wasm, in the sandbox worker
 *   python3 file.py ─▶ python-host.ts ─▶ Pyodide (big) in a nested worker `python`
 *
 * Both work on a FileTree copy of the project, HOME and /tmp (tree.ts); what a script changes is
 * written back through the calling agent's AgentFs, so the change feed attributes it like any
 * bash write. Both stop at the exec's deadline and report it as a timeout.
 *
 * The first use of Python takes seconds. When a command visibly starts python3 or node, the
 * runtime is loaded before the shell's clock starts (prepare), so the load does not eat the
 * tool's timeout; progress goes to onProgress listeners and a note to the command's stderr.
 */
import {
  defineCommand,
  type Command,
  type ExecResult,
  type IFileSystem,
  type ResolvedCommandContext as CommandContext,
} from 'just-bash';
import { NODE_USAGE, NODE_VERSION_TEXT, parseNodeArgs } from './node';
import type { EngineProgress } from './pyodide';
import type { PythonHost } from './python-host';
import { PYTHON_USAGE, PYTHON_VERSION, parsePythonArgs } from './python';
import { normalize } from '../paths';
import { applyTreeChanges, diffTrees, FileTree } from './tree';
import { messageOf } from '../../core/errors';

export type RuntimeName = 'node' | 'python';

/** The first load of a runtime, for the screen. */
export interface RuntimeProgress {
  runtime: RuntimeName;
  /** `stopped`: a load started ahead was stopped for a run; the next use loads it. */
  phase: 'loading' | 'ready' | 'failed' | 'stopped';
  /** Bytes downloaded so far, while loading (Python only). */
  loaded?: number;
  /** Bytes to download, as far as known (grows while files start). */
  total?: number;
  /** How long the load took, once ready. */
  elapsedMs?: number;
  /** Why it failed. */
  message?: string;
}

/** What one exec() hands the runtime commands: whose fs, until when, and what they report back. */
export interface RuntimeExec {
  /** The calling agent's view of the shared filesystem: writes are attributed to it. */
  fs: IFileSystem;
  /** Date.now() at which the command is stopped. */
  deadline: number;
  signal?: AbortSignal;
  /** Set by a runtime that stopped its script at the deadline. */
  timedOut: boolean;
}

export interface RuntimeOptions {
  /** The directories a script sees and may change: the project, HOME, /tmp. */
  roots: string[];
  /** Where Python runs; by default a nested worker in browsers, the calling thread in Node. */
  python?: () => Promise<PythonHost>;
}

const ARGV0 = '/usr/local/bin/node';

/** The commands this module adds; the shell finds a command by its stub in /bin and /usr/bin. */
export const RUNTIME_COMMAND_NAMES = ['node', 'nodejs', 'python3', 'python'] as const;

/** A shell word in command position, after a separator or a prefix such as `env`, `time`, `xargs`. */
const COMMAND_POSITION = String.raw`(?:^|[;&|({\n]|\$\(|\x60|\b(?:then|do|else|exec|time|env|nohup|xargs|timeout\s+\S+)\s)\s*(?:\w+=\S*\s+)*(?:\S*/)?`;
const NAMES_PYTHON = new RegExp(`${COMMAND_POSITION}python3?(?=$|[\\s;&|)])`, 'm');
const NAMES_NODE = new RegExp(`${COMMAND_POSITION}(?:node|nodejs)(?=$|[\\s;&|)])`, 'm');

/** Which runtimes a command line starts, as far as a glance at it can tell. */
export function runtimesNamedIn(command: string): { node: boolean; python: boolean } {
  return { node: NAMES_NODE.test(command), python: NAMES_PYTHON.test(command) };
}

let sharedPython: Promise<PythonHost> | undefined;

/** One Python host per thread: Pyodide loads once even when the sandbox is rebuilt. */
function defaultPythonHost(): Promise<PythonHost> {
  // Node's in-process host is for tests only: a production build has no way to it (and no chunk of it).
  sharedPython ??=
    import.meta.env.PROD || typeof Worker === 'function'
      ? import('./python-host').then((m) => new m.WorkerPythonHost())
      : import('./python-inprocess').then((m) => new m.InProcessPythonHost());
  return sharedPython;
}

/** The UTF-8 text of a command's stdin (just-bash passes bytes as a latin1 string). */
function stdinText(ctx: CommandContext): string {
  const raw = ctx.stdin as unknown as string;
  if (!raw) return '';
  return new TextDecoder().decode(Uint8Array.from(raw, (c) => c.charCodeAt(0)));
}

function text(stdout: string, stderr = '', exitCode = 0): ExecResult & { stdoutKind: 'text' } {
  return { stdout, stderr, exitCode, stdoutKind: 'text' };
}

/** node and python3 for one sandbox: their commands per exec, their loading, its progress. */
export class LanguageRuntimes {
  readonly #listeners = new Set<(progress: RuntimeProgress) => void>();
  readonly #roots: string[];
  readonly #pythonHost: () => Promise<PythonHost>;
  #pythonLoading: Promise<boolean> | undefined;
  #pythonLoads = 0;
  #quickjs: Promise<typeof import('./quickjs')> | undefined;

  constructor(options: RuntimeOptions) {
    this.#roots = options.roots.map(normalize);
    this.#pythonHost = options.python ?? defaultPythonHost;
  }

  /** Subscribes to load progress; returns the unsubscribe function. */
  onProgress(listener: (progress: RuntimeProgress) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(progress: RuntimeProgress): void {
    for (const listener of this.#listeners) {
      try {
        listener(progress);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  /**
   * Loads the runtimes `command` starts, before its clock runs. Returns the note for its stderr
   * (only on the load that did the work); a failed load is reported by the command itself.
   */
  async prepare(command: string, signal?: AbortSignal): Promise<string> {
    const wanted = runtimesNamedIn(command);
    const notes = await Promise.all([
      wanted.python
        ? this.#loadPython(signal).then(
            (r) => r.note,
            () => '',
          )
        : '',
      wanted.node
        ? this.#loadNode().then(
            () => '',
            () => '',
          )
        : '',
    ]);
    return notes.join('');
  }

  /**
   * Loads a runtime ahead of its first use, as that use would (progress included), so that the
   * first command does not wait for it. A failed load is left for that command to report.
   */
  async preload(runtime: RuntimeName, signal?: AbortSignal): Promise<void> {
    await (runtime === 'python' ? this.#loadPython(signal) : this.#loadNode()).catch(() => {});
  }

  /** The commands for one exec: `node`, `nodejs`, `python3`, `python`. */
  commands(exec: RuntimeExec): Command[] {
    const node = (args: string[], ctx: CommandContext) => this.#node(args, ctx, exec);
    const python = (args: string[], ctx: CommandContext) => this.#runPython(args, ctx, exec);
    return [
      defineCommand('node', node),
      defineCommand('nodejs', node),
      defineCommand('python3', python),
      defineCommand('python', python),
    ];
  }

  dispose(): void {
    this.#listeners.clear();
  }

  #loadNode(): Promise<typeof import('./quickjs')> {
    if (!this.#quickjs) {
      const started = Date.now();
      this.#emit({ runtime: 'node', phase: 'loading' });
      this.#quickjs = import('./quickjs').then(async (quickjs) => {
        await quickjs.loadQuickJS();
        return quickjs;
      });
      this.#quickjs.then(
        () => this.#emit({ runtime: 'node', phase: 'ready', elapsedMs: Date.now() - started }),
        (error) => {
          this.#quickjs = undefined;
          this.#emit({ runtime: 'node', phase: 'failed', message: String(error) });
        },
      );
    }
    return this.#quickjs;
  }

  /**
   * The Python host, loaded; `note` is set for the call that did the load. A host whose worker
   * was terminated (a script that would not stop) loads again here, with progress and a note.
   */
  async #loadPython(signal?: AbortSignal): Promise<{ host: PythonHost; note: string }> {
    const host = await this.#pythonHost();
    if (host.loaded) return { host, note: '' };
    if (this.#pythonLoading) {
      await this.#pythonLoading;
      return { host, note: '' };
    }
    const started = Date.now();
    // The host reports `loading` when it really starts one (not when a stopped script just ends).
    const onProgress = (progress: EngineProgress) => {
      if (progress.phase === 'loading') this.#emit({ runtime: 'python', ...progress });
    };
    this.#pythonLoading = host.load(onProgress, signal);
    let loaded: boolean;
    try {
      loaded = await this.#pythonLoading;
    } catch (error) {
      // A load that was stopped did not fail; the next use loads again.
      this.#emit(
        signal?.aborted
          ? { runtime: 'python', phase: 'stopped' }
          : { runtime: 'python', phase: 'failed', message: String(error) },
      );
      throw error;
    } finally {
      this.#pythonLoading = undefined;
    }
    if (!loaded) return { host, note: '' };
    const elapsedMs = Date.now() - started;
    this.#emit({ runtime: 'python', phase: 'ready', elapsedMs });
    const why = this.#pythonLoads++ === 0 ? 'first use' : 'its interpreter was restarted';
    return {
      host,
      note: `[python3: loading Pyodide (${why})… ready in ${(elapsedMs / 1000).toFixed(1)} s]\n`,
    };
  }

  async #node(args: string[], ctx: CommandContext, exec: RuntimeExec): Promise<ExecResult> {
    const invocation = parseNodeArgs(args);
    if (invocation.kind === 'version') return text(`${NODE_VERSION_TEXT}\n`);
    if (invocation.kind === 'help') return text(NODE_USAGE);
    if (invocation.kind === 'error') return text('', `node: ${invocation.message}\n`, 9);
    let quickjs: typeof import('./quickjs');
    try {
      quickjs = await this.#loadNode();
    } catch (error) {
      return text('', `node: could not load QuickJS: ${error}\n`, 127);
    }
    const input = stdinText(ctx);
    const tree = await FileTree.capture(exec.fs, this.#roots);
    const before = tree.clone();
    const program =
      invocation.kind === 'file'
        ? ({ kind: 'file', path: invocation.path } as const)
        : ({
            kind: 'eval',
            code: invocation.kind === 'eval' ? invocation.code : input,
            print: invocation.kind === 'eval' && invocation.print,
          } as const);
    const argv =
      invocation.kind === 'file'
        ? [ARGV0, invocation.path, ...invocation.args]
        : [ARGV0, ...(invocation.kind === 'stdin' && args.includes('-') ? ['-'] : []), ...invocation.args];
    const result = await quickjs.runNode({
      program,
      argv,
      cwd: ctx.cwd,
      env: { ...(ctx.exportedEnv ?? {}), PWD: ctx.cwd },
      stdin: invocation.kind === 'stdin' ? '' : input,
      tree,
      deadline: exec.deadline,
      signal: exec.signal,
    });
    await applyTreeChanges(exec.fs, diffTrees(before, tree));
    if (result.timedOut) exec.timedOut = true;
    return text(result.stdout, result.stderr, result.exitCode);
  }

  async #runPython(args: string[], ctx: CommandContext, exec: RuntimeExec): Promise<ExecResult> {
    const invocation = parsePythonArgs(args);
    if (invocation.kind === 'version') return text(`Python ${PYTHON_VERSION}\n`);
    if (invocation.kind === 'help') return text(PYTHON_USAGE);
    if (invocation.kind === 'error') {
      const usage = 'usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...';
      return text('', `${invocation.message}\n${usage}\nTry \`python -h' for more information.\n`, 2);
    }
    let loaded: { host: PythonHost; note: string };
    try {
      loaded = await this.#loadPython();
    } catch (error) {
      return text('', `python3: could not load Pyodide: ${messageOf(error)}\n`, 127);
    }
    const input = stdinText(ctx);
    const tree = await FileTree.capture(exec.fs, this.#roots);
    const result = await loaded.host.run(
      {
        mode: invocation.mode,
        target: invocation.mode === 'stdin' ? input : invocation.target,
        args: invocation.args,
        cwd: ctx.cwd,
        env: { LANG: 'C.UTF-8', ...(ctx.exportedEnv ?? {}), PWD: ctx.cwd },
        stdin: invocation.mode === 'stdin' ? '' : input,
        roots: tree.roots,
        entries: tree.entries,
      },
      { deadline: exec.deadline, signal: exec.signal },
    );
    await applyTreeChanges(exec.fs, result.changes);
    if (result.timedOut) exec.timedOut = true;
    const stderr = result.timedOut ? `${result.stderr}python3: stopped at the time limit\n` : result.stderr;
    return text(result.stdout, loaded.note + stderr, result.exitCode);
  }
}
