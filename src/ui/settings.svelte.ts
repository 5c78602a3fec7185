/**
 * The next run's settings, and the screen's language: the model (Settings dialog, where each value is kept: model-settings.ts),
 * the relay, Test connection, the key question, the context mode and the loop limits, and how many
 * subagents may run at once. What a run is given is taken from here when it starts (`forRun`):
 * settings changed during a run apply to the next.
 */
import { LIMITS } from '../core/tools';
import {
  CONTEXT_MODES,
  limitProblem,
  REFERENCE_LIMITS,
  SUBAGENTS_AT_ONCE,
  subagentsAtOnceProblem,
  type ContextMode,
  type LoopLimits,
} from '../core/variants';
import { probeRelay, RELAY_PATH } from '../models/relay';
import type { RunChoice } from '../page/comparison.svelte';
import type { RunSetup } from '../page/conversation';
import type { RunOptions } from '../page/runtime.svelte';
import { redactRecord, Redactor, redactURL } from '../run/secrets';
import {
  DEFAULTS,
  hostOf,
  keyGoesElsewhere,
  loadSettings,
  modelConfig,
  originOf,
  saveSettings,
  scrub,
  settingsProblem,
  type ModelSettings,
} from '../settings/model-settings';
import { loadDemoSpeed, saveDemoSpeed, type DemoSpeed } from '../settings/demo-speed';
import { chooseLanguage } from '../settings/language';
import { DEFAULT_MODEL, type UrlSettings } from '../settings/url-settings';
import { t } from './i18n';
import { storedLanguage, useLanguage } from './language.svelte';
import { say, sentenceOf, settingsSentence, type Sentence } from './sentence';
import { messageOf } from '../core/errors';

/** Where the screen shows a notice about the learner's input (src/ui/playground.svelte.ts). */
export interface Noticeboard {
  notice: Sentence | null;
}

export class Settings implements RunOptions {
  /** The Settings dialog's values (see model-settings.ts for where each one is kept). */
  modelSettings = $state.raw<ModelSettings>(DEFAULTS);
  /**
   * Whether this page's server relays API calls (`npm start`, `vite preview`): known once
   * /relay/health answers; a static host has no relay.
   */
  relay = $state<'checking' | 'available' | 'unavailable'>('checking');
  /** Set while the learner is asked whether the key may go to a host it was not saved for. */
  keyQuestion = $state.raw<{ savedFor: string; sendTo: string } | null>(null);
  /** How the next run splits the parent's work (URL `context`; see setContext). */
  context = $state<ContextMode>('isolated');
  /** The next run's loop limits (URL `cap`, `cut`, `maxTokens`, `depth`; see setLimits). */
  limits = $state.raw<LoopLimits>(REFERENCE_LIMITS);
  /**
   * How many subagents of a run may work at once (URL `parallel`): a limit on the machine, not a
   * teaching variant; the model sees the same either way, further tasks wait their turn.
   */
  subagentsAtOnce = $state<number>(SUBAGENTS_AT_ONCE.default);
  /** How fast the demo model streams in the next live run (`Demo speed`, URL `speed`). */
  demoSpeed = $state<DemoSpeed>('normal');

  readonly #url: UrlSettings;
  readonly #relayProbe: Promise<boolean>;
  #answerKeyQuestion: ((send: boolean) => void) | undefined;

  readonly #board: Noticeboard;

