/**
 * The screen's root: it makes the page's runtime (src/page/runtime.svelte.ts: it boots, runs,
 * compares and keeps; components read it as `playground.runtime`) and the screen's owners
 * (Settings, History's list, Viewer, Share, Presenter, the service worker's host), and connects
 * them. Nothing is decided here.
 */
import { pageAhead } from '../page/ahead';
import type { RunChoice } from '../page/comparison.svelte';
import { Runtime, type RunOutcome } from '../page/runtime.svelte';
import { browserEnvironment, ServiceWorkerHost } from '../page/service-worker.svelte';
import type { RunStatus } from '../run/record';
import { packedIn } from '../run/link-key';
import { readUrlSettings, type UrlSettings } from '../settings/url-settings';
import { History } from './history.svelte';
import { SCREEN_LOADS } from './loads-ahead';
import { Presenter } from './presenter.svelte';
import type { Sentence } from './sentence';
import { Settings } from './settings.svelte';
import { Share } from './share.svelte';
import { Viewer } from './viewer.svelte';

export class Playground {
  readonly url: UrlSettings;
  readonly settings: Settings;
  readonly history = new History();
  readonly runtime: Runtime;
  readonly viewer: Viewer;
  readonly share: Share;
  readonly presenter: Presenter;
  readonly serviceWorker: ServiceWorkerHost;
  /** A message for the user about their input (e.g. an empty prompt, a file that cannot be opened). */
  notice = $state.raw<Sentence | null>(null);
  /** The prompt box's text (Run and Compare read it). */
  prompt = $state('');
  /** The state of the run on screen now, whatever step of it is shown (see Viewer.endStatus). */
  status = $derived.by((): RunStatus =>
    this.viewer.opened || this.runtime.record ? this.viewer.endStatus : this.runtime.warmup.boot,
  );
  /** What the page loads for later once it is quiet (the dialogs' code), given by App.svelte. */
  #dialogs = () => {};

  constructor(search: string) {
    const url = (this.url = readUrlSettings(search));
    const settings = (this.settings = new Settings(url, () => {
      if (this.notice && !settings.problem) this.notice = null;
    }));
    if (url.ignored.length)
      this.notice = { key: 'notice.ignoredUrl', params: { list: url.ignored.join(', ') } };
    this.runtime = new Runtime({
      url,
      ahead: pageAhead(), // what the page started ahead of time (src/boot.ts)
      options: {
        // Settings that may not run say why (a question already asked says it on screen).
        mayRun: async () => {
          const refused = await settings.mayRun();
          this.notice = refused === null ? null : refused || this.notice;
          return refused === null;
        },
        forRun: (sandbox, choice) => settings.forRun(sandbox, choice),
        get context() {
          return settings.context;
        },
      },
      history: this.history,
      screen: {
        opened: () => this.viewer.opened !== null,
        leaveOpened: () => this.viewer.closeOpened(),
        followLive: () => (this.viewer.step = null),
        model: (model) => this.presenter.gated(model),
        recorded: (event) => this.presenter.recorded(event),
        started: () => void this.history.refresh(),
        dialogs: () => this.#dialogs(),
        ...SCREEN_LOADS,
      },
    });
    this.viewer = new Viewer(this.runtime.recorder, this);
    this.share = new Share(this.viewer, this);
    this.presenter = new Presenter(this);
    // Reloading to become cross-origin isolated is done for the learner only while nothing of
    // theirs is on screen; otherwise they are offered the reload.
    this.serviceWorker = new ServiceWorkerHost(
      browserEnvironment(),
      () => this.viewer.record === null && !this.running && this.prompt.trim() === '',
    );
    // The service worker's install fetches nothing while a run is under way.
    $effect(() => this.serviceWorker.setBusy(this.runtime.busy));
    // Moving through a run (a step, a record opened) and looking through one: work ahead waits.
    $effect(() => {
      void [this.viewer.step, this.viewer.opened];
      this.runtime.stepped();
    });
    $effect(() => this.runtime.viewing(this.viewer.opened !== null || this.viewer.pastStep));
  }

  /** A live run is under way (what the viewer, the presenter and the step bar read). */
  get running() {
    return this.runtime.running;
  }

  /**
   * The page's start (App.svelte, once mounted): a run the address links to (in its fragment, or
   * at `record=`, which comes over the network while the sandbox starts) is on screen before the
   * sandbox is taken over. Returns the teardown.
   */
  mount(hash: string, dialogs: () => void): () => void {
    this.#dialogs = dialogs;
    const start = () => (import.meta.env.PROD ? void this.serviceWorker.start() : undefined);
    const opening = () => {
      const shared = this.share.openFromUrl(this.url, hash);
      return packedIn(hash) === undefined ? Promise.resolve() : shared;
    };
    void this.runtime.startUp(opening, { urgent: this.serviceWorker.urgent, start });
    return () => {
      this.dispose();
      this.serviceWorker.dispose();
    };
  }

  /** Runs a prompt (in Compare's mode when it gives one); an empty one is refused, and said why. */
  async run(prompt: string, choice: RunChoice = {}): Promise<void> {
    this.#said(await this.runtime.run(prompt, choice));
  }

  /** Compare: the prompt in each context mode; an empty one is refused, and said why. */
  async compare(prompt: string, withFork: boolean): Promise<void> {
    this.#said(await this.runtime.compare(prompt, withFork));
  }

  #said(outcome: RunOutcome): void {
    if (outcome === 'emptyPrompt') this.notice = { key: 'notice.emptyPrompt' };
  }

  /** "Run this prompt again": the opened record's first prompt, in a new conversation. */
  async rerun(): Promise<void> {
    const prompt = this.viewer.opened?.record.title;
    if (prompt) await this.runtime.runAfresh(prompt);
  }

  /** The presentation holds the live run (its clock stops), or lets it go on. */
  hold(held: boolean): void {
    this.runtime.hold(held);
  }

  /** Answers a pending key question "no", saves what is recorded and ends every worker (page teardown). */
  dispose(): void {
    this.settings.answerKeyQuestion(false);
    this.runtime.dispose();
  }
}
