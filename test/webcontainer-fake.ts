/**
 * A fake WebContainer for tests, typed with the real client's types: the subset the backend uses
 * (fs, spawn, mount, workdir) over an in-memory tree. Its fs answers with Node-style errors, as
 * WebContainer's does; watch events arrive a tick after the write, as they do over postMessage;
 * spawn() runs a program given by the test, which writes terminal output (ANSI and CRLF
 * included) and may hang until it is killed.
 */
import {
  runShell,
  type ShellHost,
  type ShellRequest,
  type ShellRunner,
} from '../src/sandbox/webcontainer/shell';
import type {
  BufferEncoding,
  DirEnt,
  FileSystemAPI,
  FileSystemTree,
  FSWatchCallback,
  FSWatchOptions,
  IFSWatcher,
  LoadFilesOptions,
  SpawnOptions,
  WebContainerProcess,
} from '@webcontainer/api';
import type { WebContainerLike } from '../src/sandbox/webcontainer/boot';

type Node = { kind: 'dir' } | { kind: 'file'; bytes: Uint8Array };

/** What a fake program gets: its arguments, and ways to print, touch files and see a kill. */
export interface FakeRun {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string | number | boolean>;
  /** Terminal output, as the real one gives it (stdout and stderr mixed). */
  write(text: string): void;
  fs: FileSystemAPI;
  /** Aborted when the process is killed. */
  killed: AbortSignal;
}

/** A program: resolves with its exit code, or never (until killed, and even then it may not). */
export type FakeProgram = (run: FakeRun) => Promise<number>;

export interface SpawnRecord {
  command: string;
  args: string[];
  cwd: string | undefined;
  env: Record<string, string | number | boolean>;
  killed: boolean;
}

