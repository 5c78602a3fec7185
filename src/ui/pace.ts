/**
 * How often a live run's big drawings follow its record. A run of hundreds of subagents adds
 * events many times a frame, and a redraw of its chart or of its Workers timeline restyles and lays
 * out hundreds of elements: above DRAW_ALL_UP_TO subagents (./column-window.ts) those follow the
 * record at most every GROUPED_DRAW_MS, and always draw its latest state; a smaller run's follow it
 * at every frame.
 */

/** The least time between two redraws of a grouped run's drawing, in ms. */
export const GROUPED_DRAW_MS = 250;

/**
 * Calls `draw` when asked, at most once every `ms`; asks in between are one draw, at the end of the
 * wait. Hand-written: a trailing throttle with a clock given for tests is a dozen lines, less than
 * what a dependency would bring.
 */
export class Pace {
  readonly #draw: () => void;
  readonly #ms: number;
  readonly #now: () => number;
  #drawnAt = -Infinity;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(draw: () => void, ms = GROUPED_DRAW_MS, now: () => number = () => performance.now()) {
    this.#draw = draw;
    this.#ms = ms;
    this.#now = now;
  }

  /** Asks for a draw: at the next turn, or once `ms` have passed since the last one. */
  ask(): void {
    if (this.#timer !== undefined) return;
    const wait = Math.max(0, this.#drawnAt + this.#ms - this.#now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#drawnAt = this.#now();
      this.#draw();
    }, wait);
  }

  /** Drops a draw asked for and not made (the drawing is gone). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
