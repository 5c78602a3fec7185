/**
 * The WebContainer backend: the same Sandbox as the offline shell (local.ts), on StackBlitz's
 * WebContainer, where `node`, `npm`, `npx` and `python3` are real programs.
 *
 * How bash runs: WebContainer's shell (`jsh`) has no grep, find or sed, and the agents lean on
 * them (`grep -rn pytest .` is how a subagent finds the test framework). So a command does not go
 * to jsh. It runs in just-bash, as on the offline backend, over WebContainer's own files:
 *
 *   exec("grep -rn x . && node -e '…'")
 *     └─ Bash (just-bash, one per exec: its agent, deadline, signal)
 *          ├─ grep, find, sed, cat, >, |, …  builtins, over MountableFs:
 *          │     <workdir> → WebContainerFs (webcontainer-fs.ts) → wc.fs
 *          │     /tmp, HOME → a small in-memory scratch fs; /dev/null → a null device
 *          └─ node, npm, npx, python3, jsh   custom commands → wc.spawn(name, args, {cwd})
 *                output (stdout and stderr mixed, ANSI stripped, capped) comes back as stdout;
 *                at the deadline the process is killed and the exec reports timedOut
 *
 * The change feed comes from `wc.fs.watch('/', {recursive: true})`, so files a spawned `node`
 * writes show up too. An event is credited to the agent whose write touched that path a moment
 * ago (WebContainerFs reports each write), else to the agent whose exec is running (or has just
 * ended), else to `user`. Events for node_modules are left out, and list() does not descend
 * into it: an `npm install` would otherwise flood the Files view.
 *
 * Not forwarded: the shell's stdin to a spawned program (`echo x | node` gives node no input).
 * Where the shell runs: the Bash is built by webcontainer-shell.ts, in a `webcontainer-shell` worker
 * in the browser (its fs calls and program starts come back here as ShellHost calls), in-process
 * in Node tests. Booting is in webcontainer-boot.ts; this module is loaded only once a
 * WebContainer is up.
 */
import { Bash, InMemoryFs, MountableFs, defineCommand } from 'just-bash';
import type { FileSystemTree, IFSWatcher, WebContainerProcess } from '@webcontainer/api';
import type { AgentId } from '../core/messages';
import { isWithin, normalize, osError, parentOf, writeText } from './paths';
import { SHELL_COMMANDS } from './shell-args';
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
} from './sandbox';
import { bootWebContainer, type BootOptions, type WebContainerLike } from './webcontainer-boot';
import { DevNullFs, WebContainerFs, type Kind, type WebContainerFsState } from './webcontainer-fs';
import {
  answerFs,
  describeFs,
  inProcessShell,
  SPAWNED_COMMANDS,
  type ShellHost,
  type ShellOutcome,
  type ShellRunner,
} from './webcontainer-shell';

export { SPAWNED_COMMANDS } from './webcontainer-shell';

/** The most output kept from one spawned program (the tools cut results to 50,000 anyway). */
export const PROCESS_OUTPUT_CAP = 1_000_000;

/** Exit code of a command stopped by the user, as a shell reports SIGINT. */
const EXIT_STOPPED = 130;
/** Exit code of a program killed at the deadline, as coreutils' `timeout` reports it. */
const EXIT_TIMED_OUT = 124;
/** How long the output of a program that has exited may still trickle in. */
const OUTPUT_GRACE_MS = 500;
/** How long a write is remembered to credit the watch events it causes. */
const WRITE_MEMORY_MS = 2000;
/** How long after an exec ends its programs' late watch events are still credited to it. */
const EXEC_GRACE_MS = 1000;
/** Folders whose contents are neither listed nor reported. */
const UNLISTED = new Set(['node_modules', '.git']);

