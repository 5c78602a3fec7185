/**
 * The presenter's hold on a live demo run: a cell in shared memory that the page sets and the
 * demo model reads before each call, so that a presented run waits at each model call until the
 * page has seen it start.
 *
 *   page (Presenter)                         shared Int32        each agent worker's DemoModel
 *   open()     not presented ─────────────▶   -1  open  ◀────── passes at once (one read of memory)
 *   close()    presented ─────────────────▶    0  shut  ◀────── a call arrives: writes its mark, waits
 *                                             mark  held ◀───── (the call's mark: see callMark)
 *   release(mark)  saw that call start, and
 *                  nothing to stop at before it ▶ -1-mark  let go ◀── that call takes it (0 again)
 *
 * A call is let go only by the page, and only once the page has recorded its `model_start` (the
 * loop sends that event after the call has reached the gate) and found no moment to stop at
 * before its reply. So the run never shows more than the presentation has told: a subagent's
 * first call waits while its caption is on screen, its reply and tool calls come after Continue.
 * A release that was asked for in advance would be taken by whatever call came next (a subagent
 * that started while the page had not yet recorded its caller's `task`), hence the mark.
 *
 * The demo makes one call at a time in a run (a caller waits for its task), so one call is held
 * at a time. Without shared memory (a page that is not cross-origin isolated) there is no gate:
 * the presentation then follows the record behind the run, as it does for a real model's run,
 * which never waits.
 */

/** How often a held model looks at the cell again. */
const POLL_MS = 20;
const OPEN = -1;
const SHUT = 0;

/**
 * Which call waits, as both sides can tell it: the model from its request, the page from the
 * call's `model_start` (the messages it sends, and whether a subagent sends them).
 */
export function callMark(messages: number, subagent: boolean): number {
  return 2 * Math.max(1, messages) + (subagent ? 1 : 0);
}

/** The cell's value once the page has let the call with this mark go. */
function released(mark: number): number {
  return OPEN - mark;
}

export class DemoGate {
  constructor(readonly cell: Int32Array = new Int32Array(new SharedArrayBuffer(4))) {}

  /** A new gate, open, or undefined where there is no shared memory. */
  static create(): DemoGate | undefined {
    if (typeof SharedArrayBuffer !== 'function' || globalThis.crossOriginIsolated === false) return undefined;
    const gate = new DemoGate();
    gate.open();
    return gate;
  }

  /** Calls pass freely (a held one goes too). */
  open(): void {
    Atomics.store(this.cell, 0, OPEN);
  }

  /** Calls wait from now on (a call held, or let go already, stays so). */
  close(): void {
    Atomics.compareExchange(this.cell, 0, OPEN, SHUT);
  }

  /**
   * Lets the call with this mark go, if it is the one held; returns whether it was (it was not
   * if it passed while the gate was open).
   */
  release(mark: number): boolean {
    return Atomics.compareExchange(this.cell, 0, mark, released(mark)) === mark;
  }

  /** Whether calls pass freely. */
  get isOpen(): boolean {
    return Atomics.load(this.cell, 0) === OPEN;
  }

  /**
   * Takes the way through for the call with this mark: at once if open, else once the page lets
   * it go; rejects as AbortError when stopped. The first look is synchronous: a call is held (its
   * mark written) before its caller's next event can reach the page.
   */
  async pass(mark: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) {
        Atomics.compareExchange(this.cell, 0, mark, SHUT);
        Atomics.compareExchange(this.cell, 0, released(mark), SHUT);
        throw new DOMException('Stopped', 'AbortError');
      }
      const value = Atomics.load(this.cell, 0);
      if (value === OPEN) return;
      if (value === released(mark) && Atomics.compareExchange(this.cell, 0, value, SHUT) === value) return;
      // Shut and nobody held: this call is. (Held by another call: its turn comes after.)
      if (value === SHUT) Atomics.compareExchange(this.cell, 0, SHUT, mark);
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
