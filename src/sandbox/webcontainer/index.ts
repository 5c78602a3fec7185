/**
 * The WebContainer backend: the same Sandbox as the offline shell (../local), on StackBlitz's
 * WebContainer, where `node`, `npm`, `npx` and `python3` are real programs. This module is loaded
 * only once a WebContainer is up (booting is boot.ts).
 *
 * How bash runs: WebContainer's shell (`jsh`) has no grep, find or sed, and the agents lean on
 * them (`grep -rn pytest .` is how a subagent finds the test framework). So a command does not go
 * to jsh. It runs in just-bash, as on the offline backend, over WebContainer's own files:
 *
 *   exec("grep -rn x . && node -e '…'")
 *     └─ Bash (just-bash, one per exec: its agent, deadline, signal)
 *          ├─ grep, find, sed, cat, >, |, …  builtins, over MountableFs:
 *          │     <workdir> → WebContainerFs (fs.ts) → wc.fs
 *          │     /tmp, HOME → a small in-memory scratch fs; /dev/null → a null device
 *          └─ node, npm, npx, python3, jsh   custom commands → wc.spawn (programs.ts)
 *                output (stdout and stderr mixed, ANSI stripped, capped) comes back as stdout;
 *                at the deadline the process is killed and the exec reports timedOut
 *
 *   the folder            what it does
 *   index.ts              the Sandbox: mount, exec, files, list; wires the rest
 *   boot.ts               boots WebContainer once per page, never forever
 *   fs.ts                 just-bash's filesystem over wc.fs; reports each write
 *   watch-feed.ts         wc.fs.watch events → FileChanges, credited to an agent
 *   programs.ts           the programs one exec spawns: output, deadline, stop
 *   shell.ts              the Bash each exec runs in (a worker in the browser, in-process in tests)
 *   shell-protocol.ts     what the page and the shell worker say to each other
 *   mount-tree.ts         a sample project as WebContainer's mount tree
 *
 * list() does not descend into node_modules (or .git): an `npm install` would otherwise flood
 * the Files view. Where the shell runs: the Bash is built by shell.ts, in a `webcontainer-shell`
 * worker in the browser (its fs calls and program starts come back here as ShellHost calls),
 * in-process in Node tests.
 */
import { Bash, InMemoryFs, MountableFs, defineCommand } from 'just-bash';
import type { FileSystemTree } from '@webcontainer/api';
import type { AgentId } from '../../core/messages';
import { normalize, osError, parentOf, writeText } from '../paths';
import { SHELL_COMMANDS } from '../shell-args';
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
import { bootWebContainer, type BootOptions, type WebContainerLike } from './boot';
import { DevNullFs, WebContainerFs, type Kind, type WebContainerFsState } from './fs';
import { toFileSystemTree, treePaths } from './mount-tree';
import { EXIT_STOPPED, EXIT_TIMED_OUT, SpawnedPrograms } from './programs';
import {
  answerFs,
  describeFs,
  inProcessShell,
  SPAWNED_COMMANDS,
  type ShellHost,
  type ShellOutcome,
  type ShellRunner,
} from './shell';
import { UNLISTED, WatchFeed } from './watch-feed';

export { SPAWNED_COMMANDS } from './shell';
export { toFileSystemTree } from './mount-tree';
export { PROCESS_OUTPUT_CAP, stripAnsi } from './programs';

/** A placeholder for a program, so that just-bash lays out its /bin entry. */
function stub(name: string) {
  return defineCommand(name, async () => ({
    stdout: '',
    stderr: `${name}: not available here\n`,
    exitCode: 127,
  }));
}

/** The WebContainer sandbox: just-bash over WebContainer's files, its programs spawned there. */
export class WebContainerSandbox implements Sandbox, ByteReader {
  readonly kind = 'webcontainer' as const;
  readonly workdir: string;
  readonly home: string;
  readonly #wc: WebContainerLike;
  readonly #state: WebContainerFsState;
  readonly #feed: WatchFeed;
  /** /tmp, HOME and just-bash's /bin: the shell's own scratch space, not WebContainer's. */
  readonly #scratch = new InMemoryFs();
  readonly #devNull = new DevNullFs();
  /** Where the commands' just-bash runs: a worker in the browser, this thread in Node tests. */
  readonly #shell: ShellRunner;
  #disposed = false;

