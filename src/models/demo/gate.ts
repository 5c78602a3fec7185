/**
 * The presenter's hold on a live demo run: one flag in shared memory that the page raises while
 * the presentation is stopped at a moment, and that the demo model reads before each call.
 *
 *   page (Presenter): hold() ──Atomics.store──▶ shared Int32 ◀── read by each agent worker's
 *                     release()                               DemoModel before it answers
 *
 * A run that is not presented pays one read of memory per model call. Without shared memory (a
 * page that is not cross-origin isolated) there is no gate: the presentation then follows the
 * record behind the run, as it does for a real model's run, which never waits.
 */

/** How often a held model looks at the flag again. */
const POLL_MS = 40;

export class DemoGate {
  constructor(readonly cell: Int32Array = new Int32Array(new SharedArrayBuffer(4))) {}

  /** A new gate, or undefined where there is no shared memory. */
  static create(): DemoGate | undefined {
    return typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated !== false
      ? new DemoGate()
      : undefined;
  }

  get held(): boolean {
    return Atomics.load(this.cell, 0) !== 0;
  }

  hold(): void {
    Atomics.store(this.cell, 0, 1);
  }

  release(): void {
    Atomics.store(this.cell, 0, 0);
  }

  /** Resolves once the gate is open (at once if it is); rejects as AbortError when stopped. */
  async pass(signal?: AbortSignal): Promise<void> {
    while (this.held) {
      if (signal?.aborted) throw new DOMException('Stopped', 'AbortError');
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
    if (signal?.aborted) throw new DOMException('Stopped', 'AbortError');
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
