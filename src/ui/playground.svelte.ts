/**
 * The screen's root: it makes the screen's owners (Settings, History's list, Viewer, Share,
 * Presenter, the service worker's host) and the page's runtime (src/page/runtime.svelte.ts: it
 * boots, runs, compares and keeps; components read it as `playground.runtime`), and connects
 * them. Nothing is decided here.
 */
import { pageAhead } from '../page/ahead';
import type { RunChoice } from '../page/comparison.svelte';
import { Recorder } from '../page/recorder.svelte';
import { Runtime, type RunOutcome } from '../page/runtime.svelte';
import { browserEnvironment, ServiceWorkerHost } from '../page/service-worker.svelte';
import { packedIn } from '../run/link-key';
import type { RunStatus } from '../run/record';
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
  readonly viewer: Viewer;
  readonly share: Share;
  readonly presenter: Presenter;
  readonly runtime: Runtime;
  readonly serviceWorker: ServiceWorkerHost;
  /** A message for the user about their input (e.g. an empty prompt, a file that cannot be opened). */
  notice = $state.raw<Sentence | null>(null);
  /** The prompt box's text (Run and Compare read it). */
  prompt = $state('');
  /** The state of the run on screen now, whatever step of it is shown (see Viewer.endStatus). */
  status = $derived.by((): RunStatus =>
    this.viewer.opened || this.runtime.record ? this.viewer.endStatus : this.runtime.warmup.boot,
  );

  constructor(search: string) {
    const url = (this.url = readUrlSettings(search));
    this.settings = new Settings(url, this);
    const recorder = new Recorder(this.history);
    this.viewer = new Viewer(recorder, this);
    this.share = new Share(this.viewer, this);
    this.presenter = new Presenter(this);
    const started = () => void this.history.refresh();
    const screen = { view: this.viewer, gate: this.presenter, started, ...SCREEN_LOADS };
    this.runtime = new Runtime({ url, ahead: pageAhead(), options: this.settings, recorder, screen });
    // Reloading to become cross-origin isolated is done for the learner only while nothing of
    // theirs is on screen; otherwise they are offered the reload.
    this.serviceWorker = new ServiceWorkerHost(
      browserEnvironment(),
      () => this.viewer.record === null && !this.running && this.prompt.trim() === '',
    );
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
   * sandbox is taken over. `dialogs` loads the dialogs' code once the page is quiet. Returns the
   * teardown.
   */
  mount(hash: string, dialogs: () => void): () => void {
    const opening = () => {
      const shared = this.share.openFromUrl(this.url, hash);
      return packedIn(hash) === undefined ? Promise.resolve() : shared;
    };
    const serviceWorker = import.meta.env.PROD ? this.serviceWorker : undefined;
    void this.runtime.startUp(opening, { serviceWorker, dialogs });
    return () => {
      this.settings.answerKeyQuestion(false); // a pending key question is answered "no"
      this.runtime.dispose();
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
}
