/**
 * The run being recorded: its record grows by appending, and its view follows event by event.
 * No DOM and no Svelte: the page's Conversation wraps it (src/page/conversation.ts), tests drive it directly.
 */
import {
  newRecord,
  recordable,
  type RecordEvent,
  type RunEvent,
  type RunRecord,
  type RunSettings,
} from './record';
import { reduce } from './reduce';
import { EMPTY_STATE, type RunState } from './state';
import { Views, type RunView } from './view';

export class LiveRun {
  readonly record: RunRecord;
  #state: RunState;
  readonly #views = new Views();
  /** The page clock's time (performance.now()) of the record's `startedAt`. */
  readonly #origin: number;
  readonly #now: () => number;
  /** Page times the run was held by the presenter (a demo call waiting for Continue): [from, to]. */
  readonly #held: Array<[number, number]> = [];
  #heldSince: number | null = null;

  constructor(
    id: string,
    title: string,
    settings: RunSettings,
    clock: { epoch: number; now: () => number },
    start: RunState = EMPTY_STATE,
  ) {
    this.record = newRecord(id, clock.epoch, title, settings);
    this.#now = clock.now;
    this.#origin = clock.now();
    this.#state = start;
  }

  /** What the screen shows now (made when read: events often come several to a frame). */
  get view(): RunView {
    return this.#views.of(this.#state);
  }

  /**
   * Milliseconds since the record started, on the page's clock, less the time the run was held
   * before `at`: a presented run's pauses are no time of its model or its tools.
   */
  time(at = this.#now()): number {
    let held = 0;
    for (const [from, to] of this.#held) held += Math.max(0, Math.min(to, at) - from);
    if (this.#heldSince !== null) held += Math.max(0, at - this.#heldSince);
    return Math.max(0, Math.round((at - this.#origin - held) * 10) / 10);
  }

  /** The run is held (true) or goes on (false): the record's clock stops while it is held. */
  hold(held: boolean, at = this.#now()): void {
    if (held && this.#heldSince === null) this.#heldSince = at;
    if (!held && this.#heldSince !== null) {
      this.#held.push([this.#heldSince, at]);
      this.#heldSince = null;
    }
  }

  /** Appends one event (stamped now, or at a given page time). */
  append(event: RunEvent, at?: number): void {
    const events = this.record.events;
    // Time never runs backwards in a record, even for an event stamped by another thread.
    const t = Math.max(this.time(at), events.length ? events[events.length - 1].t : 0);
    events.push({ ...recordable(event), t } as RecordEvent);
    this.#state = reduce(this.#state, event);
  }
}
