/**
 * The presenter's hold on a live demo run: a count in shared memory that the page sets and the
 * demo model reads before each call, so that a presented run waits at its next model call.
 *
 *   page (Presenter)                      shared Int32               each agent worker's DemoModel
 *   open()        not presented ───────▶   -1  (open) ◀──── passes at once (one read of memory)
 *   close()       stopped at a moment ──▶    0  (shut) ◀──── waits
 *   grant()       going on to the next ──▶   1  (one call) ◀── takes it (0 again) and passes
 *
 * One call at a time while the presentation goes on: the page grants the next only once it has
 * seen the call before it and found no moment to stop at, so a run never runs past a moment by
 * more than the call it is in. Without shared memory (a page that is not cross-origin isolated)
 * there is no gate: the presentation then follows the record behind the run, as it does for a
 * real model's run, which never waits.
 */

/** How often a held model looks at the count again. */
const POLL_MS = 20;
const OPEN = -1;

export class DemoGate {
  constructor(readonly cell: Int32Array = new Int32Array(new SharedArrayBuffer(4))) {}

  /** A new gate, open, or undefined where there is no shared memory. */
  static create(): DemoGate | undefined {
    if (typeof SharedArrayBuffer !== 'function' || globalThis.crossOriginIsolated === false) return undefined;
    const gate = new DemoGate();
    gate.open();
    return gate;
  }

  /** Calls pass freely. */
  open(): void {
    Atomics.store(this.cell, 0, OPEN);
  }

  /** Calls wait (a call that passed already goes on). */
  close(): void {
    Atomics.store(this.cell, 0, 0);
  }

  /** Lets one call pass (and only one: an open gate becomes a grant of one call). */
  grant(): void {
    if (Atomics.compareExchange(this.cell, 0, 0, 1) === OPEN) Atomics.compareExchange(this.cell, 0, OPEN, 1);
  }

  /** Whether calls pass freely. */
  get isOpen(): boolean {
    return Atomics.load(this.cell, 0) === OPEN;
  }

  /** Takes the way through: at once if open or granted; rejects as AbortError when stopped. */
  async pass(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw new DOMException('Stopped', 'AbortError');
      const count = Atomics.load(this.cell, 0);
      if (count < 0) return;
      if (count > 0 && Atomics.compareExchange(this.cell, 0, count, count - 1) === count) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, POLL_MS);
        signal?.addEventListener('abort', done, { once: true });
        function done() {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        }
      });
    }
  }
}

/** Whether a value that arrived from another thread is a gate's cell. */
export function isGateCell(value: unknown): value is Int32Array {
  return (
    value instanceof Int32Array &&
    value.length === 1 &&
    typeof SharedArrayBuffer === 'function' &&
    value.buffer instanceof SharedArrayBuffer
  );
}
