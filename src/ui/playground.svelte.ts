/**
 * The playground: the conversation being recorded, and what the screen shows of it.
 *
 *   SandboxSession (src/page)  the shared filesystem: boot, WebContainer's offer, files
 *   AgentWorkers   (src/page)  the parent's worker and one throwaway worker per subagent
 *   LiveRun        (src/run)   the record of this conversation; its view is reduce(view, event)
 *   History        (./history.svelte.ts)  kept runs, in IndexedDB
 *
 * Everything the screen shows of a run is `shown`: the live view, or the view of any step of
 * the live or an opened record. Nothing on screen is kept anywhere else.
 */
import type { TaskRequest } from '../core/loop';
import type { AgentId, Message } from '../core/messages';
import { LIMITS } from '../core/tools';
import type { FileSlice } from '../sandbox/sandbox';
import {
  CONTEXT_MODES,
  forkMessages,
  limitProblem,
  REFERENCE_LIMITS,
  type ContextMode,
  type LoopLimits,
} from '../core/variants';
import type { ModelConfig } from '../models/config';
import { probeRelay, RELAY_PATH } from '../models/relay';
import { AgentWorkers } from '../page/agent-workers';
import { withLine } from '../page/sandbox-line';
import { bootFailure, SandboxSession } from '../page/sandbox-session.svelte';
import { MAX_RECORD_BYTES, parseRecord } from '../run/check';
import { resumableHistory, runFigures } from '../run/figures';
import { LiveRun } from '../run/live';
import { modelCalls } from '../run/measures';
import {
  type RecordOrigin,
  type RunEvent,
  type RunRecord,
  type RunSettings,
  type RunStatus,
} from '../run/record';
import { EMPTY_VIEW, type RunView } from '../run/reduce';
import { Replay } from '../run/replay';
import { later } from '../run/store';
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
import { chooseLanguage, LANGUAGES } from '../settings/language';
import { DEFAULT_MODEL, readUrlSettings, type UrlSettings } from '../settings/url-settings';
import type { AgentSettings, WorkerEvent } from '../workers/protocol';
import { Comparison } from './comparison.svelte';
import { History } from './history.svelte';
import { loadLanguage, t } from './i18n';
import { storedLanguage, useLanguage } from './language.svelte';
import { Playback } from './playback.svelte';
import { say, sentenceOf, settingsSentence, type Sentence } from './sentence';

export type { RunStatus };

/** The longest the screen is held still while a subagent worker starts (see Playground.#hold). */
const HOLD_MS = 150;
/** python3's idle-time load starts this long after the sandbox is ready (see #preloadPython)... */
const PRELOAD_AFTER_MS = 2500;
/** ...in the first idle moment, or after this much more at the latest. */
const PRELOAD_IDLE_MS = 3000;

