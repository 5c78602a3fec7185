/**
 * just-bash's filesystem interface (IFileSystem) over WebContainer's file API (`wc.fs`), so the
 * agents' bash runs in just-bash (which has grep, find, sed, awk...) on WebContainer's files.
 *
 *   just-bash ──► MountableFs ─┬─ <workdir>   WebContainerFs ──► wc.fs (postMessage to its runtime)
 *                              ├─ /dev/null   DevNullFs: reads empty, swallows writes
 *                              └─ /           InMemoryFs: /tmp, /bin, HOME (shell scratch space)
 *
 * `wc.fs` is rooted at the project directory (`/` there is `wc.workdir` here), and it has no
 * stat: a path's kind comes from its parent's directory listing, a file's size from reading it.
 * Every write is reported to `onWrite` with the agent that made it, which is how the change feed
 * (driven by `wc.fs.watch`, see watch-feed.ts) knows whom to credit.
 */
import type {
  BufferEncoding,
  CpOptions,
  FileContent,
  FsStat,
  IFileSystem,
  MkdirOptions,
  RmOptions,
} from 'just-bash';
import type { AgentId } from '../../core/messages';
import { normalize, parentOf } from '../paths';
import type { WebContainerLike } from './boot';

function nodeError(
  code: 'ENOENT' | 'EISDIR' | 'ENOTDIR' | 'EEXIST' | 'ENOTEMPTY' | 'EPERM',
  op: string,
  path: string,
) {
  const text = {
    ENOENT: 'no such file or directory',
    EISDIR: 'illegal operation on a directory',
    ENOTDIR: 'not a directory',
    EEXIST: 'file already exists',
    ENOTEMPTY: 'directory not empty',
    EPERM: 'operation not permitted',
  }[code];
  return Object.assign(new Error(`${code}: ${text}, ${op} '${path}'`), { code });
}

function encodingOf(options: unknown): BufferEncoding {
  if (typeof options === 'string') return options as BufferEncoding;
  const encoding = (options as { encoding?: BufferEncoding | null } | undefined)?.encoding;
  return encoding ?? 'utf8';
}

/** Bytes of a string written with a Node encoding; just-bash writes redirections as `binary`. */
export function toBytes(content: FileContent, encoding: BufferEncoding = 'utf8'): Uint8Array {
  if (content instanceof Uint8Array) return content;
  switch (encoding) {
    case 'binary':
    case 'latin1':
    case 'ascii':
      return Uint8Array.from(content, (c) => c.charCodeAt(0) & 0xff);
    case 'base64':
      return Uint8Array.from(atob(content), (c) => c.charCodeAt(0));
    case 'hex':
      return Uint8Array.from(content.match(/../g) ?? [], (h) => parseInt(h, 16));
    default:
      return new TextEncoder().encode(content);
  }
}

function latin1(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return text;
}

export function fromBytes(bytes: Uint8Array, encoding: BufferEncoding = 'utf8'): string {
  switch (encoding) {
    case 'binary':
    case 'latin1':
    case 'ascii':
      return latin1(bytes);
    case 'base64':
      return btoa(latin1(bytes));
    case 'hex':
      return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    default:
      return new TextDecoder().decode(bytes);
  }
}

export type Kind = 'file' | 'directory';

/** What every WebContainerFs of one sandbox shares. */
export interface WebContainerFsState {
  wc: WebContainerLike;
  /** Modification times this side knows (wc.fs reports none); the rest get `since`. */
  mtimes: Map<string, Date>;
  since: Date;
  /** Called before each write, with the path (relative to the project, `/src/a.py`) and the agent. */
  onWrite(path: string, agent: AgentId): void;
}

/** IFileSystem over `wc.fs`, for one agent: its writes are reported as that agent's. */
export class WebContainerFs implements IFileSystem {
  constructor(
    readonly state: WebContainerFsState,
    readonly agent: AgentId,
  ) {}

