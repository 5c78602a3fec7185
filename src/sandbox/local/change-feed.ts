/**
 * The offline backend's change feed: the shared filesystem's single writer. Every write goes
 * through `mutate`, one at a time, diffed around it and credited to the agent that made it.
 */
import type { InMemoryFs, IFileSystem } from 'just-bash';
import type { AgentId } from '../../core/messages';
import { DEV_NULL, isWithin } from '../paths';
import type { FileChange } from '../sandbox';

/** What tells two versions of a file apart without reading it. */
async function fingerprint(fs: IFileSystem, path: string): Promise<string | null> {
  try {
    const stat = await fs.lstat(path);
    if (stat.isDirectory) return null;
    return `${stat.mtime.getTime()}:${stat.size}:${String(stat.ino ?? stat.identity ?? '')}`;
  } catch {
    return null;
  }
}

/**
 * The shared filesystem's single writer: every change goes through `mutate`, one at a time, so
 * the tree can be diffed around it and the change attributed to the agent that made it, even when
 * several agents' commands interleave.
 */
export class ChangeFeed {
  readonly #listeners = new Set<(change: FileChange) => void>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(readonly fs: InMemoryFs) {}

  subscribe(listener: (change: FileChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  clear(): void {
    this.#listeners.clear();
  }

  /**
   * Runs one write and reports what it changed: paths that appear are `create`, paths that vanish
   * are `delete`. Files under `targets` that existed before are `modify` when the operation
   * rewrote them: always for `rewrites` (writeFile, appendFile), else when their mtime, size or
   * identity changed (cp, mv onto existing files).
   */
  mutate<T>(
    agent: AgentId,
    targets: string[],
    rewrites: boolean,
    op: () => Promise<T>,
    accept: (change: FileChange) => boolean,
  ): Promise<T> {
    const run = async (): Promise<T> => {
      const before = new Set(this.fs.getAllPaths());
      const prints = new Map<string, string | null>();
      for (const path of before) {
        if (targets.some((t) => isWithin(t, path))) prints.set(path, await fingerprint(this.fs, path));
      }
      let done = false;
      try {
        const result = await op();
        done = true;
        return result;
      } finally {
        const after = new Set(this.fs.getAllPaths());
        // Deepest first for deletions, parents first for creations: a tree view can apply them in order.
        const changes: FileChange[] = [
          ...[...before]
            .filter((p) => !after.has(p))
            .sort()
            .reverse()
            .map((path) => ({ path, kind: 'delete' as const, agent })),
          ...[...after]
            .filter((p) => !before.has(p))
            .sort()
            .map((path) => ({ path, kind: 'create' as const, agent })),
        ];
        for (const [path, print] of [...prints].sort(([a], [b]) => (a < b ? -1 : 1))) {
          if (print === null || !after.has(path)) continue;
          if ((rewrites && done) || print !== (await fingerprint(this.fs, path))) {
            changes.push({ path, kind: 'modify', agent });
          }
        }
        for (const change of changes) {
          if (change.path === DEV_NULL || !accept(change)) continue;
          for (const listener of this.#listeners) {
            try {
              listener(change);
            } catch (error) {
              // A broken listener must not fail the agent's write; rethrow it out of band.
              queueMicrotask(() => {
                throw error;
              });
            }
          }
        }
      }
    };
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined);
    return result;
  }
}
