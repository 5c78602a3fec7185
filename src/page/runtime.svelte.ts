/**
 * The playground's runtime: one session of the page, with no screen in it. It starts the page
 * (the sandbox once a shared run is on screen, then History's list and the service worker when the
 * page is quiet), boots and warms up the sandbox and the agents' workers, runs prompts (each in a
 * context mode: the one chosen, or the one Compare gives), compares, keeps every run in History
 * as it grows, and wires its owners together: the sandbox's file changes reach the conversation
 * here. It knows when runs start and end.
 *
 *   run(prompt, choice) ─► may it run? (RunOptions) ─► the sandbox booted (Warmup) and settled
 *     ─► Conversation.run (./conversation.ts) ─► Recorder (the live record) ─► History
 *
 * The screen (src/ui/playground.svelte.ts) reads its state and calls its methods; what it needs of
 * the screen (the settings chosen, the viewer, the presenter's gate, what loads for later) comes in
 * as `RunOptions` and `RuntimeScreen`. Tested in Node with fake workers and a fake sandbox
 * (runtime.test.ts).
 */
import type { ContextMode } from '../core/variants';
import type { ModelConfig } from '../models/config';
import type { RunEvent, RunRecord, RunStatus } from '../run/record';
import type { UrlSettings } from '../settings/url-settings';
import { AgentWorkers, type AgentsAhead, type Lifecycle } from './agent-workers';
import type { Ahead } from './ahead';
import { Comparison, type Comparable, type RunChoice } from './comparison.svelte';
import { Conversation, type AgentPool, type RunSetup } from './conversation';
import type { LocalSandboxHost } from './local-sandbox';
import { startWhenQuiet } from './quiet';
import type { Recorder } from './recorder.svelte';
import { SandboxSession, type SandboxEvents } from './sandbox-session.svelte';
import { Warmup, type ScreenLoads } from './warmup.svelte';

/** How long after the page has started the service worker starts at the earliest (see startUp). */
export const SERVICE_WORKER_AFTER_MS = 5000;
/** The longest it waits for python3's load ahead to end. */
export const SERVICE_WORKER_WAITS_MS = 30_000;
/** A learner who moved through a run this recently is still at it (see `stepped`). */
export const STEPPING_QUIET_MS = 2000;

/** The settings a run is given: the ones chosen on screen (src/ui/settings.svelte.ts). */
export interface RunOptions {
  /** The context mode chosen on screen (a spare worker is kept for the next task unless `none`). */
  readonly context: ContextMode;
  /** Whether a run may start with these settings now; when not, the screen has said why. */
  mayRun(): Promise<boolean>;
  /** What a run starting now is given, in `choice`'s mode when it gives one. */
  forRun(sandbox: { label: string; workdir: string }, choice: RunChoice): RunSetup;
}

/** The runs on screen, as the runtime leaves and follows them (src/ui/viewer.svelte.ts). */
export interface RunsOnScreen {
  /** A run opened read-only (a link, a record, History), or null: viewing it contacts nothing. */
  readonly opened: object | null;
  /** A run is starting: the screen leaves the run it had opened read-only, if any. */
  closeOpened(): void;
  /** The screen follows the live run's end (a run begins, a fresh conversation). */
  followLive(): void;
}

/** What a live run passes through on screen (src/ui/presenter.svelte.ts). */
export interface RunGate {
  /** The model a run calls, as the screen lets it (the presenter holds it between steps). */
  gated(config: ModelConfig): ModelConfig;
  /** An event was appended to the live record. */
  recorded(event: RunEvent): void;
}

/** What the runtime tells the screen around it, and asks of it. */
export interface RuntimeScreen extends ScreenLoads {
  readonly view: RunsOnScreen;
  readonly gate: RunGate;
  /** The page has started (the sandbox is ready, or failed to start): History's list is read. */
  started(): void;
}

/** The page's service worker, as the runtime starts it and tells it of runs (./service-worker.svelte.ts). */
export interface ServiceWorkerStart {
  /** It starts at once: the page must reload to become cross-origin isolated. */
  readonly urgent: boolean;
  start(): void;
  /** A run or a comparison began (true) or ended: its install fetches nothing meanwhile. */
  setBusy(busy: boolean): void;
}

/** What the page starts once it has started (see `startUp`). */
export interface StartUpParts {
  serviceWorker?: ServiceWorkerStart;
  /** What the screen fetches for later once the page is quiet (the dialogs' code). */
  dialogs?(): void;
}

/** How a call to `run` (or `compare`) ended: it ran (the record says how it ended), or why not. */
export type RunOutcome = 'ran' | 'emptyPrompt' | 'busy' | 'refused' | 'notStarted';

