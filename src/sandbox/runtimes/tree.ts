/**
 * A copy of part of the shared filesystem that a language runtime can use synchronously.
 *
 *   shared InMemoryFs ──capture()──▶ FileTree ──▶ QuickJS's fs / Pyodide's FS
 *          ▲                                            │ the script reads and writes here
 *          └──applyTreeChanges(AgentFs)◀── diffTrees ◀──┘ after the run
 *
 * QuickJS calls its host synchronously and Pyodide has a filesystem of its own, while the shared
 * filesystem is async. So a run works on a copy of the project (plus HOME and /tmp), and what the
 * script changed is written back afterwards through the calling agent's AgentFs: the change feed
 * then attributes every created, modified or deleted file to that agent, like any bash write.
 * Only paths the script itself changed are written back, so a concurrent agent's edits to other
 * files survive.
 */
import type { IFileSystem } from 'just-bash';
import { isWithin, normalize, parentOf } from '../paths';

export type TreeEntry = { type: 'directory' } | { type: 'file'; data: Uint8Array; mtimeMs: number };

/** One change a run made, to replay on the shared filesystem. */
export type TreeChange =
  | { kind: 'mkdir'; path: string }
  | { kind: 'write'; path: string; data: Uint8Array }
  | { kind: 'delete'; path: string };

/** The error codes a FileTree operation fails with, named as POSIX (and Node's fs) name them. */
export type TreeErrorCode = 'ENOENT' | 'EEXIST' | 'ENOTDIR' | 'EISDIR' | 'ENOTEMPTY' | 'EINVAL';

export class TreeError extends Error {
  constructor(
    readonly code: TreeErrorCode,
    readonly path: string,
  ) {
    super(`${code}: ${path}`);
  }
}

/** Roots without the ones nested in another: `/home/user` covers `/home/user/project`. */
export function outermost(roots: string[]): string[] {
  const unique = [...new Set(roots.map(normalize))].sort();
  return unique.filter((root) => !unique.some((other) => other !== root && isWithin(other, root)));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const encoder = new TextEncoder();

/** Files and directories below `roots`, with every ancestor of a root as a directory. */
export class FileTree {
  readonly entries: Map<string, TreeEntry>;

  constructor(
    readonly roots: string[],
    entries: Iterable<[string, TreeEntry]> = [],
  ) {
    this.entries = new Map(entries);
    for (const root of roots) {
      for (let dir = root; ; dir = parentOf(dir)) {
        if (!this.entries.has(dir)) this.entries.set(dir, { type: 'directory' });
        if (dir === '/') break;
      }
    }
  }

  /** Reads everything below `roots` from `fs` (symbolic links are followed). */
  static async capture(fs: IFileSystem, roots: string[]): Promise<FileTree> {
    const tops = outermost(roots);
    const entries: [string, TreeEntry][] = [];
    for (const path of fs.getAllPaths().sort()) {
      if (!tops.some((root) => isWithin(root, path))) continue;
      const stat = await fs.stat(path).catch(() => null);
      if (!stat) continue; // a dangling link
      if (stat.isDirectory) entries.push([path, { type: 'directory' }]);
      else
        entries.push([
          path,
          { type: 'file', data: await fs.readFileBuffer(path), mtimeMs: stat.mtime.getTime() },
        ]);
    }
    return new FileTree(tops, entries);
  }

  /** A copy whose changes leave this tree alone (file contents are replaced, never mutated). */
  clone(): FileTree {
    return new FileTree(this.roots, this.entries);
  }

  get(path: string): TreeEntry | undefined {
    return this.entries.get(normalize(path));
  }

  readFile(path: string): Uint8Array {
    const entry = this.#existing(path);
    if (entry.type === 'directory') throw new TreeError('EISDIR', path);
    return entry.data;
  }

  /** Creates or replaces (or appends to) a file; its directory must exist, as in POSIX. */
  writeFile(path: string, data: Uint8Array | string, append = false): void {
    const full = normalize(path);
    const bytes = typeof data === 'string' ? encoder.encode(data) : data;
    const existing = this.entries.get(full);
    if (existing?.type === 'directory') throw new TreeError('EISDIR', path);
    this.#directory(parentOf(full), path);
    let content = bytes;
    if (append && existing) {
      content = new Uint8Array(existing.data.length + bytes.length);
      content.set(existing.data);
      content.set(bytes, existing.data.length);
    }
    this.entries.set(full, { type: 'file', data: content, mtimeMs: Date.now() });
  }

  /** Returns the first directory created (as Node's mkdirSync does), or undefined. */
  mkdir(path: string, recursive = false): string | undefined {
    const full = normalize(path);
    const existing = this.entries.get(full);
    if (existing) {
      if (recursive && existing.type === 'directory') return undefined;
      throw new TreeError('EEXIST', path);
    }
    const parent = parentOf(full);
    let first: string | undefined;
    if (!this.entries.has(parent)) {
      if (!recursive) throw new TreeError('ENOENT', path);
      first = this.mkdir(parent, true);
    }
    this.#directory(parent, path);
    this.entries.set(full, { type: 'directory' });
    return first ?? full;
  }

  /** Names in a directory, sorted. */
  readdir(path: string): string[] {
    const full = normalize(path);
    this.#directory(full, path);
    const prefix = full === '/' ? '/' : `${full}/`;
    const names: string[] = [];
    for (const key of this.entries.keys()) {
      if (key.startsWith(prefix) && key.length > prefix.length && !key.includes('/', prefix.length)) {
        names.push(key.slice(prefix.length));
      }
    }
    return names.sort();
  }

  /** Removes a file, or a directory when `recursive` (or when it is empty and `directory`). */
  remove(path: string, options: { recursive?: boolean; force?: boolean; directory?: boolean } = {}): void {
    const full = normalize(path);
    const entry = this.entries.get(full);
    if (!entry) {
      if (options.force) return;
      throw new TreeError('ENOENT', path);
    }
    if (entry.type === 'directory') {
      const children = this.readdir(full);
      if (!options.recursive && !options.directory) throw new TreeError('EISDIR', path);
      if (children.length > 0 && !options.recursive) throw new TreeError('ENOTEMPTY', path);
      for (const key of [...this.entries.keys()]) if (isWithin(full, key)) this.entries.delete(key);
    } else {
      if (options.directory) throw new TreeError('ENOTDIR', path);
      this.entries.delete(full);
    }
  }

  rename(from: string, to: string): void {
    const source = normalize(from);
    const target = normalize(to);
    const entry = this.#existing(from);
    if (source === target) return;
    if (isWithin(source, target)) throw new TreeError('EINVAL', to);
    this.#directory(parentOf(target), to);
    const existing = this.entries.get(target);
    if (existing?.type === 'directory') {
      if (entry.type !== 'directory') throw new TreeError('EISDIR', to);
      if (this.readdir(target).length > 0) throw new TreeError('ENOTEMPTY', to);
    } else if (existing && entry.type === 'directory') {
      throw new TreeError('ENOTDIR', to);
    }
    const moved = [...this.entries].filter(([key]) => isWithin(source, key));
    for (const [key] of moved) this.entries.delete(key);
    for (const [key, value] of moved) this.entries.set(target + key.slice(source.length), value);
  }

  #existing(path: string): TreeEntry {
    const full = normalize(path);
    const entry = this.entries.get(full);
    if (entry) return entry;
    // ENOTDIR when a file stands where a directory should be, as POSIX reports it.
    for (let dir = parentOf(full); dir !== '/'; dir = parentOf(dir)) {
      if (this.entries.get(dir)?.type === 'file') throw new TreeError('ENOTDIR', path);
    }
    throw new TreeError('ENOENT', path);
  }

  #directory(dir: string, reported: string): void {
    const entry = this.entries.get(dir);
    if (!entry) throw new TreeError('ENOENT', reported);
    if (entry.type !== 'directory') throw new TreeError('ENOTDIR', reported);
  }
}