/** The browser asks pages to save data: nothing is downloaded ahead of its use. */
function saveData(): boolean {
  return (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
}

/** The page's timeline position of an epoch time measured in any thread. */
function pageTime(epoch: number): number {
  return epoch - performance.timeOrigin;
}

function measure(name: string, start: number, end: number): void {
  try {
    performance.measure(name, { start, end: Math.max(start, end) });
  } catch {
    // A measure with a start before the page's time origin is not worth failing a run over.
  }
}

class Stopped extends Error {
  override name = 'AbortError';
}

/** Settles with the promise, or rejects as soon as the run is stopped (a terminated worker never answers). */
function untilStopped<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Stopped('Stopped'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Stopped('Stopped'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A record opened from History, a file or the example: viewed and stepped through, read-only. */
interface Opened {
  record: RunRecord;
  origin: RecordOrigin;
  replay: Replay;
}

/** Calls `fn` at the next frame, once however often it was asked for before then. */
function onceAFrame(fn: () => void): () => void {
  let asked = false;
  return () => {
    if (asked) return;
    asked = true;
    requestAnimationFrame(() => {
      asked = false;
      fn();
    });
  };
}

export class Playground {
  readonly url: UrlSettings;
  readonly sandbox: SandboxSession;
  readonly history: History;
  readonly playback: Playback;
  readonly comparison: Comparison;

  /** The view of the live conversation, as of its latest event. */
  live = $state.raw<RunView>(EMPTY_VIEW);
  /** Before any run: the sandbox is starting, ready, or failed to start. */
  boot = $state.raw<RunStatus>({ kind: 'booting' });
  /** A record opened to look at instead of the live conversation. */
  opened = $state.raw<Opened | null>(null);
  /** The step shown, or null for the end (following a live run as it goes). */
  step = $state<number | null>(null);
  /** How many steps the shown record has. */
  steps = $state(0);
  /** The subagent worker started ahead for the next task, waiting for it, if there is one. */
  spare = $state<AgentId | null>(null);
  /**
   * Bumped at most once a frame while a live record grows: the charts and totals read the whole
   * record, so they follow it a frame at a time rather than after every batch of events.
   */
  measured = $state(0);
  /** A message for the user about their input (e.g. an empty prompt, a file that cannot be opened). */
  notice = $state.raw<Sentence | null>(null);
  /** The Settings dialog's values (see model-settings.ts for where each one is kept). */
  modelSettings = $state.raw<ModelSettings>(DEFAULTS);
  /**
   * Whether this page's server relays API calls (`npm start`, `vite preview`): known once
   * /relay/health answers; a static host has no relay.
   */
  relay = $state<'checking' | 'available' | 'unavailable'>('checking');
  /** Set while the learner is asked whether the key may go to a host it was not saved for. */
  keyQuestion = $state.raw<{ savedFor: string; sendTo: string } | null>(null);
  /** The prompt box's text (Run and Compare read it). */
  prompt = $state('');
  /** How the next run splits the parent's work (URL `context`; see setContext). */
  context = $state<ContextMode>('isolated');
  /** The next run's loop limits (URL `cap`, `cut`, `maxTokens`, `depth`; see setLimits). */
  limits = $state.raw<LoopLimits>(REFERENCE_LIMITS);

  /** What the screen shows: the live view, or any step of the live or opened record. */
  shown = $derived.by((): RunView => {
    const opened = this.opened;
    const step = this.step;
    void this.steps;
    if (opened) return opened.replay.at(step ?? opened.replay.steps);
    if (step === null || !this.#replay) return this.live;
    return this.#replay.at(step);
  });
  status = $derived.by((): RunStatus => {
    if (this.opened) return this.shown.status;
    return this.#run ? this.shown.status : this.boot;
  });
  running = $derived(this.live.status.kind === 'running');
  /** Every model call of the shown record with its context (the chart, the per-agent totals). */
  calls = $derived.by(() => {
    void this.measured; // a live record grows in place
    const record = this.record;
    return record ? modelCalls(record) : { calls: [], tasks: [] };
  });
  /** The shown record is the live one and it is at its end. */
  atLive = $derived(this.opened === null && this.step === null);

  readonly #agents: AgentWorkers;
  #run = $state.raw<LiveRun | null>(null);
  #replay: Replay | undefined;
  #writer: ReturnType<History['keep']> | undefined;
  #spawned = 0;
  /** Spares whose life the current record already notes. */
  // Not state: nothing on screen reads it.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #sparesRecorded = new Set<AgentId>();
  /**
   * A subagent's events, held until the parent's `task_start` for it is recorded: the parent's
   * worker asks for the subagent before it sends its queued events (so the worker starts sooner),
   * but in the record the parent's task call comes first.
   */
  // Not state: nothing on screen reads it.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #pending = new Map<AgentId, { taskId: string; queue: Array<[RunEvent, number]> }>();
  #holds = 0;
  #held = false;
  #controller: AbortController | undefined;
  /** The model config of the run under way (settings saved during a run apply to the next). */
  #runModel: ModelConfig | undefined;
  /** The context mode and limits of the run under way, likewise. */
  #runVariant: { context: ContextMode; limits: LoopLimits } | undefined;
  #answerKeyQuestion: ((send: boolean) => void) | undefined;
  readonly #relayProbe: Promise<boolean>;

  constructor(search: string) {
    this.url = readUrlSettings(search);
    this.#relayProbe = probeRelay(location.origin).then((available) => {
      this.relay = available ? 'available' : 'unavailable';
      return available;
    });
    useLanguage(
      chooseLanguage({ url: this.url.lang, stored: storedLanguage(), browser: navigator.languages ?? [] }),
    );
    this.modelSettings = loadSettings(storage(), this.url);
    this.context = this.url.context;
    this.limits = { ...REFERENCE_LIMITS, ...this.url.limits };
    if (this.url.ignored.length) {
      this.notice = { key: 'notice.ignoredUrl', params: { list: this.url.ignored.join(', ') } };
    }
    this.#agents = new AgentWorkers((worker, phase, atEpoch) => {
      this.spare = this.#agents.spare;
      // A spare's life between runs is not part of the record (a run notes it when it starts);
      // the timeline shows it from `spare` while the live end is on screen.
      if (worker === this.#agents.spare && !this.#controller) return;
      if (worker === this.#agents.spare) this.#sparesRecorded.add(worker);
      this.#record({ type: 'worker', worker, phase }, pageTime(atEpoch));
    });
    this.sandbox = new SandboxSession(this.url, {
      onChanges: (changes) => this.#record({ type: 'files', changes }),
      onAdopted: () => {
        if (this.#run)
          this.#record({ type: 'sandbox', label: this.sandbox.label, workdir: this.sandbox.workdir });
      },
      busy: () => this.busy,
    });
    this.history = new History();
    this.playback = new Playback(this);
    this.comparison = new Comparison(this);
  }

  /** The record on screen: the opened one, or the live conversation's. */
  get record(): RunRecord | null {
    return this.opened?.record ?? this.#run?.record ?? null;
  }

  /** Calls, input, output and cache tokens of one agent up to the shown step. */
  agentTotals(agent: AgentId) {
    const upTo = this.shown.applied - 1;
    const totals = { calls: 0, input: 0, output: 0, cacheRead: 0, cacheCreation: 0, counted: true };
    for (const call of this.calls.calls) {
      if (call.agent !== agent || call.event > upTo) continue;
      totals.calls++;
      totals.input += call.context;
      totals.output += call.output;
      totals.counted &&= call.counted;
    }
    const usage =
      this.shown.parent.id === agent
        ? this.shown.parent.usage
        : this.shown.subagents.find((a) => a.id === agent)?.usage;
    if (totals.counted && usage) {
      totals.input = usage.input_tokens;
      totals.cacheRead = usage.cache_read_input_tokens ?? 0;
      totals.cacheCreation = usage.cache_creation_input_tokens ?? 0;
    }
    return totals;
  }

  get origin(): RecordOrigin {
    return this.opened?.origin ?? { kind: 'live' };
  }

  get modelLabel(): string {
    const { provider, model, baseURL } = this.modelSettings;
    if (provider === 'demo') return t('badge.demoModel');
    const host = /^https?:\/\/([^/?#]+)/.exec(baseURL)?.[1] ?? baseURL;
    return host === 'api.anthropic.com' ? `${model} (Anthropic API)` : `${model} (${host})`;
  }

  /** Keeps the Settings dialog's values; the key is stored only if the learner asked for it. */
  saveSettings(values: ModelSettings): void {
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
    if (this.notice && !settingsProblem(this.modelSettings)) this.notice = null;
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
    const config = modelConfig({ ...values, thinking: false }, this.url.speed, this.#relayURL());
    if (config.provider !== 'anthropic') return { ok: false, text: t('settings.testDemo') };
    try {
      // Loaded on demand: the page needs the SDK only for this check.
      const { AnthropicModel } = await import('../models/anthropic');
      const { model } = await new AnthropicModel({ ...config, maxRetries: 0 }).ping(signal);
      const host = hostOf(values.baseURL);
      return {
        ok: true,
        text: scrub(
          config.relayURL
            ? t('settings.testWorksRelayed', { model, host })
            : t('settings.testWorks', { model, host }),
          apiKey,
        ),
      };
    } catch (error) {
      return { ok: false, text: scrub(t('settings.testFailed', { reason: say(sentenceOf(error)) }), apiKey) };
    }
  }

  /** Boots the sandbox once, then starts the parent's worker ahead of the first run. */
  async start(): Promise<void> {
    try {
      await this.sandbox.boot();
      if (this.boot.kind === 'booting') this.boot = { kind: 'idle' };
      this.#agents.startParent();
      // The first task's worker at once (not in idle time): a learner may click right away.
      if (this.context !== 'none') this.#agents.prepare(`subagent-${this.#spawned + 1}`);
      if (!this.#aheadScheduled) {
        // Once a page: start() is called again by every run.
        this.#aheadScheduled = true;
        setTimeout(() => later(() => this.#preloadPython(), PRELOAD_IDLE_MS), PRELOAD_AFTER_MS);
        // The other languages' strings, in idle time: a switch then waits for no fetch.
        later(() => LANGUAGES.forEach((language) => void loadLanguage(language).catch(() => {})), 5000);
      }
    } catch (error) {
      this.boot = { kind: 'failed', reason: bootFailure(error) };
      throw error;
    }
  }

  /** Reads a file of the shared sandbox for the viewer. */
  readFile(path: string): Promise<string> {
    return this.sandbox.readFile(path);
  }

  /** Reads part of a file of the shared sandbox, and its size, for the viewer. */
  readBytes(path: string, offset: number, length: number): Promise<FileSlice> {
    return this.sandbox.readBytes(path, offset, length);
  }

  switchToWebContainer(): Promise<void> {
    if (this.running) return Promise.resolve();
    return this.sandbox.switchToWebContainer();
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

  /** What the run sends the model and how the loops are limited; never the key. */
  #runSettings(): RunSettings {
    const { provider, model, baseURL } = this.modelSettings;
    const { context, limits } = this.#runVariant ?? { context: this.context, limits: this.limits };
    return {
      provider,
      model: provider === 'demo' ? 'demo' : model,
      ...(provider === 'anthropic' ? { baseURL } : {}),
      sample: this.url.sample,
      sandbox: this.sandbox.label || this.url.sandbox,
      context,
      limits,
    };
  }

  #agentSettings(): AgentSettings {
    const { context, limits } = this.#runVariant ?? { context: this.context, limits: this.limits };
    return {
      model: this.#runModel ?? modelConfig(this.modelSettings, this.url.speed, this.#relayURL()),
      modelName: this.modelSettings.provider === 'demo' ? DEFAULT_MODEL : this.modelSettings.model,
      workdir: this.sandbox.workdir,
      bashTimeoutMs: LIMITS.bashTimeoutMs,
      context,
      limits,
    };
  }

  /** Appends an event to the live record (stamped now, or at a page time) and shows it. */
  #record(event: RunEvent, at?: number): void {
    const run = this.#run;
    if (!run) return;
    const pending = this.#pending.get(agentOf(event) ?? '');
    if (pending) {
      pending.queue.push([event, at ?? performance.now()]);
      return;
    }
    run.append(event, at);
    if (event.type === 'task_start') this.#releasePending((p) => p.taskId === event.id);
    this.#writer?.changed();
    // A status at once (what may be clicked next follows it); the rest at most once a frame.
    if (event.type === 'status') this.#publish();
    else this.#publishSoon();
  }

  /** Records the held events of the subagents that match (all of them at the end of a run). */
  #releasePending(match: (pending: { taskId: string }) => boolean = () => true): void {
    for (const [id, pending] of this.#pending) {
      if (!match(pending)) continue;
      this.#pending.delete(id);
      for (const [event, at] of pending.queue) this.#record(event, at);
    }
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
    this.steps = this.opened ? this.steps : (this.#replay?.steps ?? 0);
    this.#measureSoon();
  }

  /**
   * Publishes before the next frame: events come from the workers one message at a time, often
   * several in a frame, and each publication updates the DOM and scrolls the arrays to their end
   * (a layout). Measured on a page's first run of prompt 1, that was a third of its time.
   */
  readonly #publishSoon = onceAFrame(() => this.#publish());

  readonly #measureSoon = onceAFrame(() => this.measured++);

  /** A new record for the conversation, when its first prompt is run. */
  #begin(prompt: string): LiveRun {
    const run = new LiveRun(crypto.randomUUID(), prompt, this.#runSettings(), {
      epoch: performance.timeOrigin + performance.now(),
      now: () => performance.now(),
    });
    this.#run = run;
    this.#replay = new Replay(run.record.events);
    this.#writer = this.history.keep(run.record, () => ({
      status: run.view.status,
      figures: runFigures(run.view),
    }));
    // The workers already alive when the record begins: the sandbox and the parent's, ahead of
    // time (a spare is noted when the run starts: see #noteSpare).
    this.#sparesRecorded.clear();
    this.#record({ type: 'worker', worker: 'sandbox', phase: 'ready' });
    for (const id of this.#agents.live) {
      if (id !== this.#agents.spare) this.#record({ type: 'worker', worker: id, phase: 'ready' });
    }
    return run;
  }

  /** Starts the parent loop on a prompt; refuses an empty one. */
  async run(prompt: string): Promise<void> {
    if (!prompt.trim()) {
      this.notice = { key: 'notice.emptyPrompt' };
      return;
    }
    if (this.running) return;
    const relayAvailable = this.modelSettings.relay ? await this.#relayProbe : true;
    const problem = settingsProblem(this.modelSettings, relayAvailable);
    if (problem) {
      this.notice = settingsSentence(problem);
      return;
    }
    if (this.keyQuestion) return;
    const elsewhere = keyGoesElsewhere(this.modelSettings);
    if (elsewhere) {
      if (!(await this.#askToSendKey(elsewhere))) {
        this.notice = { key: 'keyQuestion.declined', params: elsewhere };
        return;
      }
      // For this page load only: the stored key stays bound to the host it was saved for.
      this.modelSettings = { ...this.modelSettings, keyOrigin: originOf(this.modelSettings.baseURL) };
    }
    this.notice = null;
    this.closeOpened();
    this.sandbox.runStarted = true;
    // python3's load ahead yields to the run: stopped now, started again after it.
    if (this.sandbox.cancelPreload()) this.#preloadAfterRun = true;
    try {
      await this.start();
    } catch {
      return; // the status line says why
    }
    await this.sandbox.settled();
    this.#runModel = modelConfig(this.modelSettings, this.url.speed, this.#relayURL());
    this.#runVariant = { context: this.context, limits: this.limits };
    const controller = new AbortController();
    this.#controller = controller;
    const run = this.#run ?? this.#begin(prompt);
    this.step = null;
    let releasePort = () => {};
    this.#record({ type: 'run', prompt, settings: this.#runSettings() });
    this.#record({ type: 'status', status: { kind: 'running' } });
    this.#noteSpare();

    try {
      // A stopped turn's dangling tail is not sent again: the parent's first event trims it.
      const history = resumableHistory(run.view.parent.messages);
      const { port, line, release } = this.sandbox.port();
      releasePort = release;
      await untilStopped(
        withLine(
          this.#agents.runParent({ prompt, history, settings: this.#agentSettings() }, port, {
            onEvents: (events) => this.#onEvents(events),
            runTask: (task, calledAtEpoch) => this.#runTask(task, calledAtEpoch, controller.signal, 'parent'),
          }),
          line,
        ),
        controller.signal,
      );
      this.#record({ type: 'status', status: { kind: 'finished' } });
    } catch (error) {
      if (controller.signal.aborted) this.#record({ type: 'status', status: { kind: 'stopped' } });
      else {
        const reason = scrub(message(error), this.modelSettings.apiKey);
        this.#record({ type: 'status', status: { kind: 'failed', reason } });
        this.sandbox.closeConnections();
        this.#agents.stopAll();
      }
    } finally {
      releasePort();
      this.#releasePending();
      this.#controller = undefined;
      this.#runModel = undefined;
      this.#runVariant = undefined;
      this.#flushHeld();
      void this.#writer?.save();
      performance.mark('run:finished');
      this.#prepareSpare();
      if (this.#preloadAfterRun) later(() => this.#preloadPython(), PRELOAD_IDLE_MS);
    }
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

  /** Stops the run at once: every agent worker is terminated; the sandbox and the arrays stay. */
  stop(): void {
    this.comparison.stop();
    if (!this.#controller) return;
    this.#controller.abort();
    // The sandbox first: its commands stop even if it is inside a loop that never yields.
    this.sandbox.closeConnections();
    this.#agents.stopAll();
  }

  /**
   * One subagent in its own worker, asked for by `from` (the parent, or a subagent that may
   * delegate, `depth` levels below the parent); resolves with its summary, then the worker is gone.
   */
  async #runTask(
    task: TaskRequest,
    calledAtEpoch: number,
    signal: AbortSignal,
    from: AgentId,
    depth = 1,
  ): Promise<string> {
    const id = `subagent-${++this.#spawned}`;
    const start = pageTime(calledAtEpoch);
    const first: Message[] = task.forkFrom
      ? forkMessages(task.forkFrom, task.prompt)
      : [{ role: 'user', content: task.prompt }];
    const spawn: RunEvent = {
      type: 'spawn',
      agent: id,
      from,
      taskId: task.id,
      description: task.description,
      messages: first,
    };
    this.#pending.set(id, { taskId: task.id, queue: [[spawn, start]] });
    // The worker first, with the screen held still while it starts (see #hold).
    const worker = this.#agents.spawn(id);
    this.spare = this.#agents.spare;
    this.#hold(worker.ready);
    let releasePort = () => {};
    try {
      // Its line to the sandbox is made while the worker starts, and does not hold up its run.
      const { port, line, release } = this.sandbox.port();
      releasePort = release;
      const { readyAtEpoch } = await untilStopped(worker.ready, signal);
      measure('subagent:spawn', start, Math.max(start, pageTime(readyAtEpoch)));
      const request = { agent: id, prompt: task.prompt, depth, forkFrom: task.forkFrom };
      const summary = await untilStopped(
        withLine(
          worker.run({ ...request, settings: this.#agentSettings() }, port, {
            onEvents: (events) => this.#onEvents(events),
            runTask: (inner, at) => this.#runTask(inner, at, signal, id, depth + 1),
          }),
          line,
        ),
        signal,
      );
      this.#record({ type: 'agent_state', agent: id, state: 'discarded', summary });
      worker.terminate();
      this.#startSpare();
      return summary;
    } catch (error) {
      if (!signal.aborted) this.#record({ type: 'agent_state', agent: id, state: 'failed' });
      throw error;
    } finally {
      worker.terminate();
      releasePort();
      measure('subagent:run', start, performance.now());
    }
  }

  /** A run or a comparison is under way. */
  get busy(): boolean {
    return this.running || this.comparison.running;
  }

  /**
   * python3 is still to load ahead in this page (waiting for its moment, or loading). Other work
   * ahead that wants the machine (the service worker's install of the whole build) waits for it:
   * side by side on two cores, Pyodide's load took 8.2 s instead of 5.4.
   */
  get pythonAhead(): boolean {
    return this.url.sample === 'python' && this.sandbox.offline && !this.sandbox.pythonSettled && !saveData();
  }

  /** Set when python3's idle-time load waits for the run under way to end. */
  #preloadAfterRun = false;
  /** The page's work ahead (python3, the other languages) is scheduled once. */
  #aheadScheduled = false;

  /**
   * On the python sample, python3's runtime loads in idle time once the page has settled, so
   * that prompt 3's check does not wait seconds for Pyodide. It is off the critical path (its own
   * worker), it waits for a run under way to end, and it is skipped when the browser asks to save
   * data: then the first python3 loads it, as before.
   */
  #preloadPython(): void {
    if (this.url.sample !== 'python' || this.sandbox.pythonUsed || saveData()) return;
    if (this.running) {
      this.#preloadAfterRun = true;
      return;
    }
    this.#preloadAfterRun = false;
    this.sandbox.preloadPython();
  }

  /**
   * The spare waiting for this run's first task, in the record: a row of its own in the timeline
   * until a task takes it.
   */
  #noteSpare(): void {
    const spare = this.#agents.spare;
    if (!spare || this.#sparesRecorded.has(spare)) return;
    this.#sparesRecorded.add(spare);
    this.#record({ type: 'worker', worker: spare, phase: this.#agents.isReady(spare) ? 'ready' : 'created' });
  }

  /**
   * Starts the next subagent's worker in idle time (see AgentWorkers.prepare), so that the next
   * `task` does not wait for a worker script to load and compile. Not for a run without subagents.
   */
  #prepareSpare(): void {
    later(() => this.#startSpare(), 2000);
  }

  /**
   * Starts the next subagent's worker now: as a task returns, its worker just terminated, so
   * that the next task (in this run or the next one) finds it ready. In idle time instead, a
   * prompt clicked again soon after Finished waited 60-180 ms for its worker, every other run.
   */
  #startSpare(): void {
    if (this.boot.kind === 'failed' || this.context === 'none') return;
    this.#agents.prepare(`subagent-${this.#spawned + 1}`);
  }

  /** A batch checked where it arrived (src/page/agent-hosts.ts). */
  #onEvents(batch: WorkerEvent[]): void {
    for (const event of batch) {
      if (event.type === 'timing') {
        const start = pageTime(event.startEpoch);
        measure(event.name, start, start + event.durationMs);
      } else this.#record(scrubbed(event, this.modelSettings.apiKey));
    }
  }

  /**
   * Holds screen updates while a subagent worker starts, for at most HOLD_MS. Chromium starts a
   * worker with the help of the page's thread, so a long repaint just after `new Worker` (the new
   * column, the parent's tool call) delays the worker by as long; measured, it put about 35 ms
   * on `subagent:spawn`. The record takes every event at once; only the screen waits.
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

  // ---- step-through -------------------------------------------------------------------------

  /** Shows the run as it was after `step` steps (clamped); the end of a live run follows it. */
  stepTo(step: number): void {
    const last = this.steps;
    const next = Math.max(0, Math.min(Math.round(step), last));
    this.step = next === last && !this.opened && this.running ? null : next;
  }

  stepBy(delta: number): void {
    this.stepTo((this.step ?? this.steps) + delta);
  }

  /** Back to the end of the live run, following it. */
  goLive(): void {
    this.playback.pause();
    this.closeOpened();
    this.step = null;
  }

  /** Shows the run at the step of one of its events (a segment clicked in the timeline). */
  stepToEvent(index: number): void {
    const replay = this.opened?.replay ?? this.#replay;
    if (!replay) return;
    this.playback.pause();
    this.step = replay.stepOfEvent(index);
  }

  /** The record's time of a step, in ms since it started. */
  timeOf(step: number): number {
    return (this.opened?.replay ?? this.#replay)?.timeOf(step) ?? 0;
  }

  // ---- kept, exported and opened runs --------------------------------------------------------

  /** Shows a record read-only, at its end. */
  open(record: RunRecord, origin: RecordOrigin): void {
    this.playback.pause();
    const replay = new Replay(record.events);
    this.opened = { record, origin, replay };
    this.steps = replay.steps;
    this.step = null;
    this.notice = null;
  }

  closeOpened(): void {
    if (!this.opened) return;
    this.playback.pause();
    this.opened = null;
    this.steps = this.#replay?.steps ?? 0;
    this.step = null;
  }

  /** Opens a run file (button or drop); a bad file changes nothing but the notice. */
  async importFile(file: File): Promise<void> {
    try {
      const record = parseRecord(await readText(file), file.size);
      this.open(record, { kind: 'file', name: file.name });
    } catch (error) {
      this.notice = { key: 'notice.cannotOpen', params: { name: file.name, reason: sentenceOf(error) } };
    }
  }

  /** The record on screen as JSON; the API key is never part of it. */
  exportRun(): string {
    const record = this.record;
    if (!record) throw new Error('There is no run to export yet');
    return scrub(JSON.stringify(record), this.modelSettings.apiKey);
  }

  /** "Run this prompt again": the opened record's first prompt, in a new conversation. */
  async rerun(): Promise<void> {
    const prompt = this.opened?.record.title;
    if (!prompt || this.running) return;
    this.closeOpened();
    this.clear();
    await this.run(prompt);
  }

  /** A fresh conversation on a fresh copy of the sample project (each run of a comparison). */
  async startOver(): Promise<void> {
    this.closeOpened();
    this.clear();
    await this.start();
    await this.sandbox.reset();
  }

  /** Compare: the prompt in each context mode, on fresh copies of the sample project. */
  async compare(prompt: string, withFork: boolean): Promise<void> {
    if (!prompt.trim()) {
      this.notice = { key: 'notice.emptyPrompt' };
      return;
    }
    if (this.running || this.comparison.running) return;
    await this.comparison.start(prompt, withFork);
  }

  /** Starts over: a fresh conversation (the files stay as they are). */
  clear(): void {
    if (this.running) return;
    void this.#writer?.save();
    this.#run = null;
    this.#replay = undefined;
    this.#writer = undefined;
    this.live = EMPTY_VIEW;
    this.#spawned = 0;
    this.#prepareSpare();
    this.steps = 0;
    this.step = null;
  }

  /** The live agent workers (for tests and the curious). */
  get liveWorkers(): AgentId[] {
    return this.#agents.live;
  }

  /** The spare subagent worker waiting for the next task, if there is one (for tests). */
  get spareWorker(): AgentId | null {
    return this.#agents.spare;
  }

  /** Saves what is recorded now (the page is going away, or may be). */
  persist(): void {
    void this.#writer?.save();
  }

  /** Saves what is recorded and terminates every worker (page teardown). */
  dispose(): void {
    this.answerKeyQuestion(false);
    this.persist();
    this.stop();
    this.#agents.stopAll();
    this.sandbox.dispose();
  }
}

/** An event as recorded: the API key is scrubbed from what a worker reports (errors, retries). */
function scrubbed(event: Exclude<WorkerEvent, { type: 'timing' }>, key: string): RunEvent {
  if (!key) return event;
  if (event.type === 'error') return { ...event, error: scrub(event.error, key) };
  if (event.type === 'stream' && event.event.type === 'retrying') {
    return { ...event, event: { ...event.event, reason: scrub(event.event.reason, key) } };
  }
  return event;
}

/** The agent or worker an event is about, if any. */
function agentOf(event: RunEvent): AgentId | undefined {
  if (event.type === 'worker') return event.worker;
  return 'agent' in event ? event.agent : undefined;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A file's text; over the size limit it is not read at all (parseRecord refuses it by size). */
function readText(file: File): Promise<string> {
  return file.size > MAX_RECORD_BYTES ? Promise.resolve('') : file.text();
}

/** localStorage when the page may use it (it throws in some privacy modes). */
function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}