  constructor(wc: WebContainerLike, shell: ShellRunner = inProcessShell()) {
    this.#wc = wc;
    this.#shell = shell;
    this.workdir = normalize(wc.workdir);
    this.home = parentOf(this.workdir);
    this.#state = {
      wc,
      mtimes: new Map(),
      since: new Date(),
      onWrite: (path, agent) => this.#feed.noteWrite(path, agent),
    };
    this.#feed = new WatchFeed(new WebContainerFs(this.#state, 'system'), this.workdir);
  }

  /** Empties the project, mounts `tree` and starts the change feed. */
  async mount(tree: FileSystemTree): Promise<void> {
    const fs = this.#wc.fs;
    const credit = this.#feed.begin('system');
    try {
      for (const name of await fs.readdir('/')) {
        this.#feed.noteWrite(`/${name}`, 'system');
        await fs.rm(`/${name}`, { recursive: true, force: true });
      }
      for (const path of treePaths(tree)) this.#feed.noteWrite(path, 'system');
      await this.#wc.mount(tree);
    } finally {
      this.#feed.end(credit);
    }
    // A Bash over the bare scratch fs lays out /bin, /dev and /proc once; just-bash finds a
    // command through its /bin entry, so the spawned programs get one too.
    new Bash({
      fs: this.#scratch,
      cwd: '/',
      commands: SHELL_COMMANDS,
      customCommands: SPAWNED_COMMANDS.map(stub),
    });
    for (const dir of [this.home, '/tmp']) await this.#scratch.mkdir(dir, { recursive: true });
    this.#feed.start(await this.#walk());
  }

  /** The filesystem one exec (or one file tool call) sees, its writes credited to `agent`. */
  #shellFs(agent: AgentId): MountableFs {
    return new MountableFs({
      base: this.#scratch,
      mounts: [
        { mountPoint: this.workdir, filesystem: new WebContainerFs(this.#state, agent) },
        { mountPoint: '/dev/null', filesystem: this.#devNull },
      ],
    });
  }

  /** Runs one command in its own just-bash, in `workdir`; node, npm, npx, python3 run in WebContainer. */
  async exec(command: string, options: ExecOptions): Promise<ExecResult> {
    if (this.#disposed) throw new Error('The sandbox has been disposed');
    const { timeoutMs, signal, agent = 'user' } = options;
    if (signal?.aborted) return { stdout: '', stderr: '', exitCode: EXIT_STOPPED, timedOut: false };
    const credit = this.#feed.begin(agent);
    const started = Date.now();
    const programs = new SpawnedPrograms(this.#wc, this.workdir, started + timeoutMs, signal);
    const fs = this.#shellFs(agent);
    const stops = new Map<number, AbortController>();
    const stop = (id: number) => {
      const controller = stops.get(id) ?? new AbortController();
      stops.set(id, controller);
      return controller;
    };
    // What the shell may do here: file operations, and starting programs in WebContainer.
    const host: ShellHost = {
      fs: (method, args) => answerFs(fs, method, args),
      describeFs: async () => describeFs(fs),
      spawn: async (id, name, args, cwd, env): Promise<ShellOutcome> => {
        try {
          return await programs.run(name, args, cwd, env, stop(id).signal);
        } finally {
          stops.delete(id);
        }
      },
      cancel: (id) => stop(id).abort(),
    };
    try {
      const result = await this.#shell.run(
        { command, cwd: this.workdir, home: this.home, timeoutMs },
        host,
        signal,
      );
      const elapsed = Date.now() - started;
      if (signal?.aborted) {
        return { stdout: result.stdout, stderr: result.stderr, exitCode: EXIT_STOPPED, timedOut: false };
      }
      const timedOut =
        !!result.hung ||
        programs.timedOut ||
        elapsed >= timeoutMs ||
        (result.exitCode === EXIT_TIMED_OUT && /exceeded (its )?execution deadline/.test(result.stderr));
      return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode, timedOut };
    } finally {
      programs.killAll();
      this.#feed.end(credit);
    }
  }

  /** Reads a text file; a missing path or a folder fails as Python's open() does. */
  async readFile(path: string): Promise<string> {
    const fs = this.#shellFs('user');
    const full = normalize(path);
    try {
      return await fs.readFile(full);
    } catch (error) {
      const stat = await fs.stat(full).catch(() => null);
      if (!stat) throw osError(2, path);
      if (stat.isDirectory) throw osError(21, path);
      throw error;
    }
  }

  async readBytes(path: string, offset: number, length: number): Promise<FileSlice> {
    const fs = this.#shellFs('user');
    const full = normalize(path);
    const stat = await fs.stat(full).catch(() => null);
    if (!stat) throw osError(2, path);
    if (stat.isDirectory) throw osError(21, path);
    // WebContainer's fs has no ranged read; the slice still spares the copy to the viewer.
    return sliceOf(await fs.readFileBuffer(full), offset, length);
  }

  /** Writes a text file and its missing parent folders, as the reference's write_file does. */
  async writeFile(path: string, content: string, agent: AgentId = 'user'): Promise<void> {
    const full = normalize(path);
    const fs = this.#shellFs(agent);
    const credit = this.#feed.begin(agent);
    try {
      await writeText(fs, full, path, content);
    } finally {
      this.#feed.end(credit);
    }
  }

  exists(path: string): Promise<boolean> {
    return this.#shellFs('user').exists(normalize(path));
  }

  /** Every file and folder below `workdir`, sorted by path (node_modules is listed, not entered). */
  async list(): Promise<FileEntry[]> {
    const entries: FileEntry[] = [];
    for (const [path, kind] of await this.#walk()) {
      const size = kind === 'file' ? (await this.#wc.fs.readFile(path)).length : 0;
      entries.push({ path: `${this.workdir}${path}`, type: kind, size });
    }
    return entries;
  }

  /** Every path below the project root (relative, `/src/a.py`), sorted. */
  async #walk(dir = '/'): Promise<Array<[string, Kind]>> {
    const found: Array<[string, Kind]> = [];
    const entries = await this.#wc.fs.readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const path = `${dir === '/' ? '' : dir}/${entry.name}`;
      const kind: Kind = entry.isDirectory() ? 'directory' : 'file';
      found.push([path, kind]);
      if (kind === 'directory' && !UNLISTED.has(entry.name)) found.push(...(await this.#walk(path)));
    }
    return found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  onChange(listener: (change: FileChange) => void): () => void {
    return this.#feed.subscribe(listener);
  }

  /** Resolves once every watch event received so far has been turned into changes (tests). */
  settled(): Promise<void> {
    return this.#feed.settled();
  }

  dispose(): void {
    this.#disposed = true;
    this.#feed.stop();
    this.#shell.dispose();
  }
}

export interface CreateOptions extends BootOptions {
  /** A WebContainer booted already (tests pass a fake); otherwise one is booted. */
  webContainer?: WebContainerLike;
  /** Where commands run (the browser passes a worker: src/page/webcontainer-host.ts); here by default. */
  shell?: ShellRunner;
}

/**
 * Boots WebContainer (once per page; see boot.ts), then replaces its project with
 * `files` (paths relative to the project). Rejects with a sentence when WebContainer cannot start.
 */
export async function create(files: ProjectFiles, options: CreateOptions = {}): Promise<WebContainerSandbox> {
  const tree = toFileSystemTree(files);
  const wc = options.webContainer ?? (await bootWebContainer(options));
  const sandbox = new WebContainerSandbox(wc, options.shell);
  await sandbox.mount(tree);
  return sandbox;
}
