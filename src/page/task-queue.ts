/**
 * Turns for a run's subagents: at most `limit` at once, the others wait in call order.
 *
 * A subagent that delegates keeps its turn while its own subagents run (its worker is alive,
 * waiting for their summaries). So that a chain of delegation always finishes, a task at depth
 * d starts only if the turns left afterwards are enough for one task at each deeper level
 * (`levels - d` more): the deepest subagent alive can then always start its own. A waiting task
 * that may not start yet lets a later one that may (a deeper one) go first; otherwise the order
 * is the call order. With no delegation (one level) it is plain first come, first served.
 */

/** One task's turn: `now` when it started at once, else `started` settles when it may start. */
export interface Turn {
  readonly now: boolean;
  readonly started: Promise<void>;
  /** The task is over (or never ran): its turn goes to the next one that may start. */
  done(): void;
}

interface Waiting {
  depth: number;
  start: () => void;
  fail: (error: Error) => void;
}

export class TaskQueue {
  /** How many subagents may run at once: never fewer than a chain of delegation needs. */
  readonly limit: number;
  readonly #levels: number;
  #running = 0;
  #waiting: Waiting[] = [];
  #closed = false;

  /**
   * `limit` subagents at once; `levels` is how deep a chain of subagents may go (the delegation
   * depth + 1: 1 when subagents do not delegate).
   */
  constructor(limit: number, levels: number) {
    this.#levels = Math.max(1, levels);
    this.limit = Math.max(limit, this.#levels);
  }

  /** Subagents running now. */
  get running(): number {
    return this.#running;
  }

  /** Tasks waiting for their turn. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Whether a worker started ahead for the next task would not be one too many. */
  get roomForSpare(): boolean {
    return !this.#closed && this.#waiting.length === 0 && this.#running < this.limit;
  }

  /** A turn for a task at `depth` (the parent's subagents are at 1). */
  take(depth: number): Turn {
    if (this.#closed) {
      const started = Promise.reject(new Error('Stopped'));
      started.catch(() => {}); // reported to whoever awaits it
      return { now: false, started, done: () => {} };
    }
    let ended = false;
    const done = () => {
      if (ended) return;
      ended = true;
      this.#running--;
      this.#next();
    };
    let start = () => {};
    let fail: (error: Error) => void = () => {};
    const started = new Promise<void>((resolve, reject) => {
      start = resolve;
      fail = reject;
    });
    started.catch(() => {}); // reported to whoever awaits it
    let now = false;
    const waiting: Waiting = {
      depth,
      start: () => {
        now = true;
        start();
      },
      fail,
    };
    this.#waiting.push(waiting);
    this.#next();
    return {
      now,
      started,
      done: () => {
        // Stopped while waiting: its place in the line is given up, it had no turn.
        const at = this.#waiting.indexOf(waiting);
        if (at >= 0) {
          this.#waiting.splice(at, 1);
          ended = true;
          return;
        }
        done();
      },
    };
  }

  /** No task starts any more (Stop, or the run is over): the waiting ones fail. */
  close(): void {
    this.#closed = true;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const task of waiting) task.fail(new Error('Stopped'));
  }

  #mayStart(depth: number): boolean {
    const deeper = Math.max(0, this.#levels - depth);
    return this.#running + 1 + deeper <= this.limit;
  }

  /** Starts every waiting task that may start now, in call order. */
  #next(): void {
    for (let i = 0; i < this.#waiting.length;) {
      const task = this.#waiting[i];
      if (this.#closed || !this.#mayStart(task.depth)) {
        i++;
        continue;
      }
      this.#waiting.splice(i, 1);
      this.#running++;
      task.start();
    }
  }
}
