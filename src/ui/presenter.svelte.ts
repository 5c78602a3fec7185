/**
 * The presenter's mode: any run on screen (live, kept or opened) stops at the lesson's moments
 * (src/run/moments.ts), each told by one sentence (presenter-caption.ts), until Continue.
 *
 *   Continue ─► the next moment is in the record ─► show its step, stopped there
 *            └► not yet (a live run) ─► follow the run until it is recorded, then stop there
 *
 * A live demo run waits while it is presented: the demo model's gate is shut (see
 * src/models/demo/gate.ts) and each model call waits there until the page has recorded its start
 * (`recorded`, at once, not once a frame) and the presentation has no moment to stop at before its
 * reply. So what the caption tells is what the run has done: a call told on screen has not
 * answered. A real model's run never waits; the presentation follows its record behind it.
 * Nothing here runs, and nothing is scanned, while the mode is off.
 */
import type { ModelConfig } from '../models/config';
import { callMark, DemoGate } from '../models/demo/gate';
import type { RunGate } from '../page/runtime.svelte';
import { Moments, type Moment } from '../run/moments';
import type { RecordEvent, RunEvent } from '../run/record';
import { t } from './i18n';
import { captionOf } from './presenter-caption';
import type { Viewer } from './viewer.svelte';

/** What the presenter needs of the playground. */
export interface Stage {
  readonly viewer: Viewer;
  /** A live run is under way. */
  readonly running: boolean;
  /** The live run is held by the presentation (true) or goes on (false): its clock stops meanwhile. */
  readonly runtime?: { hold(held: boolean): void };
}

export class Presenter implements RunGate {
  /** The mode is on. */
  on = $state(false);
  /** The moment on screen: -1 before the first, `moments.length` after the last. */
  at = $state(-1);
  /** Waiting for a live run to reach the next moment. */
  following = $state(false);
  /** The moments of the record on screen, so far. */
  moments = $state.raw<Moment[]>([]);

  readonly #stage: Stage;
  /** The hold on a live demo run (none without shared memory: see DemoGate). */
  readonly #gate = DemoGate.create();
  /** The mark of the model call seen starting and held at the gate, not yet let go. */
  #held: number | null = null;
  #scanner: Moments | null = null;
  #events: readonly RecordEvent[] | null = null;

  constructor(stage: Stage) {
    this.#stage = stage;
  }

  /** The moment on screen, if the presentation is at one. */
  moment = $derived.by((): Moment | null => (this.on ? (this.moments[this.at] ?? null) : null));