/** What the page started ahead of time, as the runtime hands it to its owners (./ahead.ts). */
export type RuntimeAhead = Pick<
  Ahead<LocalSandboxHost>,
  'on' | 'spare' | 'loads' | 'agentScriptIn' | 'takeSandbox'
> &
  AgentsAhead;

export interface RuntimeDeps {
  url: UrlSettings;
  ahead: RuntimeAhead;
  options: RunOptions;
  /** The live record, kept in History as it grows. */
  recorder: Recorder;
  screen: RuntimeScreen;
  /** The agents' workers (AgentWorkers; fakes in tests). */
  agents?(lifecycle: Lifecycle): AgentPool;
  /** The sandbox (SandboxSession; a fake in tests). */
  sandbox?(events: SandboxEvents): SandboxSession;
  /** The page's clock (performance, or a fake). */
  clock?: { now(): number };
}

export class Runtime implements Comparable {
  readonly recorder: Recorder;
  readonly sandbox: SandboxSession;
  readonly warmup: Warmup;
  readonly conversation: Conversation;
  readonly comparison: Comparison;

  /** A run is under way (as the live record on screen says). */
  running = $derived.by(() => this.recorder.live.status.kind === 'running');

  readonly #options: RunOptions;
  readonly #screen: RuntimeScreen;
  readonly #clock: { now(): number };
  #runsStarted = 0;
  #runsEndedAt: number | null = null;
  /** When the learner last moved through a run (see `stepped`). */
  #steppedAt = -Infinity;
  #serviceWorker: ServiceWorkerStart | undefined;

  constructor(deps: RuntimeDeps) {
    const { url, ahead, options, screen } = deps;
    this.#options = options;
    this.#screen = screen;
    this.#clock = deps.clock ?? performance;
    this.recorder = deps.recorder;
    const events: SandboxEvents = {
      onChanges: (changes) => this.conversation.note({ type: 'files', changes }),
      onAdopted: () => {
        const { label, workdir } = this.sandbox;
        if (this.conversation.liveRun) this.conversation.note({ type: 'sandbox', label, workdir });
      },
      busy: () => this.busy,
      runBegun: () => this.#runsStarted > 0,
      runEndedAt: () => this.#runsEndedAt,
      early: (sample) => ahead.takeSandbox(sample),
      // A run opened read-only (a link, a record, a session, an import, History) contacts nothing.
      viewing: () => screen.view.opened !== null,
    };
    this.sandbox = deps.sandbox?.(events) ?? new SandboxSession(url, events, ahead.on);
    this.warmup = new Warmup(
      url,
      this.sandbox,
      () => this.conversation,
      () => this.running,
      ahead,
      screen,
    );
    const recorded = this.recorder.hooks.recorded;
    this.conversation = new Conversation({
      agents: deps.agents ?? ((lifecycle) => new AgentWorkers(lifecycle, ahead)),
      sandbox: this.sandbox,
      hooks: {
        ...this.recorder.hooks,
        recorded: (event) => {
          recorded?.(event);
          screen.gate.recorded(event);
        },
        spareChanged: (spare) => (this.warmup.spare = spare),
        wantsSpare: () => ahead.spare && this.warmup.boot.kind !== 'failed' && options.context !== 'none',
      },
    });
    this.comparison = new Comparison(this);
  }

  /** A run or a comparison is under way. */
  get busy(): boolean {
    return this.running || this.comparison.running;
  }

  /** The live record, once a prompt was run in this conversation. */
  get record(): RunRecord | null {
    return this.recorder.record;
  }

  /** The live run's state at its end, or the sandbox's boot before any run. */
  get status(): RunStatus {
    return this.recorder.record ? this.recorder.live.status : this.warmup.boot;
  }

  /** How many runs have begun on this page (counted from the click, before any boot they wait for). */
  get runsStarted(): number {
    return this.#runsStarted;
  }

  /** When the last run ended (the page's clock), if one has. */
  get runsEndedAt(): number | null {
    return this.#runsEndedAt;
  }

