/**
 * The page's rehearsal of a first run. A fresh page's first click paid for the first render of a
 * run on the page's thread: Svelte instantiating the columns, messages, chart and timeline for
 * the first time and V8 compiling them (177 ms of compiling in a first click, 3 ms in a second,
 * traced). Once the sandbox is ready, this plays a small recorded run of prompt 1
 * (./rehearsal-run.json) into the run's components, a part at a time in idle moments, then
 * unmounts them: what a first run calls is then compiled.
 *
 * Nothing of it is seen or heard: it is drawn off screen, hidden, inert and aria-hidden, in a closed
 * shadow root (no query of the page finds it), on a stage of its own (its own viewer and recorder:
 * no status, no History, no User Timing mark of a run), and it fetches nothing but its own chunk.
 * It yields at once: the learner's first pointer or key press, or a run starting, stops it there.
 */
import { mount, unmount } from 'svelte';
import type { RecordEvent, RunEvent, RunRecord } from '../run/record';
import { later } from '../run/later';
import { LiveRun } from '../run/live';
import type { SandboxSession } from '../page/sandbox-session.svelte';
import RunRehearsal from './components/RunRehearsal.svelte';
import type { RunStage } from './context';
import type { Playground } from './playground.svelte';
import { Presenter } from './presenter.svelte';
import { KEEPS_NOTHING, Recorder } from './recorder.svelte';
import rehearsalRun from './rehearsal-run.json';
import { Viewer } from './viewer.svelte';

/** How many of the run's components RunRehearsal.svelte mounts, one more at each idle moment. */
const PARTS = 6;
/** Events played into the stage at each idle moment (the record has 65). */
const EVENTS_A_TIME = 8;
/** An idle moment comes within this at the latest. */
const IDLE_MS = 100;

/** The recorded run the page rehearses: prompt 1 of the python sample, with the demo model. */
export const REHEARSAL_RUN = rehearsalRun as unknown as RunRecord;

/**
 * What the rehearsal's components read of a playground: a stage of its own. It keeps nothing: a
 * page's History holds only the learner's runs.
 */
class RehearsalStage implements RunStage {
  readonly running = false;
  readonly settings = { key: '' };
  notice = null;
  readonly recorder = new Recorder(KEEPS_NOTHING);
  readonly viewer = new Viewer(this.recorder, this);
  readonly presenter = new Presenter(this);
  /** No spare is shown waiting. */
  readonly warmup = { spare: null };
  /** The files panel lists the sandbox's files (read only). */
  readonly sandbox: Pick<SandboxSession, 'files' | 'workdir'>;

  constructor(sandbox: Pick<SandboxSession, 'files' | 'workdir'>) {
    this.sandbox = sandbox;
  }
}

/** What a rehearsal needs of the page: where to draw, and how to wait for an idle moment. */
export interface RehearsalHost {
  readonly document: Document;
  readonly sandbox: Pick<SandboxSession, 'files' | 'workdir'>;
  /** Calls `task` in an idle moment. */
  idle(task: () => void): void;
}

export class Rehearsal {
  /** Done: played to its end, or stopped. */
  done = false;
  /** Played to its end (not stopped before). */
  played = false;
  /** How far it got: the parts mounted and the events played. */
  readonly reached = { parts: 0, events: 0 };

  readonly #host: RehearsalHost;
  #element: HTMLElement | undefined;
  #component: ReturnType<typeof mount> | undefined;
  readonly #props = $state({ stage: undefined as unknown as Playground, parts: 0 });
  readonly #ended: Promise<void>;
  #end: () => void = () => {};

  constructor(host: RehearsalHost) {
    this.#host = host;
    this.#ended = new Promise((resolve) => (this.#end = resolve));
  }

  /** Plays the run, a step per idle moment; resolves when it has ended or was stopped. */
  play(record: RunRecord = REHEARSAL_RUN): Promise<void> {
    const { document } = this.#host;
    const element = (this.#element = document.createElement('div'));
    element.setAttribute('aria-hidden', 'true');
    element.inert = true;
    element.style.cssText =
      'position:fixed;left:-20000px;top:0;width:1280px;height:800px;overflow:hidden;visibility:hidden;contain:strict;pointer-events:none';
    const root = element.attachShadow({ mode: 'closed' });
    document.body.append(element);
    const stage = new RehearsalStage(this.#host.sandbox);
    this.#props.stage = stage as unknown as Playground; // the part of it they read (see RehearsalStage)
    this.#component = mount(RunRehearsal, { target: root, props: this.#props });
    let now = 0;
    const run = new LiveRun('rehearsal', record.title, record.settings, {
      epoch: 0,
      now: () => now,
    });
    stage.recorder.hooks.began?.(run);
    const events = record.events;
    // The page's stylesheets in the shadow root too, which the page's do not reach: a part drawn
    // unstyled is laid out, and its text shaped, in the browser's defaults, rehearsing nothing of
    // a real run's layout. Resolves once those copied now have loaded (from the cache).
    const styled: Element[] = [];
    const style = () =>
      Promise.all(
        [...document.head.querySelectorAll('link[rel="stylesheet"], style')].map((sheet) => {
          if (styled.includes(sheet)) return;
          styled.push(sheet);
          const copy = root.appendChild(sheet.cloneNode(true));
          if (copy instanceof HTMLLinkElement)
            return new Promise((settled) => {
              copy.addEventListener('load', settled, { once: true });
              copy.addEventListener('error', settled, { once: true });
            });
        }),
      );
    const step = () => {
      if (this.done) return;
      // A sheet the page has added since (the chart's, with its chunk).
      void style();
      if (this.#props.parts < PARTS) {
        this.reached.parts = ++this.#props.parts;
      } else {
        for (const event of events.slice(this.reached.events, this.reached.events + EVENTS_A_TIME)) {
          now = event.t;
          run.append(withoutTime(event));
          stage.recorder.hooks.recorded?.(event);
          this.reached.events++;
        }
        // The last events' frame drawn, then the end (the recorder puts events on screen once a frame).
        if (this.reached.events >= events.length)
          return void requestAnimationFrame(() => {
            this.played = !this.done;
            this.stop();
          });
      }
      this.#host.idle(step);
    };
    void style().then(() => this.#host.idle(step));
    return this.#ended;
  }

  /**
   * Stops at once: its element is removed now, its components unmounted in the next idle moment
   * (a stop comes with the learner's first click, whose run should not wait for their teardown).
   */
  stop(): void {
    if (this.done) return;
    this.done = true;
    this.#element?.remove();
    const component = this.#component;
    if (component) this.#host.idle(() => void unmount(component));
    this.#end();
  }
}

/** A record's event as the conversation appends it (the record stamps its time). */
function withoutTime(event: RecordEvent): RunEvent {
  const { t: _t, ...rest } = event;
  return rest as RunEvent;
}

/** A rehearsal on this page, in its idle moments. */
export function rehearse(sandbox: Pick<SandboxSession, 'files' | 'workdir'>): Rehearsal {
  return new Rehearsal({ document, sandbox, idle: (task) => later(task, IDLE_MS) });
}
