/**
 * The sandbox's boot, and what the page does ahead so that a learner's click waits for nothing:
 * the parent's worker, the spare subagent worker (the conversation starts it and names it:
 * ./conversation.ts; kept here for the screen to show), python3's runtime loaded in idle time on
 * the python sample, and what the screen loads for later (`ScreenLoads`: the canvases' fonts, the
 * Markdown renderer's first parse, the other languages' strings). The page's seam (./ahead.ts)
 * says whether any of it is done: with `ahead=off`, only the boot is.
 */
import type { AgentId } from '../core/messages';
import type { Ahead } from './ahead';
import type { Conversation } from './conversation';
import { bootFailure, type SandboxSession } from './sandbox-session.svelte';
import type { RunStatus } from '../run/record';
import { later } from '../run/later';
import type { UrlSettings } from '../settings/url-settings';
import { startWhenQuiet } from './quiet';
import { ScriptNotLoaded } from './worker-failure';
import { saveData } from './connection';

/** What the screen loads ahead for later, and the one sentence the boot's failure needs of it. */
export interface ScreenLoads {
  /** Soon after the sandbox is ready: work that fetches nothing (the canvases' fonts). */
  soon(): void;
  /** Once the agents' script is in, unless a run has begun: the Markdown renderer's first parse. */
  beforeRun(): void;
  /** Once the sandbox is ready and the page is quiet (`whenQuiet`): the other languages' strings. */
  quiet(): void;
  /** The failure's sentence when the sandbox's script did not load (a retry may do). */
  notLoaded(): string;
}

/** A screen that loads nothing ahead (tests, a page without one). */
export const LOADS_NOTHING: ScreenLoads = {
  soon() {},
  beforeRun() {},
  quiet() {},
  notLoaded: () => 'the sandbox did not load',
};

/** python3's idle-time load starts this long after the sandbox is ready (see #preloadPython)... */
const PRELOAD_AFTER_MS = 2500;
/** ...in the first idle moment, or after this much more at the latest. */
const PRELOAD_IDLE_MS = 3000;
/**
 * What the page fetches ahead for later (the other languages, the dialogs' code) starts this long
 * after the sandbox is ready at the earliest, and never while a run is under way (`whenQuiet`).
 */
export const AHEAD_AFTER_MS = 3000;
/**
 * What loads for later waits this long after a run has ended: a learner who clicks again soon
 * (the result read, the same prompt again) gets the machine and the link to that run.
 */
export const AFTER_RUN_MS = 5000;
/** The canvases' fonts are used once in the first idle moment after the sandbox is ready, or by then. */
export const CANVAS_TEXT_AFTER_MS = 200;

export class Warmup {
  /** Before any run: the sandbox is starting, ready, or failed to start. */
  boot = $state.raw<RunStatus>({ kind: 'booting' });
  /** The subagent worker started ahead for the next task, waiting for it, if there is one. */
  spare = $state<AgentId | null>(null);
  /**
   * python3's load ahead was left for its first use: the python sample on a metered or slow
   * connection (the header says so). Its download would take about a minute there, beside the runs.
   */
  pythonOnFirstUse = $state(false);

  readonly #url: UrlSettings;
  readonly #sandbox: SandboxSession;
  readonly #conversation: () => Conversation;
  readonly #running: () => boolean;
  readonly #ahead: Pick<Ahead, 'loads' | 'agentScriptIn'>;
  readonly #screen: ScreenLoads;
  /** Set when python3's idle-time load waits for the run under way, or the record looked through, to end. */
  #preloadWaits = false;
  /** When the last run ended (the page's clock), if one has. */
  #runEndedAt: number | null = null;
  /** A run is being looked through on screen (see viewing). */
  #viewing = false;
  /** The page's work ahead (python3, the other languages) is scheduled once. */
  #aheadScheduled = false;

  constructor(
    url: UrlSettings,
    sandbox: SandboxSession,
    conversation: () => Conversation,
    running: () => boolean,
    ahead: Pick<Ahead, 'loads' | 'agentScriptIn'>,
    screen: ScreenLoads = LOADS_NOTHING,
  ) {
    this.#ahead = ahead;
    this.#screen = screen;
    this.#url = url;
    this.#sandbox = sandbox;
    this.#conversation = conversation;
    this.#running = running;
  }

  /** Boots the sandbox once, then starts the parent's worker ahead of the first run. */
  async start(): Promise<void> {
    await this.#started(() => this.#sandbox.boot());
  }

  /** The sandbox's script did not load: a retry (`retry`) may do. */
  retryable = $state(false);

  /** Boots the sandbox again, after its script did not load. */
  async retry(): Promise<void> {
    if (!this.retryable) return;
    this.retryable = false;
    this.boot = { kind: 'booting' };
    await this.#started(() => this.#sandbox.retryBoot()).catch(() => {}); // the status line says why
  }