/**
 * What turned `before` into `after`, below the roots: deletions first (a deleted directory's
 * contents go with it), then new directories parents first, then written files. A rename is a
 * deletion and a creation, as `mv` is reported.
 */
export function diffTrees(before: FileTree, after: FileTree): TreeChange[] {
  const inRoots = (path: string) => before.roots.some((root) => isWithin(root, path) && path !== root);
  const mkdirs: TreeChange[] = [];
  const writes: TreeChange[] = [];
  for (const [path, entry] of [...after.entries].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!inRoots(path)) continue;
    const old = before.entries.get(path);
    if (entry.type === 'directory') {
      if (old?.type !== 'directory') mkdirs.push({ kind: 'mkdir', path });
    } else if (old?.type !== 'file' || !sameBytes(old.data, entry.data)) {
      writes.push({ kind: 'write', path, data: entry.data });
    }
  }
  const deleted = [...before.entries]
    .filter(([path, entry]) => {
      if (!inRoots(path)) return false;
      const now = after.entries.get(path);
      return !now || now.type !== entry.type;
    })
    .map(([path]) => path)
    .sort()
    .reverse();
  // Only the top of a deleted subtree needs removing; a replaced path is removed before it is rewritten.
  const deletes = deleted
    .filter((path) => !deleted.some((other) => other !== path && isWithin(other, path)))
    .map((path): TreeChange => ({ kind: 'delete', path }));
  return [...deletes, ...mkdirs, ...writes];
}

/** Replays a run's changes on the shared filesystem through `fs` (the calling agent's AgentFs). */
export async function applyTreeChanges(fs: IFileSystem, changes: TreeChange[]): Promise<void> {
  for (const change of changes) {
    if (change.kind === 'delete') await fs.rm(change.path, { recursive: true, force: true });
    else if (change.kind === 'mkdir') await fs.mkdir(change.path, { recursive: true });
    else {
      const stat = await fs.stat(parentOf(change.path)).catch(() => null);
      if (!stat) await fs.mkdir(parentOf(change.path), { recursive: true });
      await fs.writeFile(change.path, change.data);
    }
  }
}