  /** `board`: where the settings say why a run may not start, or what of the address was ignored. */
  constructor(url: UrlSettings, board: Noticeboard = { notice: null }) {
    this.#url = url;
    this.#board = board;
    if (url.ignored.length)
      board.notice = { key: 'notice.ignoredUrl', params: { list: url.ignored.join(', ') } };
    useLanguage(
      chooseLanguage({ url: url.lang, stored: storedLanguage(), browser: navigator.languages ?? [] }),
    );
    // An embedded run calls no model: nothing is asked of the server for it.
    const probe = url.embed ? Promise.resolve(false) : probeRelay(location.origin);
    this.#relayProbe = probe.then((available) => {
      this.relay = available ? 'available' : 'unavailable';
      return available;
    });
    this.modelSettings = loadSettings(storage(), url);
    this.context = url.context;
    this.limits = { ...REFERENCE_LIMITS, ...url.limits };
    this.subagentsAtOnce = url.subagentsAtOnce ?? SUBAGENTS_AT_ONCE.default;
    this.demoSpeed = loadDemoSpeed(storage(), url);
  }

  /**
   * The demo's pace from the next live run on, kept for the next visits; a `speed` in the address
   * follows it, so that a reload or a copied link keeps the pace chosen.
   */
  setDemoSpeed(speed: DemoSpeed): void {
    this.demoSpeed = speed;
    saveDemoSpeed(storage(), speed);
    if (typeof location === 'undefined' || typeof history === 'undefined') return;
    const query = location.search.replace(/([?&]speed=)[^&#]*/, `$1${speed}`);
    if (query !== location.search)
      history.replaceState(history.state, '', `${location.pathname}${query}${location.hash}`);
  }

  get modelLabel(): string {
    const { provider, model, baseURL } = this.modelSettings;
    if (provider === 'demo') return t('badge.demoModel');
    const host = /^https?:\/\/([^/?#]+)/.exec(baseURL)?.[1] ?? baseURL;
    return host === 'api.anthropic.com' ? `${model} (Anthropic API)` : `${model} (${host})`;
  }

  /** The API key as saved: never part of anything recorded or exported. */
  get key(): string {
    return this.modelSettings.apiKey;
  }

  /** The endpoint calls go to (its secrets are never part of a run's record). */
  get endpoint(): string {
    return this.modelSettings.baseURL;
  }

  /** Keeps the Settings dialog's values; the key is stored only if the learner asked for it. */
  save(values: ModelSettings): void {
    const apiKey = values.apiKey.trim();
    this.modelSettings = {
      ...values,
      apiKey,
      baseURL: values.baseURL.trim(),
      model: values.model.trim(),
      // Saved with the key and the base URL side by side (the dialog names the key's host), the
      // key now belongs to that endpoint.
      keyOrigin: apiKey ? originOf(values.baseURL) : '',
    };
    saveSettings(storage(), this.modelSettings);
    // A notice about the settings saved before may be out of date.
    if (this.#board.notice && !this.problem) this.#board.notice = null;
  }

  /** What keeps the saved settings from running, or null. */
  get problem(): Sentence | null {
    const problem = settingsProblem(this.modelSettings);
    return problem ? settingsSentence(problem) : null;
  }

  /** Where this page's relay answers, once it did; null on a static host. */
  #relayURL(): string | null {
    return this.relay === 'available' ? `${location.origin}${RELAY_PATH}` : null;
  }

  /**
   * Settings' "Test connection": one tiny call with the dialog's values (through the relay if
   * ticked), as a sentence: works, with the model that answered, or why not. The key is never
   * part of the sentence, and a saved key is not sent to another host than its own before Save.
   */
  async testConnection(values: ModelSettings, signal?: AbortSignal): Promise<{ ok: boolean; text: string }> {
    const relayAvailable = await this.#relayProbe;
    const problem = settingsProblem(values, relayAvailable);
    if (problem) return { ok: false, text: say(settingsSentence(problem)) };
    const saved = this.modelSettings;
    const apiKey = values.apiKey.trim();
    if (apiKey === saved.apiKey && saved.keyOrigin && originOf(values.baseURL) !== saved.keyOrigin) {
      return {
        ok: false,
        text: t('settings.testKeyElsewhere', {
          savedFor: hostOf(saved.keyOrigin),
          host: hostOf(values.baseURL),
        }),
      };
    }
    const config = modelConfig({ ...values, thinking: false }, this.demoSpeed, this.#relayURL());
    if (config.provider !== 'anthropic') return { ok: false, text: t('settings.testDemo') };
    try {
      // Loaded on demand: the page needs the SDK only for this check.
      const { AnthropicModel } = await import('../models/anthropic');
      const { model } = await new AnthropicModel({ ...config, maxRetries: 0 }).ping(signal);
      const host = hostOf(values.baseURL);
      const works = config.relayURL ? 'settings.testWorksRelayed' : 'settings.testWorks';
      return { ok: true, text: scrub(t(works, { model, host }), apiKey) };
    } catch (error) {
      return { ok: false, text: scrub(t('settings.testFailed', { reason: say(sentenceOf(error)) }), apiKey) };
    }
  }

  /** Whether a run may start with these settings; when not, the notice says why. */
  async mayRun(): Promise<boolean> {
    const refused = await this.#refusal();
    this.#board.notice = refused === null ? null : refused || this.#board.notice;
    return refused === null;
  }

  /**
   * Why a run may not start: null if it may, else a notice (a problem with the settings, or the
   * learner declined to send the key to another host), or false while the key question is
   * already asked (the dialog says it).
   */
  async #refusal(): Promise<Sentence | null | false> {
    const relayAvailable = this.modelSettings.relay ? await this.#relayProbe : true;
    const problem = settingsProblem(this.modelSettings, relayAvailable);
    if (problem) return settingsSentence(problem);
    if (this.keyQuestion) return false;
    const elsewhere = keyGoesElsewhere(this.modelSettings);
    if (!elsewhere) return null;
    if (!(await this.#askToSendKey(elsewhere))) return { key: 'keyQuestion.declined', params: elsewhere };
    // For this page load only: the stored key stays bound to the host it was saved for.
    this.modelSettings = { ...this.modelSettings, keyOrigin: originOf(this.modelSettings.baseURL) };
    return null;
  }

  /** Asks (KeyQuestionDialog) whether the key may go to a host it was not saved for. */
  #askToSendKey(question: { savedFor: string; sendTo: string }): Promise<boolean> {
    this.keyQuestion = question;
    return new Promise<boolean>((resolve) => {
      this.#answerKeyQuestion = resolve;
    });
  }

  /** The learner's answer to `keyQuestion`: send the key to that host for this run, or not. */
  answerKeyQuestion(send: boolean): void {
    const answer = this.#answerKeyQuestion;
    this.#answerKeyQuestion = undefined;
    this.keyQuestion = null;
    answer?.(send);
  }

  /** Chooses how the next run splits the parent's work; anything but a known mode is ignored. */
  setContext(mode: ContextMode): void {
    if (CONTEXT_MODES.includes(mode)) this.context = mode;
  }

  /** Changes the next run's limits; a value out of its range is not taken, and said why. */
  setLimits(changes: Partial<LoopLimits>): string[] {
    const problems: string[] = [];
    const next = { ...this.limits };
    for (const [key, value] of Object.entries(changes) as Array<[keyof LoopLimits, number]>) {
      const problem = limitProblem(key, value);
      if (problem) problems.push(problem);
      else next[key] = value;
    }
    this.limits = next;
    return problems;
  }

  /** Changes how many subagents may work at once; a value out of its range is not taken. */
  setSubagentsAtOnce(value: number): string | undefined {
    const problem = subagentsAtOnceProblem(value);
    if (!problem) this.subagentsAtOnce = value;
    return problem;
  }

  /** What a run starting now is given: settings for its record and its workers, never the key in the record. */
  forRun(sandbox: { label: string; workdir: string }, choice: RunChoice = {}): RunSetup {
    const { provider, model, baseURL, apiKey } = this.modelSettings;
    const { limits } = this;
    const context = choice.context ?? this.context;
    // The record keeps the endpoint without its secrets, and none of them in any text it holds.
    const redactor = new Redactor({ apiKey, endpoints: [baseURL] });
    return {
      settings: {
        provider,
        model: provider === 'demo' ? 'demo' : model,
        ...(provider === 'anthropic' ? { baseURL: redactURL(baseURL.trim()).url } : {}),
        sample: this.#url.sample,
        sandbox: sandbox.label || this.#url.sandbox,
        context,
        limits,
        ...(choice.comparison ? { comparison: choice.comparison } : {}),
        ...(provider === 'demo' ? { speed: this.demoSpeed } : {}),
        ...(this.modelSettings.cache ? { cache: true } : {}),
      },
      agent: {
        model: modelConfig(this.modelSettings, this.demoSpeed, this.#relayURL()),
        modelName: provider === 'demo' ? DEFAULT_MODEL : model,
        workdir: sandbox.workdir,
        bashTimeoutMs: LIMITS.bashTimeoutMs,
        context,
        limits,
      },
      maxSubagents: this.subagentsAtOnce,
      scrub: (event) => redactRecord(event, redactor),
      reason: (error) => redactor.text(messageOf(error)),
    };
  }
}

/** localStorage when the page may use it (it throws in some privacy modes). */
function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}
