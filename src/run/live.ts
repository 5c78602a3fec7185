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
import { EMPTY_VIEW, reduce, type RunView } from './reduce';

export class LiveRun {
  readonly record: RunRecord;
  #view: RunView;
  /** The page clock's time (performance.now()) of the record's `startedAt`. */
  readonly #origin: number;
  readonly #now: () => number;

  constructor(
    id: string,
    title: string,
    settings: RunSettings,
    clock: { epoch: number; now: () => number },
    start: RunView = EMPTY_VIEW,
  ) {
    this.record = newRecord(id, clock.epoch, title, settings);
    this.#now = clock.now;
    this.#origin = clock.now();
    this.#view = start;
  }

  get view(): RunView {
    return this.#view;
  }

  /** Milliseconds since the record started, on the page's clock. */
  time(at = this.#now()): number {
    return Math.max(0, Math.round((at - this.#origin) * 10) / 10);
  }

  /** Appends one event (stamped now, or at a given page time) and returns the new view. */
  append(event: RunEvent, at?: number): RunView {
    const events = this.record.events;
    // Time never runs backwards in a record, even for an event stamped by another thread.
    const t = Math.max(this.time(at), events.length ? events[events.length - 1].t : 0);
    events.push({ ...recordable(event), t } as RecordEvent);
    this.#view = reduce(this.#view, event);
    return this.#view;
  }
}
