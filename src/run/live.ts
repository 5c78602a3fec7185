/**
 * The run being recorded: its record grows by appending, and its view follows event by event.
 * No DOM and no Svelte: the page wraps it (src/ui/playground.svelte.ts), tests drive it directly.
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

  /** Milliseconds since the record started, on the page's clock. */
  time(at = this.#now()): number {
    return Math.max(0, Math.round((at - this.#origin) * 10) / 10);
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
