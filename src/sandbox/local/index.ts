/**
 * The offline backend: just-bash (a bash interpreter written in TypeScript) over one in-memory
 * filesystem that every agent shares.
 *
 *   InMemoryFs (one, shared: what a subagent writes, the parent reads)
 *     └─ ChangeFeed    serialises writes, diffs the tree around each one, emits FileChanges
 *          │           (change-feed.ts)
 *          └─ AgentFs  one per exec() / writeFile(): IFileSystem by delegation, knows its agent
 *               │      (agent-fs.ts)
 *               └─ Bash   one per exec(): cheap to build, so each command carries its own
 *                         agent, limits and deadline, and concurrent agents never mix them up
 *                         (here: the Sandbox, its exec, files and list)
 *
 * `node` (QuickJS) and `python3` (Pyodide) are custom commands too, loaded on first use
 * (../runtimes/index.ts).
 *
 * It also smooths over what agents trip on in just-bash: `/dev/null` is a plain file there (here
 * writes to it vanish and it reads empty), `/tmp` is missing, loop limits are low (here the
 * timeout is what stops a runaway command), and an output over `maxOutputSize` loses ALL output
 * (here the cap is huge; the tools cut the text themselves).
 */
import { Bash, InMemoryFs, defineCommand } from 'just-bash';
import type { AgentId } from '../../core/messages';
import {
  LanguageRuntimes,
  RUNTIME_COMMAND_NAMES,
  type RuntimeExec,
  type RuntimeName,
  type RuntimeProgress,
} from '../runtimes';
import type { PythonHost } from '../runtimes/python-host';
import { isWithin, normalize, osError, parentOf, writeText } from '../paths';
import { regexEngine } from '../regex-engine';
import { SHELL_COMMANDS, normalizeGrepArgs, normalizeXargsArgs } from '../shell-args';
import {
  sliceOf,
  type ByteReader,
  type ExecOptions,
  type ExecResult,
  type FileChange,
  type FileEntry,
  type FileSlice,
  type ProjectFiles,
  type Sandbox,
} from '../sandbox';
import { AgentFs } from './agent-fs';
import { ChangeFeed } from './change-feed';

export const DEFAULT_WORKDIR = '/home/user/project';
const HOME = '/home/user';

/**
 * The commands LocalSandbox.warmUp loads ahead: what agents (and the demo model) run most. The
 * first ones, which the sample prompts' first runs call, are loaded all at once; the others one
 * after another.
 */
const WARM_FIRST = ['ls', 'cat', 'find', 'sort', 'grep', 'head'];
const WARM_THEN =
  'tail wc sed awk uniq cut tr xargs echo printf tree diff mkdir touch cp mv rm basename dirname';
/**
 * An agent's first look at a project, rehearsed once on the mounted files after the commands have
 * loaded: a sorted listing, and a search with a regular expression, as the sample prompts' first
 * runs make them. Loading a command compiles little of it: on a fresh page the first run's `find |
 * sort` and `grep -E` compile the shell's interpreter, the commands' code and the
 * regular-expression engine on the sandbox's thread, which a second run does not pay. Read-only: nothing is written, not even /dev/null (a plain file here).
 */
export const REHEARSAL = [
  "find . -type f -not -path '*/node_modules/*' -not -path '*/.git/*' | sort | head -n 3",
  `grep -rn -E "^(import|from) (pytest|unittest)|(vitest|mocha)" --include='*.py' --include='*.ts' . | head -n 3`,
];

/** Exit code of a command stopped by the user, as a shell reports SIGINT. */
const EXIT_STOPPED = 130;

/**
 * Limits for every exec. The deadline (`maxExecutionTimeMs`, set per call) stops runaway shell
 * loops, so the shell's own counters are raised far out of the way. AWK and sed loops are left at
 * just-bash's defaults: they do not look at the deadline, so their counters are what stops them.
 */
const EXECUTION_LIMITS = {
  maxCommandCount: 1e12,
  maxLoopIterations: 1e12,
  maxWorkUnits: 1e12,
  maxOutputSize: 512 * 1024 * 1024,
};

/** A built-in wrapped so that its arguments are rewritten first. */
function rewriting(name: string, rewrite: (args: string[]) => string[]) {
  return defineCommand(name, async (args, ctx) => {
    if (!ctx.origCommand) return { stdout: '', stderr: `${name}: not available\n`, exitCode: 127 };
    return ctx.origCommand(rewrite(args));
  });
}