  /**
   * The page's start: `opening` first (a run opened from the address, on screen before the
   * sandbox is taken over), then the sandbox; History's list once it is ready (or failed: its
   * line says why), then the dialogs' code and the service worker once the page is quiet. The
   * service worker starts at once where the page must reload to become cross-origin isolated.
   * From now on what is recorded is saved when the page goes away (`pagehide`).
   */
  async startUp(
    opening: () => Promise<unknown>,
    { serviceWorker, dialogs }: StartUpParts = {},
  ): Promise<void> {
    // Saved at once when the page goes away (a reload mid-run keeps everything recorded).
    globalThis.addEventListener?.('pagehide', this.#persist);
    this.#serviceWorker = serviceWorker;
    const startServiceWorker = () => serviceWorker?.start();
    if (serviceWorker?.urgent) startServiceWorker();
    try {
      await opening();
      await this.start();
    } catch {
      // A failed boot is shown by the status line (`Failed: ...`); nothing more to do here.
    }
    // History after the sandbox: IndexedDB is never on the way to the first run.
    this.#screen.started();
    // The dialogs' code, for their first open: not beside a first run (see Warmup.whenQuiet).
    if (dialogs) this.warmup.whenQuiet(dialogs);
    // Its install downloads the whole build (for the next visit, offline): never beside a
    // learner's runs, their moving through a run, nor python3's load ahead.
    startWhenQuiet(
      startServiceWorker,
      {
        running: () => this.busy || this.#clock.now() - this.#steppedAt < STEPPING_QUIET_MS,
        ahead: () => this.warmup.pythonAhead,
      },
      { afterMs: SERVICE_WORKER_AFTER_MS, aheadAtMostMs: SERVICE_WORKER_WAITS_MS },
    );
  }

  /** Boots the sandbox once, then starts the parent's worker ahead of the first run. */
  start(): Promise<void> {
    return this.warmup.start();
  }

  /**
   * Runs a prompt in the parent's loop, in `choice`'s context mode when it gives one (else the one
   * chosen); resolves when the run is over. An empty prompt, a run under way or settings that may
   * not run refuse it.
   */
  async run(prompt: string, choice: RunChoice = {}): Promise<RunOutcome> {
    if (!prompt.trim()) return 'emptyPrompt';
    if (this.running) return 'busy';
    if (!(await this.#options.mayRun())) return 'refused';
    this.#screen.view.closeOpened();
    this.#runsStarted++;
    this.#serviceWorker?.setBusy(true);
    try {
      return await this.#run(prompt, choice);
    } finally {
      this.#serviceWorker?.setBusy(this.comparison.running);
    }
  }

  async #run(prompt: string, choice: RunChoice): Promise<RunOutcome> {
    this.warmup.runStarting();
    try {
      await this.start();
    } catch {
      return 'notStarted'; // the status line says why
    }
    await this.sandbox.settled();
    this.#screen.view.followLive();
    const setup = this.#options.forRun(this.sandbox, choice);
    setup.agent.model = this.#screen.gate.gated(setup.agent.model);
    await this.conversation.run(prompt, setup);
    this.#runsEndedAt = this.#clock.now();
    this.warmup.runEnded();
    return 'ran';
  }

  /** Stops the run at once (and a comparison's next modes): every agent worker is terminated; the sandbox and the arrays stay. */
  stop(): void {
    this.comparison.stop();
    this.conversation.stop();
  }

  /** A prompt again in a new conversation ("Run this prompt again" on an opened record). */
  async runAfresh(prompt: string): Promise<RunOutcome> {
    if (!prompt.trim()) return 'emptyPrompt';
    if (this.running) return 'busy';
    this.#screen.view.closeOpened();
    this.clear();
    return this.run(prompt);
  }

  /** A fresh conversation on a fresh copy of the sample project (each run of a comparison). */
  async startOver(): Promise<void> {
    this.#screen.view.closeOpened();
    this.clear();
    await this.start();
    await this.sandbox.reset();
  }

  /** Compare: the prompt in each context mode, on fresh copies of the sample project. */
  async compare(prompt: string, withFork: boolean): Promise<RunOutcome> {
    if (!prompt.trim()) return 'emptyPrompt';
    if (this.busy) return 'busy';
    this.#serviceWorker?.setBusy(true);
    try {
      await this.comparison.start(prompt, withFork);
    } finally {
      this.#serviceWorker?.setBusy(false);
    }
    return 'ran';
  }

  /** A fresh conversation (the files stay as they are); not while a run is under way. */
  clear(): void {
    if (this.running) return;
    this.conversation.clear();
    this.recorder.clear();
    this.#screen.view.followLive();
  }

  /** The presentation holds the live run (its clock stops), or lets it go on. */
  hold(held: boolean): void {
    this.conversation.liveRun?.hold(held);
  }

  /**
   * A run is being looked through on screen (a record opened read-only, or a step before the live
   * end): python3's load ahead yields to it as to a run.
   */
  viewing(on: boolean): void {
    this.warmup.viewing(on);
  }

  /** The learner moved through a run (a step, a record opened): the service worker's install waits. */
  stepped(): void {
    this.#steppedAt = this.#clock.now();
  }

  /** Saves what is recorded now (the page is going away, or may be). */
  persist(): void {
    this.recorder.persist();
  }

  readonly #persist = () => this.persist();

  /** Saves what is recorded and terminates every worker and the sandbox (page teardown). */
  dispose(): void {
    globalThis.removeEventListener?.('pagehide', this.#persist);
    this.recorder.persist();
    this.stop();
    this.conversation.dispose();
    this.sandbox.dispose();
  }
}
