/**
 * Playback of a run, step by step, at 0.5x to 4x of the time the steps took (for a projector in
 * a classroom). Long waits (a slow model call) are shortened to MAX_GAP_MS, and steps that came
 * at once are shown MIN_GAP_MS apart, so that the eye can follow.
 */
export const SPEEDS = [0.5, 1, 2, 4] as const;
export type PlaybackSpeed = (typeof SPEEDS)[number];

const MIN_GAP_MS = 120;
const MAX_GAP_MS = 1500;

/** What playback needs of the playground. */
export interface Steppable {
  readonly steps: number;
  readonly step: number | null;
  stepTo(step: number): void;
  timeOf(step: number): number;
}

export class Playback {
  playing = $state(false);
  speed = $state<PlaybackSpeed>(1);
  readonly #target: Steppable;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(target: Steppable) {
    this.#target = target;
  }

  /** Plays from the shown step (from the start when at the end). */
  play(): void {
    const target = this.#target;
    if (target.steps === 0) return;
    if ((target.step ?? target.steps) >= target.steps) target.stepTo(0);
    this.playing = true;
    this.#next();
  }

  pause(): void {
    this.playing = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  #next(): void {
    const target = this.#target;
    const at = target.step ?? target.steps;
    if (!this.playing || at >= target.steps) {
      this.pause();
      return;
    }
    const gap = target.timeOf(at + 1) - target.timeOf(at);
    const wait = Math.min(MAX_GAP_MS, Math.max(MIN_GAP_MS, gap)) / this.speed;
    this.#timer = setTimeout(() => {
      target.stepTo(at + 1);
      this.#next();
    }, wait);
  }
}