function fsError(code: string, text: string, op: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${text}, ${op} '${path}'`), { code });
}

function clean(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return '/' + parts.join('/');
}

function parent(path: string): string {
  const at = path.lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}

class FakeDirEnt implements DirEnt<string> {
  constructor(
    readonly name: string,
    readonly dir: boolean,
  ) {}
  isFile(): boolean {
    return !this.dir;
  }
  isDirectory(): boolean {
    return this.dir;
  }
}

/** wc.fs over a Map of paths (relative to the project, which is `/` here, as in WebContainer). */
class FakeFs implements FileSystemAPI {
  readonly nodes = new Map<string, Node>([['/', { kind: 'dir' }]]);
  readonly #watchers = new Set<{ path: string; recursive: boolean; listener: FSWatchCallback }>();

  #notify(event: 'rename' | 'change', path: string): void {
    // Later, as over postMessage (a microtask: just-bash forbids timers inside its scripts in Node).
    queueMicrotask(() => {
      for (const watcher of this.#watchers) {
        const base = watcher.path === '/' ? '' : watcher.path;
        if (!path.startsWith(`${base}/`)) continue;
        const filename = path.slice(base.length + 1);
        if (!watcher.recursive && filename.includes('/')) continue;
        watcher.listener(event, filename);
      }
    });
  }

  #dir(path: string, op: string): void {
    const node = this.nodes.get(parent(path));
    if (!node) throw fsError('ENOENT', 'no such file or directory', op, path);
    if (node.kind !== 'dir') throw fsError('ENOTDIR', 'not a directory', op, path);
  }

  readdir(
    path: string,
    options: 'buffer' | { encoding: 'buffer'; withFileTypes?: false },
  ): Promise<Uint8Array[]>;
  readdir(
    path: string,
    options?: { encoding?: BufferEncoding | null; withFileTypes?: false } | BufferEncoding | null,
  ): Promise<string[]>;
  readdir(path: string, options: { encoding: 'buffer'; withFileTypes: true }): Promise<DirEnt<Uint8Array>[]>;
  readdir(
    path: string,
    options: { encoding?: BufferEncoding | null; withFileTypes: true },
  ): Promise<DirEnt<string>[]>;
  async readdir(path: string, options?: unknown): Promise<unknown[]> {
    const dir = clean(path);
    const node = this.nodes.get(dir);
    if (!node) throw fsError('ENOENT', 'no such file or directory', 'scandir', path);
    if (node.kind !== 'dir') throw fsError('ENOTDIR', 'not a directory', 'scandir', path);
    const prefix = dir === '/' ? '/' : `${dir}/`;
    const names = [...this.nodes.keys()]
      .filter((p) => p !== dir && p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
      .map((p) => p.slice(prefix.length))
      // WebContainer lists in creation order, not sorted: the backend must not rely on order.
      .reverse();
    if ((options as { withFileTypes?: boolean } | undefined)?.withFileTypes) {
      return names.map((name) => new FakeDirEnt(name, this.nodes.get(`${prefix}${name}`)!.kind === 'dir'));
    }
    return names;
  }

  readFile(path: string, encoding?: null): Promise<Uint8Array>;
  readFile(path: string, encoding: BufferEncoding): Promise<string>;
  async readFile(path: string, encoding?: BufferEncoding | null): Promise<Uint8Array | string> {
    const node = this.nodes.get(clean(path));
    if (!node) throw fsError('ENOENT', 'no such file or directory', 'open', path);
    if (node.kind === 'dir') throw fsError('EISDIR', 'illegal operation on a directory', 'read', path);
    return encoding ? new TextDecoder().decode(node.bytes) : node.bytes.slice();
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const file = clean(path);
    this.#dir(file, 'open');
    const existing = this.nodes.get(file);
    if (existing?.kind === 'dir') throw fsError('EISDIR', 'illegal operation on a directory', 'open', path);
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data.slice();
    this.nodes.set(file, { kind: 'file', bytes });
    if (!existing) this.#notify('rename', file);
    this.#notify('change', file);
  }

  mkdir(path: string, options?: { recursive?: false }): Promise<void>;
  mkdir(path: string, options: { recursive: true }): Promise<string>;
  async mkdir(path: string, options?: { recursive?: boolean }): Promise<string | void> {
    const dir = clean(path);
    if (this.nodes.has(dir)) {
      if (options?.recursive && this.nodes.get(dir)!.kind === 'dir') return undefined;
      throw fsError('EEXIST', 'file already exists', 'mkdir', path);
    }
    if (options?.recursive && !this.nodes.has(parent(dir)))
      await this.mkdir(parent(dir), { recursive: true });
    this.#dir(dir, 'mkdir');
    this.nodes.set(dir, { kind: 'dir' });
    this.#notify('rename', dir);
    return dir;
  }

  async rm(path: string, options?: { force?: boolean; recursive?: boolean }): Promise<void> {
    const target = clean(path);
    const node = this.nodes.get(target);
    if (!node) {
      if (options?.force) return;
      throw fsError('ENOENT', 'no such file or directory', 'rm', path);
    }
    const inside = [...this.nodes.keys()].filter((p) => p.startsWith(`${target === '/' ? '' : target}/`));
    if (node.kind === 'dir' && inside.length && !options?.recursive) {
      throw fsError('ENOTEMPTY', 'directory not empty', 'rm', path);
    }
    for (const p of inside) this.nodes.delete(p);
    if (target !== '/') this.nodes.delete(target);
    this.#notify('rename', target);
  }

  async rename(oldPath: string, newPath: string): Promise<void> {
    const from = clean(oldPath);
    const to = clean(newPath);
    if (!this.nodes.has(from)) throw fsError('ENOENT', 'no such file or directory', 'rename', oldPath);
    this.#dir(to, 'rename');
    const moved = [...this.nodes].filter(([p]) => p === from || p.startsWith(`${from}/`));
    for (const [p] of moved) this.nodes.delete(p);
    for (const [p, node] of moved) this.nodes.set(to + p.slice(from.length), node);
    this.#notify('rename', from);
    this.#notify('rename', to);
  }

  watch(filename: string, options?: FSWatchOptions, listener?: FSWatchCallback): IFSWatcher;
  watch(filename: string, listener?: FSWatchCallback): IFSWatcher;
  watch(
    filename: string,
    optionsOrListener?: FSWatchOptions | FSWatchCallback,
    maybeListener?: FSWatchCallback,
  ): IFSWatcher {
    const listener = typeof optionsOrListener === 'function' ? optionsOrListener : maybeListener;
    const options = typeof optionsOrListener === 'object' ? optionsOrListener : null;
    const watcher = {
      path: clean(filename),
      recursive: !!options?.recursive,
      listener: listener ?? (() => {}),
    };
    this.#watchers.add(watcher);
    return { close: () => this.#watchers.delete(watcher) };
  }

  get watchers(): number {
    return this.#watchers.size;
  }
}

/** The fake: an in-memory project at `/home/<workdirName>`, with programs given by the test. */
export class FakeWebContainer implements WebContainerLike {
  readonly fs = new FakeFs();
  readonly workdir: string;
  readonly spawned: SpawnRecord[] = [];

  constructor(
    readonly programs: Record<string, FakeProgram> = {},
    workdirName = 'project',
  ) {
    this.workdir = `/home/${workdirName}`;
  }

  async mount(tree: FileSystemTree | Uint8Array | ArrayBuffer, options?: LoadFilesOptions): Promise<void> {
    if (tree instanceof Uint8Array || tree instanceof ArrayBuffer)
      throw new Error('The fake mounts trees only');
    const write = async (dir: string, node: FileSystemTree) => {
      for (const [name, entry] of Object.entries(node)) {
        const path = `${dir === '/' ? '' : dir}/${name}`;
        if ('directory' in entry) {
          await this.fs.mkdir(path, { recursive: true });
          await write(path, entry.directory);
        } else if ('file' in entry && 'contents' in entry.file) {
          await this.fs.writeFile(path, entry.file.contents);
        }
      }
    };
    const root = clean(options?.mountPoint ?? '/');
    await this.fs.mkdir(root, { recursive: true });
    await write(root, tree);
  }

  spawn(command: string, args: string[], options?: SpawnOptions): Promise<WebContainerProcess>;
  spawn(command: string, options?: SpawnOptions): Promise<WebContainerProcess>;
  async spawn(
    command: string,
    argsOrOptions?: string[] | SpawnOptions,
    maybeOptions?: SpawnOptions,
  ): Promise<WebContainerProcess> {
    const args = Array.isArray(argsOrOptions) ? argsOrOptions : [];
    const options = (Array.isArray(argsOrOptions) ? maybeOptions : argsOrOptions) ?? {};
    const record: SpawnRecord = { command, args, cwd: options.cwd, env: options.env ?? {}, killed: false };
    this.spawned.push(record);

    let output!: ReadableStreamDefaultController<string>;
    let open = true;
    const stream = new ReadableStream<string>({ start: (c) => void (output = c) });
    const write = (text: string) => {
      if (open) output.enqueue(text);
    };
    const close = () => {
      if (open) output.close();
      open = false;
    };
    const kill = new AbortController();
    const program: FakeProgram =
      this.programs[command] ??
      (async ({ write }) => {
        write(`jsh: command not found: ${command}\r\n`);
        return 127;
      });
    const exit = program({
      command,
      args,
      cwd: clean(options.cwd ?? '/'),
      env: record.env,
      write,
      fs: this.fs,
      killed: kill.signal,
    }).finally(close);
    return {
      exit,
      output: stream,
      input: new WritableStream<string>(),
      kill: () => {
        record.killed = true;
        kill.abort();
        close();
      },
      resize: () => {},
    };
  }

  /** Watchers still open (a disposed sandbox must close its own). */
  get watchers(): number {
    return this.fs.watchers;
  }
}

/** A program that never exits, as `node -e 'setInterval(() => {}, 1000)'` does. */
export const hang: FakeProgram = () => new Promise<number>(() => {});

/**
 * The shell as the browser runs it, less the worker: everything that crosses between the page
 * and the shell is structured-cloned, as postMessage would (a Date, a Uint8Array, an error's
 * `code` must survive the trip). `runs` counts the commands it ran.
 */
export function clonedShell(): ShellRunner & { runs: number } {
  const c = <T>(value: T): T => structuredClone(value);
  const runner = {
    runs: 0,
    dispose() {},
    async run(request: ShellRequest, host: ShellHost, signal?: AbortSignal) {
      runner.runs++;
      const remote: ShellHost = {
        fs: async (method, args) => c(await host.fs(method, c(args))),
        describeFs: async () => c(await host.describeFs()),
        spawn: async (id, name, args, cwd, env) => c(await host.spawn(id, name, c(args), cwd, c(env))),
        cancel: (id) => host.cancel(id),
      };
      return c(await runShell(c(request), remote, signal));
    },
  };
  return runner;
}
