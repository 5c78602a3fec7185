/**
 * Wires the page's owners together, and runs, stops and compares on a click: Conversation (src/page),
 * SandboxSession, Settings, Recorder (the live record on screen), Viewer, Share, Warmup, History, Comparison.
 */
import { pageAhead } from '../page/ahead';
import { AgentWorkers } from '../page/agent-workers';
import { Conversation } from '../page/conversation';
import { SandboxSession } from '../page/sandbox-session.svelte';
import type { RunStatus } from '../run/record';
import { readUrlSettings, type UrlSettings } from '../settings/url-settings';
import { Comparison } from './comparison.svelte';
import { History } from './history.svelte';
import { Presenter } from './presenter.svelte';
import { Recorder } from './recorder.svelte';
import type { Sentence } from './sentence';
import { Settings, type RunChoice } from './settings.svelte';
import { Share } from './share.svelte';
import { Viewer } from './viewer.svelte';
import { Warmup } from './warmup.svelte';

export class Playground {
  readonly url: UrlSettings;
  readonly settings: Settings;
  readonly sandbox: SandboxSession;
  readonly history = new History();
  readonly recorder = new Recorder(this.history);
  readonly viewer: Viewer;
  readonly share: Share;
  readonly warmup: Warmup;
  readonly comparison: Comparison;
  readonly conversation: Conversation;
  readonly presenter: Presenter;

  /** A message for the user about their input (e.g. an empty prompt, a file that cannot be opened). */
  notice = $state.raw<Sentence | null>(null);
  /** The prompt box's text (Run and Compare read it). */
  prompt = $state('');
  running = $derived(this.recorder.live.status.kind === 'running');
  /** The state of the run on screen now, whatever step of it is shown (see Viewer.endStatus). */
  status = $derived.by((): RunStatus => {
    if (this.viewer.opened) return this.viewer.endStatus;
    return this.recorder.record ? this.viewer.endStatus : this.warmup.boot;
  });

  constructor(search: string) {
    const url = (this.url = readUrlSettings(search));
    this.settings = new Settings(url, () => {
      if (this.notice && !this.settings.problem) this.notice = null;
    });
    // What the page started ahead of time, handed to the owners that take it over.
    const ahead = pageAhead();
    const list = url.ignored.join(', ');
    if (list) this.notice = { key: 'notice.ignoredUrl', params: { list } };
    this.sandbox = new SandboxSession(
      url,
      {
        onChanges: (changes) => this.conversation.note({ type: 'files', changes }),
        onAdopted: () => {
          const { label, workdir } = this.sandbox;
          if (this.conversation.liveRun) this.conversation.note({ type: 'sandbox', label, workdir });
        },
        busy: () => this.busy,
        early: (sample) => ahead.takeSandbox(sample),
        // A run opened read-only (a link, a record, a session, an import, History) contacts nothing.
        viewing: () => this.viewer.opened !== null,
      },
      ahead.on,
    );
    this.warmup = new Warmup(
      url,
      this.sandbox,
      () => this.conversation,
      () => this.running,
      ahead,
    );
    this.conversation = new Conversation({
      agents: (lifecycle) => new AgentWorkers(lifecycle, ahead),
      sandbox: this.sandbox,
      hooks: {
        ...this.recorder.hooks,
        recorded: (event) => {
          this.recorder.hooks.recorded?.(event);
          this.presenter.recorded(event);
        },
        spareChanged: (spare) => (this.warmup.spare = spare),
        wantsSpare: () =>
          ahead.spare && this.warmup.boot.kind !== 'failed' && this.settings.context !== 'none',
      },
    });
    this.viewer = new Viewer(this.recorder, this);
    this.share = new Share(this.viewer, this);
    this.comparison = new Comparison(this);
    this.presenter = new Presenter(this);
  }

  /** The presentation holds the live run (its clock stops), or lets it go on. */
  hold(held: boolean): void {
    this.conversation.liveRun?.hold(held);
  }

  /** A run or a comparison is under way. */
  get busy(): boolean {
    return this.running || this.comparison.running;
  }

  /** Boots the sandbox once, then starts the parent's worker ahead of the first run. */
  start(): Promise<void> {
    return this.warmup.start();
  }

  /** Starts the parent loop on a prompt (in Compare's mode when it gives one); refuses an empty one. */
  async run(prompt: string, choice: RunChoice = {}): Promise<void> {
    if (!prompt.trim()) return void (this.notice = { key: 'notice.emptyPrompt' });
    if (this.running) return;
    const refused = await this.settings.mayRun();
    if (refused !== null) return void (this.notice = refused === false ? this.notice : refused);
    this.notice = null;
    this.viewer.closeOpened();
    this.sandbox.runsStarted++;
    this.warmup.runStarting();
    try {
      await this.start();
    } catch {
      return; // the status line says why
    }
    await this.sandbox.settled();
    this.viewer.step = null;
    const setup = this.settings.forRun(this.sandbox, choice);
    setup.agent.model = this.presenter.gated(setup.agent.model);
    await this.conversation.run(prompt, setup);
    this.sandbox.runsEndedAt = performance.now();
    this.warmup.runEnded();
  }

  /** Stops the run at once: every agent worker is terminated; the sandbox and the arrays stay. */
  stop(): void {
    this.comparison.stop();
    this.conversation.stop();
  }

  /** "Run this prompt again": the opened record's first prompt, in a new conversation. */
  async rerun(): Promise<void> {
    const prompt = this.viewer.opened?.record.title;
    if (!prompt || this.running) return;
    this.viewer.closeOpened();
    this.clear();
    await this.run(prompt);
  }

  /** A fresh conversation on a fresh copy of the sample project (each run of a comparison). */
  async startOver(): Promise<void> {
    this.viewer.closeOpened();
    this.clear();
    await this.start();
    await this.sandbox.reset();
  }

  /** Compare: the prompt in each context mode, on fresh copies of the sample project. */
  async compare(prompt: string, withFork: boolean): Promise<void> {
    if (!prompt.trim()) return void (this.notice = { key: 'notice.emptyPrompt' });
    if (this.running || this.comparison.running) return;
    await this.comparison.start(prompt, withFork);
  }

  /** Starts over: a fresh conversation (the files stay as they are). */
  clear(): void {
    if (this.running) return;
    this.conversation.clear();
    this.recorder.clear();
    this.viewer.step = null;
  }

  /** Saves what is recorded and terminates every worker (page teardown). */
  dispose(): void {
    this.settings.answerKeyQuestion(false);
    this.recorder.persist();
    this.stop();
    this.conversation.dispose();
    this.sandbox.dispose();
  }
}
