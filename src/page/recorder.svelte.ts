/**
 * The live record, as the screen reads it: what the conversation appends (./conversation.ts) is
 * kept in History as it grows (`RunKeeping`: saved in batches, and at once at the run's end, at a
 * fresh conversation and when the page goes away), and published at most once a frame, held
 * still while a subagent's worker starts. Nothing here decides what is recorded.
 */
import type { ConversationHooks } from './conversation';
import { runFigures } from '../run/figures';
import type { LiveRun } from '../run/live';
import type { RunRecord } from '../run/record';
import type { RecordWriter } from '../run/store';
import { EMPTY_VIEW, type RunView } from '../run/view';
import { Replay } from '../run/replay';

/** What a kept record's summary is made of, as History lists it. */
export type Summarize = ConstructorParameters<typeof RecordWriter>[2];

/** Saves a growing record (History's, once it is open; not at all if it cannot be). */
export interface Keeper {
  changed(): void;
  save(): Promise<void>;
  /** The record grows no more on this page (a new conversation): what kept it live is let go. */
  done(): void;
}

/** Where the learner's runs are kept: History (src/ui/history.svelte.ts), or nowhere. */
export interface RunKeeping {
  keep(record: RunRecord, summarize: Summarize): Keeper;
}

/** A History that keeps nothing: for a run that is not the learner's (an embed's). */
export const KEEPS_NOTHING: RunKeeping = {
  keep: () => ({ changed() {}, save: () => Promise.resolve(), done() {} }),
};

/** The longest the screen is held still while a subagent worker starts (see Recorder.#hold). */
const HOLD_MS = 150;

/** Calls `fn` at the next frame, once however often it was asked for before then. */
function onceAFrame(fn: () => void): () => void {
  let asked = false;
  return () => {
    if (asked) return;
    asked = true;
    nextFrame(() => {
      asked = false;
      fn();
    });
  };
}

/** The browser's next frame; a moment later where there are no frames (Node, in tests). */
function nextFrame(fn: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(fn);
  else setTimeout(fn, 0);
}

/** The page's timeline position of an epoch time measured in any thread. */
function pageTime(epoch: number): number {
  return epoch - performance.timeOrigin;
}

export class Recorder {
  /** The view of the live conversation, as of its latest event on screen. */
  live = $state.raw<RunView>(EMPTY_VIEW);
  /** The live record, once a prompt was run. */
  record = $state.raw<RunRecord | null>(null);
  /** How many steps the live record has, as of the view on screen. */
  steps = $state(0);
  /**
   * Bumped at most once a frame while a live record grows: the charts and totals read the whole
   * record, so they follow it a frame at a time rather than after every batch of events.
   */
  measured = $state(0);
  /** The live record's steps (to show any step of it). */
  replay: Replay | undefined;

  readonly #history: RunKeeping;
  #run: LiveRun | null = null;
  #writer: Keeper | undefined;
  #holds = 0;
  #held = false;

  constructor(history: RunKeeping) {
    this.#history = history;
  }

  /** What the conversation tells the recorder. */
  readonly hooks: ConversationHooks = {
    began: (run) => {
      this.#run = run;
      this.record = run.record;
      this.replay = new Replay(run.record.events);
      this.#writer = this.#history.keep(run.record, () => ({
        status: run.view.status,
        figures: runFigures(run.view),
      }));
    },
    recorded: (event) => {
      this.#writer?.changed();
      // A status at once (what may be clicked next follows it); the rest at most once a frame.
      if (event.type === 'status') this.#publish();
      else this.#publishSoon();
    },
    starting: (ready) => this.#hold(ready),
    timing: (event) => {
      const start = pageTime(event.startEpoch);
      try {
        performance.measure(event.name, { start, end: start + Math.max(0, event.durationMs) });
      } catch {
        // A measure with a start before the page's time origin is not worth failing a run over.
      }
    },
    ended: () => {
      this.#flushHeld();
      void this.#writer?.save();
      performance.mark('run:finished');
    },
  };

  /** A fresh conversation: nothing live on screen. */
  clear(): void {
    const writer = this.#writer;
    void writer?.save().finally(() => writer.done());
    this.#run = null;
    this.record = null;
    this.replay = undefined;
    this.#writer = undefined;
    this.live = EMPTY_VIEW;
    this.steps = 0;
  }

  /** Saves what is recorded now (the page is going away, or may be). */
  persist(): void {
    void this.#writer?.save();
  }

  /**
   * Holds screen updates while a subagent worker starts, for at most HOLD_MS. Chromium starts a
   * worker with the help of the page's thread, so a long repaint just after `new Worker` (the new
   * column, the parent's tool call) delays the worker by as long, and `subagent:spawn` with it. The record takes every event at once; only the screen waits.
   */
  #hold(starting: Promise<unknown>): void {
    this.#holds++;
    const release = () => {
      if (--this.#holds === 0) this.#flushHeld();
    };
    Promise.race([starting, new Promise((resolve) => setTimeout(resolve, HOLD_MS))]).then(release, release);
  }

  #flushHeld(): void {
    if (this.#holds > 0 || !this.#held) return;
    this.#held = false;
    this.#publish();
  }

  /** Puts the live record's view on screen, unless the screen is held (see #hold). */
  #publish(): void {
    if (this.#holds > 0) {
      this.#held = true;
      return;
    }
    const run = this.#run;
    if (!run) return;
    this.live = run.view;
    this.steps = this.replay?.steps ?? 0;
    this.#measureSoon();
  }

  /**
   * Publishes before the next frame: events come from the workers one message at a time, often
   * several in a frame, and each publication updates the DOM and scrolls the arrays to their end
   * (a layout). Measured on a page's first run of prompt 1, that was a third of its time.
   */
  readonly #publishSoon = onceAFrame(() => this.#publish());

  readonly #measureSoon = onceAFrame(() => this.measured++);
}
