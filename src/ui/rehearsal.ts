/**
 * The page's rehearsal of a first run. A fresh page's first click paid for the first render of a
 * run on the page's thread: Svelte instantiating the columns, messages, chart and timeline for
 * the first time and V8 compiling them (177 ms of compiling in a first click, 3 ms in a second,
 * traced). Once the sandbox is ready, this plays a small recorded run of prompt 1
 * (./rehearsal-run.json) into the run's components in an idle moment, draws it once, then
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

  readonly #host: RehearsalHost;
  #element: HTMLElement | undefined;
  #component: ReturnType<typeof mount> | undefined;
  readonly #ended: Promise<void>;
  #end: () => void = () => {};

  constructor(host: RehearsalHost) {
    this.#host = host;
    this.#ended = new Promise((resolve) => (this.#end = resolve));
  }

  /**
   * Plays the run in the page's next idle moment: its parts are mounted and given the whole run,
   * which the recorder puts on screen in the next frame; the rehearsal ends once that frame is
   * drawn. Resolves when it has ended or was stopped.
   */
  play(record: RunRecord = REHEARSAL_RUN): Promise<void> {
    const { document } = this.#host;
    const element = (this.#element = document.createElement('div'));
    element.setAttribute('aria-hidden', 'true');
    element.inert = true;
    element.style.cssText =
      'position:fixed;left:-20000px;top:0;width:1280px;height:800px;overflow:hidden;visibility:hidden;contain:strict;pointer-events:none';
    const root = element.attachShadow({ mode: 'closed' });
    document.body.append(element);
    // In one moment, not a part at a time: a first click comes a few frames after the page has
    // loaded what a run draws with, and found a rehearsal played over 15 moments still under way.
    this.#host.idle(() => {
      if (this.done) return;
      adoptPageStyles(root, document);
      const stage = new RehearsalStage(this.#host.sandbox);
      // The part of a playground they read (see RehearsalStage).
      this.#component = mount(RunRehearsal, {
        target: root,
        props: { stage: stage as unknown as Playground },
      });
      let now = 0;
      const run = new LiveRun('rehearsal', record.title, record.settings, { epoch: 0, now: () => now });
      stage.recorder.hooks.began?.(run);
      for (const event of record.events) {
        now = event.t;
        run.append(withoutTime(event));
        stage.recorder.hooks.recorded?.(event);
      }
      // The recorder's frame, then the end once it is drawn: in that idle moment, the teardown too
      // (left for another, it came in the middle of a first run clicked just after).
      requestAnimationFrame(() =>
        this.#host.idle(() => {
          if (this.done) return;
          this.played = true;
          this.#finish(true);
        }),
      );
    });
    return this.#ended;
  }

  /**
   * Stops at once: its element is removed now, its components unmounted in the next idle moment
   * (a stop comes with the learner's first click, whose run should not wait for their teardown).
   */
  stop(): void {
    this.#finish(false);
  }

  #finish(unmountNow: boolean): void {
    if (this.done) return;
    this.done = true;
    this.#element?.remove();
    const component = this.#component;
    if (component && unmountNow) void unmount(component);
    else if (component) this.#host.idle(() => void unmount(component));
    this.#end();
  }
}

/**
 * The page's stylesheets in `root` too, which the page's do not reach: a part drawn unstyled is laid
 * out, and its text shaped, in the browser's defaults, rehearsing nothing of a real run's layout.
 * Adopted as copies of their rules, at once (a cloned <link> loads again, 30 ms later on a fresh page).
 */
function adoptPageStyles(root: ShadowRoot, document: Document): void {
  const copies: CSSStyleSheet[] = [];
  for (const sheet of document.styleSheets) {
    const copy = new CSSStyleSheet();
    try {
      copy.replaceSync([...sheet.cssRules].map((rule) => rule.cssText).join('\n'));
    } catch {
      continue; // a sheet whose rules the page may not read: its parts stay in the defaults
    }
    copies.push(copy);
  }
  root.adoptedStyleSheets = copies;
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
