/**
 * Stopping a command on a thread that is busy running it.
 *
 *   page: Stop ──Atomics.store(cell, 1)──────────▶ shared Int32 ◀── read on every `signal.aborted`
 *         └──── cancel message (request id) ─────▶ queue          by just-bash (between statements)
 *                                                  (read once the  and QuickJS (interrupt handler)
 *                                                   thread is free)
 *
 * just-bash's interpreter and QuickJS never give their thread back to the event loop while
 * `while true; do :; done` or `while(true){}` runs, so a cancel message, or a timer calling
 * `controller.abort()`, waits in the queue until the command's deadline (120 s). Both do read
 * `signal.aborted` while they run: the signal made here answers that read from shared memory,
 * which another thread may write at any time, and then aborts for real, so its listeners run.
 * While the thread is free, a poll notices the flag too (a script sleeping in a timer).
 */

/** How often a free thread looks at the shared flags. */
const POLL_MS = 25;

/** One stop request in shared memory: any thread holding the cell may raise it. */
export class StopCell {
  constructor(readonly cell: Int32Array = new Int32Array(new SharedArrayBuffer(4))) {}

  /** A new cell, or undefined where there is no shared memory (a page not cross-origin isolated). */
  static create(): StopCell | undefined {
    return typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated !== false
      ? new StopCell()
      : undefined;
  }

  raise(): void {
    Atomics.store(this.cell, 0, 1);
    Atomics.notify(this.cell, 0);
  }

  /**
   * A plain read, not Atomics.load: just-bash blocks `Atomics` while a script runs (its
   * defence in depth), and this is read from inside the interpreter. The flag only ever goes
   * from 0 to 1, so a read that is late by a moment is all a race can cost.
   */
  get raised(): boolean {
    return this.cell[0] !== 0;
  }
}

/** The cells a signal made by `watchedSignal` reads: for a thread that must watch them itself. */
const cellsOf = new WeakMap<AbortSignal, StopCell[]>();

/** The shared cells behind `signal` (none for an ordinary AbortSignal). */
export function stopCellsOf(signal: AbortSignal | undefined): StopCell[] {
  return (signal && cellsOf.get(signal)) ?? [];
}

export interface WatchedSignal {
  signal: AbortSignal;
  /** Stops the poll and the forwarding; call it when the work is over. */
  dispose(): void;
}

/**
 * A signal that aborts when any of `signals` does, or as soon as any of `cells` is seen raised:
 * at once on a read of `aborted`, else at the next poll.
 */
export function watchedSignal(
  cells: StopCell[],
  signals: Array<AbortSignal | undefined> = [],
): WatchedSignal {
  const controller = new AbortController();
  const target = controller.signal;
  const raised = () => cells.some((c) => c.raised);
  const check = () => {
    if (!target.aborted && raised()) controller.abort(new DOMException('Stopped', 'AbortError'));
    return target.aborted;
  };
  const forwards: Array<() => void> = [];
  for (const signal of signals) {
    if (!signal) continue;
    if (signal.aborted) controller.abort(signal.reason);
    const forward = () => controller.abort(signal.reason);
    signal.addEventListener('abort', forward, { once: true });
    forwards.push(() => signal.removeEventListener('abort', forward));
  }
  const poll = cells.length ? setInterval(check, POLL_MS) : undefined;
  // Methods run on the real signal: EventTarget's checks refuse any other `this`.
  const signal = new Proxy(target, {
    get(real, property) {
      if (property === 'aborted') return check();
      if (property === 'throwIfAborted') return () => (check(), real.throwIfAborted());
      const value = Reflect.get(real, property, real) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(real) : value;
    },
  });
  cellsOf.set(signal, cells);
  target.addEventListener('abort', () => clearInterval(poll), { once: true });
  return {
    signal,
    dispose() {
      clearInterval(poll);
      for (const remove of forwards) remove();
    },
  };
}