  async #started(boot: () => Promise<void>): Promise<void> {
    try {
      await boot();
      if (this.boot.kind === 'booting') this.boot = { kind: 'idle' };
      if (!this.#ahead.loads) return;
      // Once the agents' script fetched ahead is in: workers started while it still downloads
      // each fetch it again beside it, on a slow link before a first run.
      // A run clicked before then starts its own workers.
      const agentsIn = this.#ahead.agentScriptIn();
      void agentsIn.then(() => {
        if (!this.#running()) this.#conversation().warm();
      });
      this.#sandboxReady(agentsIn);
    } catch (error) {
      this.retryable = error instanceof ScriptNotLoaded;
      const reason = this.retryable ? this.#screen.notLoaded() : bootFailure(error);
      this.boot = { kind: 'failed', reason };
      throw error;
    }
  }

  /**
   * python3 is still to load ahead in this page (waiting for its moment, or loading). Other work
   * ahead that wants the machine (the service worker's install of the whole build) waits for it:
   * side by side on two cores, each slows the other.
   */
  get pythonAhead(): boolean {
    const sandbox = this.#sandbox;
    // Held back while a run is looked through (see viewing): a page that opened a shared run
    // would otherwise keep its offline copy waiting for a load that has not begun.
    return (
      this.#ahead.loads &&
      this.#url.sample === 'python' &&
      sandbox.offline &&
      !sandbox.pythonSettled &&
      !saveData() &&
      !this.#viewing
    );
  }

  /** Once a page, when the sandbox is ready: python3 and the other languages, in idle time. */
  #sandboxReady(agentsIn: Promise<void>): void {
    if (this.#aheadScheduled) return;
    this.#aheadScheduled = true;
    this.pythonOnFirstUse = this.#pythonWaitsForUse();
    // Nothing to fetch, little of the page's thread: the first run's frames then do not wait for
    // the system's font fallback.
    later(() => this.#screen.soon(), CANVAS_TEXT_AFTER_MS);
    // The Markdown renderer's first parse, once the agents' script is in (what a run draws with
    // comes after it on a slow link), unless a run has begun (it renders).
    void agentsIn.then(() => {
      if (!this.#running()) this.#screen.beforeRun();
    });
    this.#preloadOnceSettled();
    // The other languages' strings, once the page is quiet: a switch then waits for no fetch.
    this.whenQuiet(() => this.#screen.quiet());
  }

  /**
   * Runs `task`, which fetches something for later, once the page is quiet: AHEAD_AFTER_MS from
   * now at the earliest, then when no run is under way, in an idle moment: an idle moment alone
   * may come while a first run clicked at once is still fetching its agents' and commands'
   * scripts, and on a slow network they would share the bandwidth. Nothing with `ahead=off`.
   */
  whenQuiet(task: () => void): void {
    if (!this.#ahead.loads) return;
    startWhenQuiet(
      task,
      { running: this.#running, ahead: () => false, endedAt: () => this.#runEndedAt },
      { afterMs: AHEAD_AFTER_MS, aheadAtMostMs: 0, afterRunMs: AFTER_RUN_MS },
    );
  }

  /** On the python sample, offline, python3 not asked for yet, and the connection metered or slow. */
  #pythonWaitsForUse(): boolean {
    return this.#url.sample === 'python' && this.#sandbox.offline && !this.#sandbox.pythonUsed && saveData();
  }

  /** python3's load ahead yields to a run: stopped now, started again after it. */
  runStarting(): void {
    if (this.#sandbox.cancelPreload()) this.#preloadWaits = true;
  }

  runEnded(): void {
    this.#runEndedAt = performance.now();
    if (this.#preloadWaits && !this.#viewing)
      setTimeout(() => later(() => this.#preloadPython(), PRELOAD_IDLE_MS), AFTER_RUN_MS);
  }

  /**
   * A run is being looked through (`on`): a record opened read-only, or a step before the end of
   * the live one. python3's load ahead yields to it as to a run (stopped, started again once the
   * screen is back at the live end): Pyodide's compile beside a scrub
   * of 40,000 messages took two cores' worth of its frames (15-22 frames a second instead of
   * 25-36). A record looked at needs no python3; the first run after it loads it if need be.
   */
  viewing(on: boolean): void {
    if (on === this.#viewing) return;
    this.#viewing = on;
    if (on) {
      if (this.#sandbox.cancelPreload()) this.#preloadWaits = true;
    } else if (this.#preloadWaits && !this.#running()) {
      this.#preloadOnceSettled();
    }
  }

  /** python3's load ahead, PRELOAD_AFTER_MS from now, then in an idle moment (see #preloadPython). */
  #preloadOnceSettled(): void {
    setTimeout(() => later(() => this.#preloadPython(), PRELOAD_IDLE_MS), PRELOAD_AFTER_MS);
  }

  /**
   * On the python sample, python3's runtime loads in idle time once the page has settled, so
   * that prompt 3's check does not wait seconds for Pyodide. It is off the critical path (its own
   * worker), it waits for a run under way or a record looked through (see viewing), and it is skipped when the browser asks to save
   * data or the connection is slower than 4g: then the first python3 loads it.
   */
  #preloadPython(): void {
    if (!this.#ahead.loads) return;
    this.pythonOnFirstUse = this.#pythonWaitsForUse();
    if (this.#url.sample !== 'python' || this.#sandbox.pythonUsed || saveData()) return;
    // A page not yet cross-origin isolated is about to reload for it (a host without the headers,
    // src/page/service-worker.svelte.ts): what it loaded would be loaded again; its first use loads it.
    if (globalThis.crossOriginIsolated === false) return;
    if (this.#running() || this.#viewing) {
      this.#preloadWaits = true;
      return;
    }
    // A run ended a moment ago: the learner may click again, and gets the machine first.
    const sinceRun = this.#runEndedAt === null ? Infinity : performance.now() - this.#runEndedAt;
    if (sinceRun < AFTER_RUN_MS) {
      setTimeout(() => later(() => this.#preloadPython(), PRELOAD_IDLE_MS), AFTER_RUN_MS - sinceRun);
      return;
    }
    this.#preloadWaits = false;
    this.#sandbox.preloadPython();
  }
}