const CUSTOM_COMMANDS = [
  rewriting('xargs', normalizeXargsArgs),
  rewriting('grep', normalizeGrepArgs),
  rewriting('egrep', normalizeGrepArgs),
  rewriting('fgrep', normalizeGrepArgs),
];

export interface LocalSandboxOptions {
  workdir?: string;
  /** Where `python3` runs; by default a nested worker in browsers, the calling thread in Node. */
  python?: () => Promise<PythonHost>;
}

/** The offline sandbox: a just-bash shell per command over one shared in-memory filesystem. */
export class LocalSandbox implements Sandbox, ByteReader {
  readonly kind = 'local' as const;
  readonly #feed: ChangeFeed;
  readonly #runtimes: LanguageRuntimes;
  #disposed = false;

  constructor(
    fs: InMemoryFs,
    readonly workdir: string,
    options: Pick<LocalSandboxOptions, 'python'> = {},
  ) {
    this.#feed = new ChangeFeed(fs);
    this.#runtimes = new LanguageRuntimes({ roots: [workdir, HOME, '/tmp'], python: options.python });
  }

  /**
   * Loads the commands agents run most, ahead of their first use: in the browser, just-bash
   * loads each command's code the first time it runs, which would slow an agent's first
   * `find | sort`. Each is only asked for --help, then an agent's first look at the project is
   * rehearsed (REHEARSAL), so no file changes. `signal` ends it early
   * (a run that starts needs the thread more): what is loaded stays loaded. Resolves with whether
   * it went through every command.
   */
  async warmUp(signal?: AbortSignal): Promise<boolean> {
    const options = { timeoutMs: 10_000, signal };
    // At once: each command's code is its own chunk, and some import another; one after another,
    // on a slow network a first run would find only the first few loaded.
    // The regular-expression engine comes beside them, not before them: `c --help` uses none.
    const engine = regexEngine();
    const first = await Promise.all(
      WARM_FIRST.map((command) => this.execNow(`${command} --help >/dev/null 2>&1; true`, options)),
    );
    await engine;
    if (signal?.aborted || first.some((result) => result.exitCode !== 0)) return false;
    for (const command of REHEARSAL) {
      // Its output is not kept: only the code it went through matters.
      await this.execNow(command, options);
      if (signal?.aborted) return false;
    }
    const script = `for c in ${WARM_THEN}; do "$c" --help; done >/dev/null 2>&1; true`;
    const result = await this.exec(script, options);
    return result.exitCode === 0;
  }

  /** Runs one command in its own Bash, in `workdir`, attributed to `options.agent`. */
  async exec(command: string, options: ExecOptions): Promise<ExecResult> {
    await regexEngine();
    return this.execNow(command, options);
  }

