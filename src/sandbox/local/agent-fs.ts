/**
 * The offline backend's per-agent view of the shared filesystem: one per exec() or writeFile(),
 * every write going through the change feed under that agent's name.
 */
import type {
  CpOptions,
  FileContent,
  FsStat,
  IFileSystem,
  InMemoryFs,
  MkdirOptions,
  RmOptions,
} from 'just-bash';
import type { AgentId } from '../../core/messages';
import { DEV_NULL, normalize } from '../paths';
import type { FileChange } from '../sandbox';
import type { ChangeFeed } from './change-feed';

function notPermitted(operation: string, path: string): Error {
  return new Error(`EPERM: operation not permitted, ${operation} '${path}'`);
}

/**
 * The filesystem one Bash (or one sandbox.writeFile) sees: the shared one, by delegation, with
 * every write attributed to `agent`, and `/dev/null` acting as a null device.
 *
 * It deliberately has no `writeFileSync`/`mkdirSync`: just-bash then skips re-creating its
 * /bin, /dev and /proc layout on each `new Bash` (it is made once, in `create`).
 */
export class AgentFs implements IFileSystem {
  readonly #fs: InMemoryFs;
  #last: FileChange | undefined;

  constructor(
    readonly feed: ChangeFeed,
    readonly agent: AgentId,
  ) {
    this.#fs = feed.fs;
  }

  /** `targets`: the paths whose existing files the operation may rewrite. */
  #write<T>(targets: string[], rewrites: boolean, op: () => Promise<T>): Promise<T> {
    return this.feed.mutate(this.agent, targets.map(normalize), rewrites, op, (change) =>
      this.#accept(change),
    );
  }

  /**
   * One command often writes a file several times in a row (`echo a > f` truncates, then writes;
   * a loop appends line by line): report it once, as the create or the first modify.
   */
  #accept(change: FileChange): boolean {
    const last = this.#last;
    this.#last = change;
    return !(change.kind === 'modify' && last?.path === change.path && last.kind !== 'delete');
  }

  readFile(path: string, options?: Parameters<IFileSystem['readFile']>[1]): Promise<string> {
    return normalize(path) === DEV_NULL ? Promise.resolve('') : this.#fs.readFile(path, options);
  }

  readFileBytes(path: string): ReturnType<InMemoryFs['readFileBytes']> {
    return normalize(path) === DEV_NULL ? this.#fs.readFileBytes(DEV_NULL) : this.#fs.readFileBytes(path);
  }

  readFileBuffer(path: string): Promise<Uint8Array> {
    return normalize(path) === DEV_NULL ? Promise.resolve(new Uint8Array(0)) : this.#fs.readFileBuffer(path);
  }

  writeFile(path: string, content: FileContent, options?: Parameters<IFileSystem['writeFile']>[2]) {
    if (normalize(path) === DEV_NULL) return Promise.resolve();
    return this.#write([path], true, () => this.#fs.writeFile(path, content, options));
  }

  appendFile(path: string, content: FileContent, options?: Parameters<IFileSystem['appendFile']>[2]) {
    if (normalize(path) === DEV_NULL) return Promise.resolve();
    // An empty append (what `>>` does before writing) changes nothing in an existing file.
    const rewrites = content.length > 0;
    return this.#write(rewrites ? [path] : [], rewrites, () => this.#fs.appendFile(path, content, options));
  }

  exists(path: string): Promise<boolean> {
    return this.#fs.exists(path);
  }

  stat(path: string): Promise<FsStat> {
    return this.#fs.stat(path);
  }

  lstat(path: string): Promise<FsStat> {
    return this.#fs.lstat(path);
  }

  mkdir(path: string, options?: MkdirOptions): Promise<void> {
    return this.#write([], false, () => this.#fs.mkdir(path, options));
  }

  readdir(path: string): Promise<string[]> {
    return this.#fs.readdir(path);
  }

  readdirWithFileTypes(path: string): ReturnType<InMemoryFs['readdirWithFileTypes']> {
    return this.#fs.readdirWithFileTypes(path);
  }

  rm(path: string, options?: RmOptions): Promise<void> {
    if (normalize(path) === DEV_NULL) return Promise.reject(notPermitted('rm', path));
    return this.#write([], false, () => this.#fs.rm(path, options));
  }

  cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    if (normalize(dest) === DEV_NULL) return Promise.resolve();
    return this.#write([dest], false, () => this.#fs.cp(src, dest, options));
  }

  mv(src: string, dest: string): Promise<void> {
    if (normalize(src) === DEV_NULL || normalize(dest) === DEV_NULL) {
      return Promise.reject(notPermitted('mv', DEV_NULL));
    }
    return this.#write([dest], false, () => this.#fs.mv(src, dest));
  }

  resolvePath(base: string, path: string): string {
    return this.#fs.resolvePath(base, path);
  }

  getAllPaths(): string[] {
    return this.#fs.getAllPaths();
  }

  chmod(path: string, mode: number): Promise<void> {
    return this.#fs.chmod(path, mode);
  }

  symlink(target: string, linkPath: string): Promise<void> {
    return this.#write([], false, () => this.#fs.symlink(target, linkPath));
  }

  link(existingPath: string, newPath: string): Promise<void> {
    return this.#write([], false, () => this.#fs.link(existingPath, newPath));
  }

  readlink(path: string): Promise<string> {
    return this.#fs.readlink(path);
  }

  realpath(path: string): Promise<string> {
    return this.#fs.realpath(path);
  }

  utimes(path: string, atime: Date, mtime: Date): Promise<void> {
    return this.#fs.utimes(path, atime, mtime);
  }
}