/** Variables the shell owns; the rest of its exported environment is passed to programs. */
const SHELL_OWNED = new Set([
  'PATH',
  'HOME',
  'PWD',
  'OLDPWD',
  'SHLVL',
  'USER',
  'TMPDIR',
  'SHELL',
  'IFS',
  '_',
]);

/**
 * A terminal's output as plain text: escape sequences (colours, cursor moves, titles) removed,
 * CRLF as LF, and a line redrawn with `\r` (a progress bar) kept as its last state.
 */
export function stripAnsi(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '') // OSC: titles, hyperlinks
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '') // CSI: colours, cursor
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b[@-Z\\-_]/g, '')
      .replace(/\r+\n/g, '\n')
      .split('\n')
      .map((line) => line.slice(line.lastIndexOf('\r') + 1))
      .join('\n')
  );
}

/** A sample project as WebContainer's mount tree; refuses paths that leave the project. */
export function toFileSystemTree(files: ProjectFiles): FileSystemTree {
  const tree: FileSystemTree = {};
  for (const [relative, content] of Object.entries(files)) {
    const path = normalize(`/project/${relative}`);
    if (!isWithin('/project', path) || path === '/project') {
      throw new Error(`Sample path escapes the project: ${relative}`);
    }
    const parts = path.split('/').slice(2);
    let dir = tree;
    for (const part of parts.slice(0, -1)) {
      const node = (dir[part] ??= { directory: {} });
      if (!('directory' in node)) throw new Error(`Sample path is both a file and a folder: ${relative}`);
      dir = node.directory;
    }
    dir[parts[parts.length - 1]] = { file: { contents: content } };
  }
  return tree;
}

/** Every path a mount tree creates (relative to the project, `/src/a.py`). */
function treePaths(tree: FileSystemTree, dir = ''): string[] {
  return Object.entries(tree).flatMap(([name, node]) => {
    const path = `${dir}/${name}`;
    return 'directory' in node ? [path, ...treePaths(node.directory, path)] : [path];
  });
}

/** Who a watch event is credited to; `op` tells one tool call from the next. */
interface Credit {
  agent: AgentId;
  op: number;
}

/**
 * The change feed: turns `wc.fs.watch` events into FileChanges by comparing each path with what
 * was known of it, one event at a time, and credits them (see the file header).
 */
class WatchFeed {
  readonly #listeners = new Set<(change: FileChange) => void>();
  readonly #known = new Map<string, Kind>();
  readonly #writes = new Map<string, { credit: Credit; at: number }>();
  readonly #running: Credit[] = [];
  #ended: { credit: Credit; at: number } | undefined;
  /** The last change reported per path: a command that writes a file twice reports it once. */
  readonly #reported = new Map<string, { kind: FileChange['kind']; op: number }>();
  #ops = 0;
  #queue: Promise<void> = Promise.resolve();
  #watcher: IFSWatcher | undefined;

  constructor(
    readonly fs: WebContainerFs,
    readonly workdir: string,
  ) {}