  /** exec, without waiting for the regular-expression engine: for commands that use none (`ls --help`). */
  async execNow(command: string, options: ExecOptions): Promise<ExecResult> {
    if (this.#disposed) throw new Error('The sandbox has been disposed');
    const { timeoutMs, signal, agent = 'user' } = options;
    if (signal?.aborted) return { stdout: '', stderr: '', exitCode: EXIT_STOPPED, timedOut: false };
    // A runtime's first load (Pyodide: seconds) happens before the clock starts.
    const notes = await this.#runtimes.prepare(command, signal);
    if (signal?.aborted) return { stdout: '', stderr: notes, exitCode: EXIT_STOPPED, timedOut: false };
    const fs = new AgentFs(this.#feed, agent);
    const started = Date.now();
    const runtime: RuntimeExec = { fs, deadline: started + timeoutMs, signal, timedOut: false };
    const bash = new Bash({
      fs,
      cwd: this.workdir,
      env: { HOME, USER: 'user', TMPDIR: '/tmp' },
      commands: SHELL_COMMANDS,
      customCommands: [...CUSTOM_COMMANDS, ...this.#runtimes.commands(runtime)],
      // The deadline is checked inside the interpreter, so it stops even `while true; do :; done`,
      // which never yields to the event loop and so never sees an AbortSignal fire.
      executionLimits: { ...EXECUTION_LIMITS, maxExecutionTimeMs: Math.max(1, timeoutMs) },
    });
    const result = await bash.exec(command, { signal, cwd: this.workdir });
    const elapsed = Date.now() - started;
    const stderr = notes + result.stderr;
    if (signal?.aborted) {
      return { stdout: result.stdout, stderr, exitCode: EXIT_STOPPED, timedOut: false };
    }
    const timedOut =
      runtime.timedOut ||
      elapsed >= timeoutMs ||
      (result.exitCode === 124 && /exceeded (its )?execution deadline/.test(result.stderr));
    return { stdout: result.stdout, stderr, exitCode: result.exitCode, timedOut };
  }

  /** Loads node's or python3's runtime now, ahead of the first command that needs it. */
  preloadRuntime(runtime: RuntimeName, signal?: AbortSignal): Promise<void> {
    return this.#runtimes.preload(runtime, signal);
  }

  /** Reports the first load of `node` (QuickJS) and `python3` (Pyodide), for the screen. */
  onRuntimeProgress(listener: (progress: RuntimeProgress) => void): () => void {
    return this.#runtimes.onProgress(listener);
  }

  /** Reads a text file; a missing path or a directory fails as Python's open() does. */
  async readFile(path: string): Promise<string> {
    const stat = await this.#feed.fs.stat(normalize(path)).catch(() => null);
    if (!stat) throw osError(2, path);
    if (stat.isDirectory) throw osError(21, path);
    return new AgentFs(this.#feed, 'user').readFile(normalize(path));
  }

  async readBytes(path: string, offset: number, length: number): Promise<FileSlice> {
    const stat = await this.#feed.fs.stat(normalize(path)).catch(() => null);
    if (!stat) throw osError(2, path);
    if (stat.isDirectory) throw osError(21, path);
    return sliceOf(await this.#feed.fs.readFileBuffer(normalize(path)), offset, length);
  }

  /** Writes a text file and its missing parent directories, as the reference's write_file does. */
  async writeFile(path: string, content: string, agent: AgentId = 'user'): Promise<void> {
    const full = normalize(path);
    await writeText(new AgentFs(this.#feed, agent), full, path, content);
  }

  exists(path: string): Promise<boolean> {
    return this.#feed.fs.exists(normalize(path));
  }

  /** Every file and directory below `workdir`, sorted by path. */
  async list(): Promise<FileEntry[]> {
    const fs = this.#feed.fs;
    const paths = fs
      .getAllPaths()
      .filter((p) => p.startsWith(`${this.workdir}/`))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const entries: FileEntry[] = [];
    for (const path of paths) {
      const stat = await fs.stat(path).catch(() => fs.lstat(path));
      entries.push({
        path,
        type: stat.isDirectory ? 'directory' : 'file',
        size: stat.isDirectory ? 0 : stat.size,
      });
    }
    return entries;
  }

  onChange(listener: (change: FileChange) => void): () => void {
    return this.#feed.subscribe(listener);
  }

  dispose(): void {
    this.#disposed = true;
    this.#feed.clear();
    this.#runtimes.dispose();
  }
}

/** Mounts `files` (paths relative to the project) in a fresh in-memory filesystem. */
export async function create(files: ProjectFiles, options: LocalSandboxOptions = {}): Promise<LocalSandbox> {
  const workdir = normalize(options.workdir ?? DEFAULT_WORKDIR);
  const fs = new InMemoryFs();
  // A Bash built over the bare InMemoryFs lays out /bin, /usr/bin, /dev and /proc once, and the
  // workdir. Later ones see the fs through AgentFs and leave it alone, so the stubs by which the
  // shell finds node and python3 (registered per exec) are laid out here too.
  const stub = (name: string) => defineCommand(name, async () => ({ stdout: '', stderr: '', exitCode: 0 }));
  new Bash({ fs, cwd: workdir, commands: SHELL_COMMANDS, customCommands: RUNTIME_COMMAND_NAMES.map(stub) });
  for (const dir of [HOME, workdir, '/tmp']) await fs.mkdir(dir, { recursive: true });
  for (const [relative, content] of Object.entries(files)) {
    const path = normalize(`${workdir}/${relative}`);
    if (!isWithin(workdir, path) || path === workdir)
      throw new Error(`Sample path escapes the project: ${relative}`);
    await fs.mkdir(parentOf(path), { recursive: true });
    await fs.writeFile(path, content);
  }
  return new LocalSandbox(fs, workdir, options);
}
