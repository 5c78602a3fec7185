/**
 * The WebContainer backend's change feed: `wc.fs.watch('/', {recursive: true})` events turned into
 * FileChanges, so files a spawned `node` writes show up too. An event is credited to the agent
 * whose write touched that path a moment ago (WebContainerFs reports each write), else to the
 * agent whose exec is running (or has just ended), else to `user`. Events for node_modules and
 * .git are left out: an `npm install` would otherwise flood the Files view.
 */
import type { IFSWatcher } from '@webcontainer/api';
import type { AgentId } from '../../core/messages';
import { isWithin, normalize, parentOf } from '../paths';
import type { FileChange } from '../sandbox';
import type { Kind, WebContainerFs } from './fs';

/** How long a write is remembered to credit the watch events it causes. */
const WRITE_MEMORY_MS = 2000;
/** How long after an exec ends its programs' late watch events are still credited to it. */
const EXEC_GRACE_MS = 1000;
/** Folders whose contents are neither listed nor reported. */
export const UNLISTED = new Set(['node_modules', '.git']);

/** Who a watch event is credited to; `op` tells one tool call from the next. */
export interface Credit {
  agent: AgentId;
  op: number;
}

/**
 * The change feed: turns `wc.fs.watch` events into FileChanges by comparing each path with what
 * was known of it, one event at a time, and credits them (see above).
 */
export class WatchFeed {
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