  /** Seeds what is known from the tree as it is now, then starts watching. */
  start(paths: Array<[string, Kind]>): void {
    for (const [path, kind] of paths) this.#known.set(path, kind);
    this.#watcher = this.fs.state.wc.fs.watch('/', { recursive: true }, (_event, filename) => {
      const path = normalize(
        `/${typeof filename === 'string' ? filename : new TextDecoder().decode(filename)}`,
      );
      if (path === '/' || path.split('/').some((part) => UNLISTED.has(part))) return;
      const credit = this.#credit(path);
      this.#queue = this.#queue
        .then(() => this.#apply(path, credit))
        .catch((error: unknown) => {
          queueMicrotask(() => {
            throw error;
          });
        });
    });
  }

  subscribe(listener: (change: FileChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** An exec or a writeFile starts: events from now on may be its doing. */
  begin(agent: AgentId): Credit {
    const credit = { agent, op: ++this.#ops };
    this.#running.push(credit);
    return credit;
  }

  end(credit: Credit): void {
    this.#running.splice(this.#running.indexOf(credit), 1);
    this.#ended = { credit, at: Date.now() };
  }

  /** A write by `agent` to `path` (relative to the project) is about to happen. */
  noteWrite(path: string, agent: AgentId): void {
    const credit = this.#running.findLast((c) => c.agent === agent) ?? { agent, op: ++this.#ops };
    const now = Date.now();
    if (this.#writes.size > 1000) {
      for (const [p, write] of this.#writes) if (now - write.at >= WRITE_MEMORY_MS) this.#writes.delete(p);
    }
    this.#writes.set(path, { credit, at: now });
  }

  /** Resolves once every event received so far has been handled. */
  settled(): Promise<void> {
    return this.#queue;
  }

  #credit(path: string): Credit {
    const now = Date.now();
    const running = this.#running[this.#running.length - 1];
    for (let p = path; ; p = parentOf(p)) {
      const write = this.#writes.get(p);
      // A late echo of the mount does not outweigh a command running now.
      const stale = write?.credit.agent === 'system' && running && running.agent !== 'system';
      if (write && now - write.at < WRITE_MEMORY_MS && !stale) return write.credit;
      if (p === '/') break;
    }
    if (running) return running;
    if (this.#ended && now - this.#ended.at < EXEC_GRACE_MS) return this.#ended.credit;
    return { agent: 'user', op: 0 };
  }

  async #apply(path: string, credit: Credit): Promise<void> {
    let before = this.#known.get(path);
    const now = await this.fs.kind(path);
    if (before !== undefined && before !== now) {
      // Gone, or a file became a folder (or the other way round): what was there went first.
      const gone = [...this.#known.keys()].filter((p) => isWithin(path, p)).sort();
      for (const p of gone.reverse()) {
        this.#known.delete(p);
        this.#emit({ path: p, kind: 'delete', agent: credit.agent }, credit.op);
      }
      before = undefined;
    }
    if (now === null) return;
    if (before === undefined) {
      // Parents first, so a tree view can apply the changes in order.
      const missing: string[] = [];
      for (let p = parentOf(path); p !== '/' && !this.#known.has(p); p = parentOf(p)) missing.unshift(p);
      for (const p of missing) this.#created(p, 'directory', credit);
      this.#created(path, now, credit);
      if (now === 'directory') await this.#scan(path, credit);
      return;
    }
    if (now === 'file') this.#emit({ path, kind: 'modify', agent: credit.agent }, credit.op);
  }

  #created(path: string, kind: Kind, credit: Credit): void {
    this.#known.set(path, kind);
    this.#emit({ path, kind: 'create', agent: credit.agent }, credit.op);
  }

  /** A folder that appeared at once (a move, an unpacked tree): what is inside it appeared too. */
  async #scan(dir: string, credit: Credit): Promise<void> {
    const entries = await this.fs.readdirWithFileTypes(dir).catch(() => []);
    for (const entry of entries) {
      const path = `${dir === '/' ? '' : dir}/${entry.name}`;
      if (UNLISTED.has(entry.name) || this.#known.has(path)) continue;
      this.#created(path, entry.isDirectory ? 'directory' : 'file', credit);
      if (entry.isDirectory) await this.#scan(path, credit);
    }
  }

  #emit(change: FileChange, op: number): void {
    const last = this.#reported.get(change.path);
    this.#reported.set(change.path, { kind: change.kind, op });
    if (change.kind === 'modify' && last && last.op === op && last.kind !== 'delete') return;
    // The initial mount (and a reset) is set-up, not a change anyone made.
    if (change.agent === 'system') return;
    const full = { ...change, path: `${this.workdir}${change.path}` };
    for (const listener of this.#listeners) {
      try {
        listener(full);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  stop(): void {
    this.#watcher?.close();
    this.#listeners.clear();
  }
}

/**
 * The programs one exec hands to WebContainer: each is spawned, its output collected, and it is
 * killed at the exec's deadline or when the run is stopped.
 */
class SpawnedPrograms {
  timedOut = false;
  readonly #live = new Set<WebContainerProcess>();

  constructor(
    readonly wc: WebContainerLike,
    readonly workdir: string,
    readonly deadline: number,
    readonly signal: AbortSignal | undefined,
  ) {}

  async run(
    name: string,
    args: string[],
    cwd: string,
    exported: Record<string, string> | undefined,
    commandSignal: AbortSignal | undefined,
  ): Promise<{ stdout: string; stderr: string; exitCode: number }> {
    const signals = [this.signal, commandSignal].filter((s): s is AbortSignal => !!s);
    const remaining = this.deadline - Date.now();
    if (remaining <= 0) {
      this.timedOut = true;
      return {
        stdout: '',
        stderr: `${name}: not started: the command's time is up\n`,
        exitCode: EXIT_TIMED_OUT,
      };
    }
    if (signals.some((s) => s.aborted)) return { stdout: '', stderr: '', exitCode: EXIT_STOPPED };

    const env = Object.fromEntries(Object.entries(exported ?? {}).filter(([key]) => !SHELL_OWNED.has(key)));
    // spawn's cwd is relative to the project; outside it (say /tmp, which only the shell has) the
    // program starts in the project.
    const where = normalize(cwd);
    const relative = isWithin(this.workdir, where) ? where.slice(this.workdir.length + 1) || '.' : '.';
    const process = await this.wc.spawn(name, args, { cwd: relative, env });
    this.#live.add(process);
    void process.exit.then(
      () => this.#live.delete(process),
      () => this.#live.delete(process),
    );

    let text = '';
    const reader = process.output.getReader();
    const drained = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (text.length < PROCESS_OUTPUT_CAP) text += value;
      }
    })().catch(() => {});

    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort = () => {};
    const outcome = await new Promise<number | 'timeout' | 'stopped'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), remaining);
      onAbort = () => resolve('stopped');
      for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
      process.exit.then(resolve, () => resolve(1));
    });
    clearTimeout(timer);
    for (const s of signals) s.removeEventListener('abort', onAbort);

    if (typeof outcome === 'number') {
      let grace: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([drained, new Promise((resolve) => (grace = setTimeout(resolve, OUTPUT_GRACE_MS)))]);
      clearTimeout(grace);
    } else {
      // A killed process may never report its exit: nothing here waits for it.
      process.kill();
      this.#live.delete(process);
    }
    void reader.cancel().catch(() => {});
    const stdout = stripAnsi(text.slice(0, PROCESS_OUTPUT_CAP));
    if (outcome === 'timeout') {
      this.timedOut = true;
      return {
        stdout,
        stderr: `${name}: killed: the command's time is up\n`,
        exitCode: EXIT_TIMED_OUT,
      };
    }
    if (outcome === 'stopped') return { stdout, stderr: '', exitCode: EXIT_STOPPED };
    return { stdout, stderr: '', exitCode: outcome };
  }

  /** Kills whatever is still running (the exec ended, by a deadline or otherwise). */
  killAll(): void {
    for (const process of this.#live) process.kill();
    this.#live.clear();
  }
}

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
  /** Where commands run (the browser passes a worker, see webcontainer-host.ts); this thread by default. */
  shell?: ShellRunner;
}

/**
 * Boots WebContainer (once per page; see webcontainer-boot.ts), then replaces its project with
 * `files` (paths relative to the project). Rejects with a sentence when WebContainer cannot start.
 */
export async function create(files: ProjectFiles, options: CreateOptions = {}): Promise<WebContainerSandbox> {
  const tree = toFileSystemTree(files);
  const wc = options.webContainer ?? (await bootWebContainer(options));
  const sandbox = new WebContainerSandbox(wc, options.shell);
  await sandbox.mount(tree);
  return sandbox;
}
