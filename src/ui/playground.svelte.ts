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
import type { AgentId } from '../core/messages';
import { LIMITS } from '../core/tools';
import type { FileSlice } from '../sandbox/sandbox';
import type { ModelConfig } from '../models/config';
import { AgentWorkers } from '../page/agent-workers';
import { bootFailure, SandboxSession } from '../page/sandbox-session.svelte';
import { MAX_RECORD_BYTES, parseRecord, RecordError } from '../run/check';
import { resumableHistory, runFigures } from '../run/figures';
import { LiveRun } from '../run/live';
import { modelCalls } from '../run/measures';
import {
  REFERENCE_LIMITS,
  type RecordOrigin,
  type RunEvent,
  type RunRecord,
  type RunSettings,
  type RunStatus,
} from '../run/record';
import { EMPTY_VIEW, type RunView } from '../run/reduce';
import { Replay } from '../run/replay';
import {
  DEFAULTS,
  keyGoesElsewhere,
  loadSettings,
  modelConfig,
  originOf,
  saveSettings,
  scrub,
  settingsProblem,
  type ModelSettings,
} from '../settings/model-settings';
import { DEFAULT_MODEL, readUrlSettings, type UrlSettings } from '../settings/url-settings';
import type { AgentSettings, WorkerEvent } from '../workers/protocol';
import { History } from './history.svelte';
import { t } from './i18n';
import { Playback } from './playback.svelte';

export type { RunStatus };

/** The longest the screen is held still while a subagent worker starts (see Playground.#hold). */
const HOLD_MS = 150;

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

export class Playground {
  readonly url: UrlSettings;
  readonly sandbox: SandboxSession;
  readonly history: History;
  readonly playback: Playback;

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
  /** A message for the user about their input (e.g. an empty prompt, a file that cannot be opened). */
  notice = $state<string | null>(null);
  /** The Settings dialog's values (see model-settings.ts for where each one is kept). */
  modelSettings = $state.raw<ModelSettings>(DEFAULTS);
  /** Set while the learner is asked whether the key may go to a host it was not saved for. */
  keyQuestion = $state.raw<{ savedFor: string; sendTo: string } | null>(null);

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
    void this.steps; // a live record grows in place
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
  #answerKeyQuestion: ((send: boolean) => void) | undefined;