  /** The sentence for the moment on screen (null while the mode is off). */
  caption = $derived.by((): string | null => {
    if (!this.on) return null;
    const moment = this.moment;
    const record = this.#stage.viewer.record;
    if (moment && record) return captionOf(moment, record, this.#stage.viewer.openedEnd ?? undefined);
    if (this.following) return this.at < 0 ? t('presenter.start') : t('presenter.following');
    if (this.at < 0) return t('presenter.start');
    return this.moments.length ? t('presenter.end') : t('presenter.endNone');
  });

  /**
   * A demo run's model with the hold: its workers read it before each call (one read of shared
   * memory; the flag stays down unless a presentation stops the run). Any other model as it is.
   */
  gated(model: ModelConfig): ModelConfig {
    return model.provider === 'demo' && this.#gate ? { ...model, gate: this.#gate.cell } : model;
  }

  /**
   * Where the presentation is paused, counted from 1 (`at` of `of` moments recorded so far);
   * null unless it is stopped at a moment.
   */
  get paused(): { at: number; of: number } | null {
    if (!this.on || this.following || !this.moment) return null;
    return { at: this.at + 1, of: this.moments.length };
  }

  /** What the screen must bring into view and mark: the moment's agent and message. */
  get focus(): { agent: string; message: number } | null {
    const moment = this.moment;
    return moment ? { agent: moment.agent, message: moment.message } : null;
  }

  /** Whether Back has a moment to return to. */
  get canBack(): boolean {
    return this.on && this.#events !== null && Math.min(this.at, this.moments.length) > 0;
  }

  /** Whether Continue has anything to go on to. */
  get canContinue(): boolean {
    if (!this.on || this.following || !this.#events) return false;
    return this.at < this.moments.length || this.#live;
  }

  toggle(): void {
    if (this.on) this.stop();
    else this.start();
  }

  /** Turns the mode on, from the step on screen (a run shown at its end starts from its start). */
  start(): void {
    this.on = true;
    this.#scan();
    const viewer = this.#stage.viewer;
    let from = 0;
    if (this.#live || viewer.pastStep) {
      const step = viewer.step ?? viewer.steps;
      from = this.moments.findIndex((m) => viewer.stepOfEvent(m.index) >= step);
      if (from < 0) from = this.moments.length;
    }
    this.at = from - 1;
    this.following = false;
    this.continue();
  }

  stop(): void {
    this.on = false;
    this.following = false;
    this.at = -1;
    this.#scanner = null;
    this.#events = null;
    this.moments = [];
    this.#held = null;
    this.#stage.runtime?.hold(false);
    this.#gate?.open();
  }

  /** On to the next moment: at once if it is recorded, else once the live run gets there. */
  continue(): void {
    if (!this.on) return;
    this.#scan();
    // No run on screen yet: the first moment comes with the next run.
    if (!this.#events) return;
    if (this.at + 1 < this.moments.length) {
      this.#showMoment(this.at + 1);
    } else if (this.#live) {
      this.at = this.moments.length - 1;
      this.following = true;
      this.#stage.viewer.goLive();
    } else {
      // Past the last moment of a run that is over: its last event, as it ended.
      this.at = this.moments.length;
      this.following = false;
      this.#stage.viewer.goLatest();
    }
    this.#steer();
  }

  /** Back to the moment before the one on screen (a live run stays held where it is). */
  back(): void {
    if (!this.canBack) return;
    this.#scan();
    this.#showMoment(Math.min(this.at, this.moments.length) - 1);
    this.#steer();
  }

  /** Takes in what the record on screen gained (called as it grows, and when it changes). */
  update(): void {
    if (!this.on) return;
    this.#scan();
    if (this.following) {
      if (this.at + 1 < this.moments.length) this.#showMoment(this.at + 1);
      else if (!this.#live) {
        this.following = false;
        this.at = this.moments.length;
      }
    }
    this.#steer();
  }

  /** An event was just recorded in the live run: the gate follows at once (see the file comment). */
  recorded(event: RunEvent): void {
    if (!this.on || !this.#gate) return;
    this.#scan();
    if (event.type === 'model_start' && event.request) {
      this.#held = callMark(event.request.messages, event.agent !== 'parent');
      // The call waits at the shut gate from its start: the run's clock stops until it goes.
      if (!this.#gate.isOpen) this.#stage.runtime?.hold(true);
    }
    this.#steer();
  }

  get #live(): boolean {
    return this.#stage.running && this.#stage.viewer.opened === null;
  }

  #showMoment(at: number): void {
    this.at = at;
    this.following = false;
    this.#stage.viewer.stepToEvent(this.moments[at].index);
  }

  /**
   * Keeps the gate of a live demo run shut, and lets the call seen starting go once the
   * presentation goes on with no moment recorded ahead of it (its start may be one: a subagent's
   * call waits while its caption is on screen). Anything but a presented live run: open.
   */
  #steer(): void {
    const gate = this.#gate;
    if (!gate) return;
    if (!this.on || !this.#live) {
      this.#held = null;
      this.#stage.runtime?.hold(false);
      return gate.open();
    }
    gate.close();
    if (this.#held === null || !this.following || this.moments.length > this.at + 1) return;
    // Not held any more either way: let go now, or passed before the gate was shut.
    gate.release(this.#held);
    this.#held = null;
    this.#stage.runtime?.hold(false);
  }

  /** Scans the record on screen; another record (a new run, one opened) starts over. */
  #scan(): void {
    const events = this.#stage.viewer.record?.events ?? null;
    if (events !== this.#events) {
      this.#events = events;
      this.#scanner = events ? new Moments() : null;
      this.#held = null;
      this.moments = [];
      this.at = -1;
      // A run that starts while presenting goes on to its first moment.
      this.following = events !== null && this.#stage.viewer.opened === null;
    }
    const scanner = this.#scanner;
    if (!scanner || !events) return;
    const before = scanner.list.length;
    if (scanner.scan(events) !== before || this.moments.length !== before)
      this.moments = scanner.list.slice();
  }
}