  get #fs() {
    return this.state.wc.fs;
  }

  #wrote(path: string): void {
    this.state.mtimes.set(normalize(path), new Date());
    this.state.onWrite(normalize(path), this.agent);
  }

  /** A path's kind, from its parent's listing (wc.fs has no stat); null when it does not exist. */
  async kind(path: string): Promise<Kind | null> {
    const full = normalize(path);
    if (full === '/') return 'directory';
    const name = full.slice(full.lastIndexOf('/') + 1);
    try {
      const entries = await this.#fs.readdir(parentOf(full), { withFileTypes: true });
      const entry = entries.find((e) => e.name === name);
      if (!entry) return null;
      return entry.isDirectory() ? 'directory' : 'file';
    } catch {
      return null;
    }
  }

  async readFileBuffer(path: string): Promise<Uint8Array> {
    try {
      return await this.#fs.readFile(normalize(path));
    } catch (error) {
      const kind = await this.kind(path);
      if (kind === null) throw nodeError('ENOENT', 'open', path);
      if (kind === 'directory') throw nodeError('EISDIR', 'read', path);
      throw error;
    }
  }

  async readFile(path: string, options?: Parameters<IFileSystem['readFile']>[1]): Promise<string> {
    return fromBytes(await this.readFileBuffer(path), encodingOf(options));
  }

  async writeFile(path: string, content: FileContent, options?: Parameters<IFileSystem['writeFile']>[2]) {
    const full = normalize(path);
    const bytes = toBytes(content, encodingOf(options));
    this.#wrote(full);
    try {
      await this.#fs.writeFile(full, bytes);
    } catch (error) {
      const parent = await this.kind(parentOf(full));
      if (parent === null) throw nodeError('ENOENT', 'open', path);
      if (parent === 'file') throw nodeError('ENOTDIR', 'open', path);
      if ((await this.kind(full)) === 'directory') throw nodeError('EISDIR', 'write', path);
      throw error;
    }
  }

  async appendFile(path: string, content: FileContent, options?: Parameters<IFileSystem['appendFile']>[2]) {
    const added = toBytes(content, encodingOf(options));
    const kind = await this.kind(path);
    if (kind === 'directory') throw nodeError('EISDIR', 'write', path);
    if (kind === 'file' && added.length === 0) return; // `>>` opens the file first: nothing changes
    const before = kind === 'file' ? await this.readFileBuffer(path) : new Uint8Array(0);
    const joined = new Uint8Array(before.length + added.length);
    joined.set(before);
    joined.set(added, before.length);
    await this.writeFile(path, joined);
  }

  async exists(path: string): Promise<boolean> {
    return (await this.kind(path)) !== null;
  }

  async stat(path: string): Promise<FsStat> {
    const full = normalize(path);
    const kind = await this.kind(full);
    if (kind === null) throw nodeError('ENOENT', 'stat', path);
    const mtime = this.state.mtimes.get(full) ?? this.state.since;
    if (kind === 'directory') {
      return { isFile: false, isDirectory: true, isSymbolicLink: false, mode: 0o755, size: 0, mtime };
    }
    const size = (await this.readFileBuffer(full)).length;
    return { isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o644, size, mtime };
  }

  lstat(path: string): Promise<FsStat> {
    return this.stat(path);
  }

  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    const full = normalize(path);
    const kind = await this.kind(full);
    if (kind !== null) {
      if (options?.recursive && kind === 'directory') return;
      throw nodeError('EEXIST', 'mkdir', path);
    }
    if (!options?.recursive && (await this.kind(parentOf(full))) !== 'directory') {
      throw nodeError('ENOENT', 'mkdir', path);
    }
    this.#wrote(full);
    await this.#fs.mkdir(full, { recursive: true });
  }

  async readdir(path: string): Promise<string[]> {
    return (await this.readdirWithFileTypes(path)).map((e) => e.name);
  }

  async readdirWithFileTypes(path: string) {
    try {
      const entries = await this.#fs.readdir(normalize(path), { withFileTypes: true });
      return entries
        .map((e) => ({
          name: e.name,
          isFile: !e.isDirectory(),
          isDirectory: e.isDirectory(),
          isSymbolicLink: false,
        }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      const kind = await this.kind(path);
      throw nodeError(kind === 'file' ? 'ENOTDIR' : 'ENOENT', 'scandir', path);
    }
  }

  async rm(path: string, options?: RmOptions): Promise<void> {
    const full = normalize(path);
    const kind = await this.kind(full);
    if (kind === null) {
      if (options?.force) return;
      throw nodeError('ENOENT', 'rm', path);
    }
    if (full === '/') throw nodeError('EPERM', 'rm', path);
    if (kind === 'directory' && !options?.recursive && (await this.#fs.readdir(full)).length > 0) {
      throw nodeError('ENOTEMPTY', 'rm', path);
    }
    this.#wrote(full);
    await this.#fs.rm(full, { recursive: kind === 'directory', force: options?.force });
  }

  async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    const kind = await this.kind(src);
    if (kind === null) throw nodeError('ENOENT', 'cp', src);
    if (kind === 'file') return this.writeFile(dest, await this.readFileBuffer(src));
    if (!options?.recursive) throw nodeError('EISDIR', 'cp', src);
    await this.mkdir(dest, { recursive: true });
    for (const name of await this.readdir(src)) {
      await this.cp(`${normalize(src)}/${name}`, `${normalize(dest)}/${name}`, options);
    }
  }

  async mv(src: string, dest: string): Promise<void> {
    if ((await this.kind(src)) === null) throw nodeError('ENOENT', 'mv', src);
    this.#wrote(normalize(src));
    this.#wrote(normalize(dest));
    await this.#fs.rename(normalize(src), normalize(dest));
  }

  resolvePath(base: string, path: string): string {
    return normalize(path.startsWith('/') ? path : `${base}/${path}`);
  }

  /** Not listed: just-bash globs and finds through readdir, which sees the live tree. */
  getAllPaths(): string[] {
    return [];
  }

  async chmod(path: string): Promise<void> {
    // wc.fs has no modes; a chmod on a path that exists succeeds and changes nothing.
    if (!(await this.exists(path))) throw nodeError('ENOENT', 'chmod', path);
  }

  async symlink(_target: string, linkPath: string): Promise<void> {
    throw nodeError('EPERM', 'symlink', linkPath);
  }

  async link(_existingPath: string, newPath: string): Promise<void> {
    throw nodeError('EPERM', 'link', newPath);
  }

  async readlink(path: string): Promise<string> {
    throw Object.assign(new Error(`EINVAL: invalid argument, readlink '${path}'`), { code: 'EINVAL' });
  }

  async realpath(path: string): Promise<string> {
    if (!(await this.exists(path))) throw nodeError('ENOENT', 'realpath', path);
    return normalize(path);
  }

  async utimes(path: string, _atime: Date, mtime: Date): Promise<void> {
    if (!(await this.exists(path))) throw nodeError('ENOENT', 'utimes', path);
    this.state.mtimes.set(normalize(path), mtime);
  }
}

/**
 * `/dev/null`, mounted as a file of its own: reads are empty, writes vanish. (just-bash's own
 * /dev/null is a plain file that keeps what is written to it.)
 */
export class DevNullFs implements IFileSystem {
  readonly #since = new Date();

  #only(path: string, op: string): void {
    if (normalize(path) !== '/') throw nodeError('ENOTDIR', op, `/dev/null${path}`);
  }

  async readFile(path: string): Promise<string> {
    this.#only(path, 'open');
    return '';
  }
  async readFileBuffer(path: string): Promise<Uint8Array> {
    this.#only(path, 'open');
    return new Uint8Array(0);
  }
  async writeFile(path: string): Promise<void> {
    this.#only(path, 'open');
  }
  async appendFile(path: string): Promise<void> {
    this.#only(path, 'open');
  }
  async exists(path: string): Promise<boolean> {
    return normalize(path) === '/';
  }
  async stat(path: string): Promise<FsStat> {
    this.#only(path, 'stat');
    return {
      isFile: true,
      isDirectory: false,
      isSymbolicLink: false,
      mode: 0o666,
      size: 0,
      mtime: this.#since,
    };
  }
  lstat(path: string): Promise<FsStat> {
    return this.stat(path);
  }
  async mkdir(): Promise<void> {
    throw nodeError('EEXIST', 'mkdir', '/dev/null');
  }
  async readdir(): Promise<string[]> {
    throw nodeError('ENOTDIR', 'scandir', '/dev/null');
  }
  async rm(): Promise<void> {
    throw nodeError('EPERM', 'rm', '/dev/null');
  }
  async cp(): Promise<void> {}
  async mv(): Promise<void> {
    throw nodeError('EPERM', 'mv', '/dev/null');
  }
  resolvePath(base: string, path: string): string {
    return normalize(path.startsWith('/') ? path : `${base}/${path}`);
  }
  getAllPaths(): string[] {
    return [];
  }
  async chmod(): Promise<void> {}
  async symlink(): Promise<void> {
    throw nodeError('EPERM', 'symlink', '/dev/null');
  }
  async link(): Promise<void> {
    throw nodeError('EPERM', 'link', '/dev/null');
  }
  async readlink(): Promise<string> {
    throw nodeError('EPERM', 'readlink', '/dev/null');
  }
  async realpath(): Promise<string> {
    return '/';
  }
  async utimes(): Promise<void> {}
}