  constructor(search: string) {
    this.url = readUrlSettings(search);
    this.modelSettings = loadSettings(storage(), this.url);
    if (this.url.ignored.length) this.notice = `Ignored URL settings: ${this.url.ignored.join(', ')}`;
    this.#agents = new AgentWorkers((worker, phase, atEpoch) =>
      this.#record({ type: 'worker', worker, phase }, pageTime(atEpoch)),
    );
    this.sandbox = new SandboxSession(this.url, {
      onChanges: (changes) => this.#record({ type: 'files', changes }),
      onAdopted: () => {
        if (this.#run)
          this.#record({ type: 'sandbox', label: this.sandbox.label, workdir: this.sandbox.workdir });
      },
    });
    this.history = new History();
    this.playback = new Playback(this);
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
    if (provider === 'demo') return 'Demo (offline, scripted)';
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

  /** Boots the sandbox once, then starts the parent's worker ahead of the first run. */
  async start(): Promise<void> {
    try {
      await this.sandbox.boot();
      if (this.boot.kind === 'booting') this.boot = { kind: 'idle' };
      this.#agents.startParent();
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

  /** What the run sends the model and how the loops are limited; never the key. */
  #runSettings(): RunSettings {
    const { provider, model, baseURL } = this.modelSettings;
    return {
      provider,
      model: provider === 'demo' ? 'demo' : model,
      ...(provider === 'anthropic' ? { baseURL } : {}),
      sample: this.url.sample,
      sandbox: this.sandbox.label || this.url.sandbox,
      context: 'isolated',
      limits: REFERENCE_LIMITS,
    };
  }

  #agentSettings(): AgentSettings {
    return {
      model: this.#runModel ?? modelConfig(this.modelSettings, this.url.speed),
      modelName: this.modelSettings.provider === 'demo' ? DEFAULT_MODEL : this.modelSettings.model,
      workdir: this.sandbox.workdir,
      bashTimeoutMs: LIMITS.bashTimeoutMs,
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
    this.#publish();
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
  }

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
    // The workers already alive when the record begins: the sandbox, and the parent's ahead of time.
    this.#record({ type: 'worker', worker: 'sandbox', phase: 'ready' });
    for (const id of this.#agents.live) this.#record({ type: 'worker', worker: id, phase: 'ready' });
    return run;
  }

  /** Starts the parent loop on a prompt; refuses an empty one. */
  async run(prompt: string): Promise<void> {
    if (!prompt.trim()) {
      this.notice = 'Type a prompt first, or pick one of the sample prompts.';
      return;
    }
    if (this.running) return;
    const problem = settingsProblem(this.modelSettings);
    if (problem) {
      this.notice = problem;
      return;
    }
    if (this.keyQuestion) return;
    const elsewhere = keyGoesElsewhere(this.modelSettings);
    if (elsewhere) {
      if (!(await this.#askToSendKey(elsewhere))) {
        this.notice = t('keyQuestion.declined', elsewhere);
        return;
      }
      // For this page load only: the stored key stays bound to the host it was saved for.
      this.modelSettings = { ...this.modelSettings, keyOrigin: originOf(this.modelSettings.baseURL) };
    }
    this.notice = null;
    this.closeOpened();
    this.sandbox.runStarted = true;
    try {
      await this.start();
    } catch {
      return; // the status line says why
    }
    await this.sandbox.settled();
    this.#runModel = modelConfig(this.modelSettings, this.url.speed);
    const controller = new AbortController();
    this.#controller = controller;
    const run = this.#run ?? this.#begin(prompt);
    this.step = null;
    let releasePort = () => {};
    this.#record({ type: 'run', prompt, settings: this.#runSettings() });
    this.#record({ type: 'status', status: { kind: 'running' } });

    try {
      // A stopped turn's dangling tail is not sent again: the parent's first event trims it.
      const history = resumableHistory(run.view.parent.messages);
      const { port, release } = await this.sandbox.port();
      releasePort = release;
      await untilStopped(
        this.#agents.runParent({ prompt, history, settings: this.#agentSettings() }, port, {
          onEvents: (events) => this.#onEvents(events),
          runTask: (task, calledAtEpoch) => this.#runTask(task, calledAtEpoch, controller.signal),
        }),
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
      this.#flushHeld();
      void this.#writer?.save();
      performance.mark('run:finished');
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
    if (!this.#controller) return;
    this.#controller.abort();
    // The sandbox first: its commands stop even if it is inside a loop that never yields.
    this.sandbox.closeConnections();
    this.#agents.stopAll();
  }

  /** One subagent in its own worker; resolves with its summary, then the worker is gone. */
  async #runTask(task: TaskRequest, calledAtEpoch: number, signal: AbortSignal): Promise<string> {
    const id = `subagent-${++this.#spawned}`;
    const start = pageTime(calledAtEpoch);
    const spawn: RunEvent = {
      type: 'spawn',
      agent: id,
      from: 'parent',
      taskId: task.id,
      description: task.description,
      messages: [{ role: 'user', content: task.prompt }],
    };
    this.#pending.set(id, { taskId: task.id, queue: [[spawn, start]] });
    // The worker first, with the screen held still while it starts (see #hold).
    const worker = this.#agents.spawn(id);
    this.#hold(worker.ready);
    const sandboxPort = this.sandbox.port();
    try {
      const { readyAtEpoch } = await untilStopped(worker.ready, signal);
      measure('subagent:spawn', start, Math.max(start, pageTime(readyAtEpoch)));
      const { port } = await sandboxPort;
      const summary = await untilStopped(
        worker.run({ agent: id, prompt: task.prompt, settings: this.#agentSettings() }, port, (events) =>
          this.#onEvents(events),
        ),
        signal,
      );
      this.#record({ type: 'agent_state', agent: id, state: 'discarded', summary });
      return summary;
    } catch (error) {
      if (!signal.aborted) this.#record({ type: 'agent_state', agent: id, state: 'failed' });
      throw error;
    } finally {
      worker.terminate();
      void sandboxPort.then(
        ({ release }) => release(),
        () => {},
      );
      measure('subagent:run', start, performance.now());
    }
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
      const reason = error instanceof RecordError ? error.message : message(error);
      this.notice = `Cannot open ${file.name}: ${reason}.`;
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

  /** Starts over: a fresh conversation (the files stay as they are). */
  clear(): void {
    if (this.running) return;
    void this.#writer?.save();
    this.#run = null;
    this.#replay = undefined;
    this.#writer = undefined;
    this.live = EMPTY_VIEW;
    this.#spawned = 0;
    this.steps = 0;
    this.step = null;
  }

  /** The live agent workers (for tests and the curious). */
  get liveWorkers(): AgentId[] {
    return this.#agents.live;
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
