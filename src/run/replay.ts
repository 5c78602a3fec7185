/**
 * Stepping through a record: the view as it was after any step, fast enough to scrub.
 *
 * Steps are the record's events but streamed deltas (see `isStep`). The state after every
 * CHECKPOINT events is kept as it is first computed; a state is immutable and shares its data
 * with its neighbours (even the log, see ./list.ts), so a checkpoint costs little, and any step is
 * at most CHECKPOINT events of reducing away from one (however many deltas a step holds), then
 * one view made for the screen.
 *
 * What a replay learns of a record (its steps, its checkpoints) is kept with the record's events
 * for the next replay of them: a record opened again, or the same record replayed by another
 * part of the screen, starts from the checkpoints already made rather than from its first event.
 * A record only ever grows (a live run appends), so what was learnt of its start stays true.
 */
import { isStep, type RecordEvent } from './record';
import { reduceRange } from './reduce-range';
import { EMPTY_STATE, type RunState } from './state';
import { Views, type RunView } from './view';

export const CHECKPOINT = 1024;

/** What is known of one record's events: its steps and checkpoints so far (see Replay). */
interface Learnt {
  stepEvents: number[];
  checkpoints: RunState[];
  scanned: number;
}

/** Per record's events, for replays from the empty state (what every opened record starts from). */
const learnt = new WeakMap<readonly RecordEvent[], Learnt>();

export class Replay {
  readonly #events: readonly RecordEvent[];
  /** For each step (1-based position), the index of its event in the record. */
  readonly #stepEvents: number[];
  /** checkpoints[k] = the state after the record's first k * CHECKPOINT events. */
  readonly #checkpoints: RunState[];
  readonly #learnt: Learnt;
  readonly #views = new Views();

  constructor(events: readonly RecordEvent[], start: RunState = EMPTY_STATE) {
    this.#events = events;
    let known = start === EMPTY_STATE ? learnt.get(events) : undefined;
    if (!known) {
      known = { stepEvents: [], checkpoints: [start], scanned: 0 };
      if (start === EMPTY_STATE) learnt.set(events, known);
    }
    this.#learnt = known;
    this.#stepEvents = known.stepEvents;
    this.#checkpoints = known.checkpoints;
    this.#scan();
  }
  /** Takes in events appended to the record since (a live run). */
  #scan(): void {
    const events = this.#events;
    const known = this.#learnt;
    for (let i = known.scanned; i < events.length; i++) if (isStep(events[i])) this.#stepEvents.push(i);
    known.scanned = events.length;
  }

  /** How many steps the record has (0: nothing happened yet). */
  get steps(): number {
    this.#scan();
    return this.#stepEvents.length;
  }

  /** Whether the view at the last step holds every event of the record (none follows that step). */
  get lastStepIsEnd(): boolean {
    this.#scan();
    const n = this.#stepEvents.length;
    return n === 0 ? this.#events.length === 0 : this.#stepEvents[n - 1] === this.#events.length - 1;
  }

  /** The record's time of a step, in ms since it started (0 before the first step). */
  timeOf(step: number): number {
    this.#scan();
    if (step <= 0) return 0;
    return this.#events[this.#stepEvents[Math.min(step, this.#stepEvents.length) - 1]].t;
  }

  /** The step an event of the record belongs to: the first step at or after it. */
  stepOfEvent(eventIndex: number): number {
    this.#scan();
    let lo = 0;
    let hi = this.#stepEvents.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#stepEvents[mid] < eventIndex) lo = mid + 1;
      else hi = mid;
    }
    return Math.min(lo + 1, this.#stepEvents.length);
  }

  /**
   * Makes the checkpoints up to the record's end, for about `ms` of work at most; true once all are
   * made. A big record opened is prepared so, a slice at a time between the page's other tasks,
   * before it is shown: its first view then reduces at most CHECKPOINT events.
   */
  prepare(ms: number): boolean {
    this.#scan();
    const started = performance.now();
    for (;;) {
      const k = this.#checkpoints.length - 1;
      const done = k * CHECKPOINT;
      if (done + CHECKPOINT > this.#events.length) return true;
      this.#checkpoints.push(reduceRange(this.#checkpoints[k], this.#events, done, done + CHECKPOINT));
      if (performance.now() - started >= ms) return false;
    }
  }

  /** The view after `step` steps (and the streamed deltas before them). */
  at(step: number): RunView {
    this.#scan();
    const target = Math.max(0, Math.min(step, this.#stepEvents.length));
    const end = target === 0 ? 0 : this.#stepEvents[target - 1] + 1;
    const k = Math.min(Math.floor(end / CHECKPOINT), this.#checkpoints.length - 1);
    let state = this.#checkpoints[k];
    let done = k * CHECKPOINT;
    while (done < end) {
      const next = Math.min(end, (Math.floor(done / CHECKPOINT) + 1) * CHECKPOINT);
      state = reduceRange(state, this.#events, done, next);
      done = next;
      if (done % CHECKPOINT === 0 && this.#checkpoints.length === done / CHECKPOINT)
        this.#checkpoints.push(state);
    }
    return this.#views.of(state);
  }
}
