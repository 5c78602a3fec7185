/**
 * The playground's state and its workers. The UI only reads this class and calls its methods.
 *
 * It owns every worker: the sandbox worker (one shared filesystem), the parent worker, and one
 * throwaway worker per subagent, created when the parent calls `task` and terminated as soon as
 * the subagent has returned its summary. Only that summary crosses back to the parent.
 */
import * as Comlink from 'comlink';
import type { LoopEvent, TaskRequest } from '../core/loop';
import type { AgentId } from '../core/messages';
import { LIMITS } from '../core/tools';
import type { RuntimeProgress } from '../sandbox/runtimes';
import type { FileChange, FileEntry } from '../sandbox/sandbox';
import {
  checkEvent,
  checkReady,
  type AgentSettings,
  type ModelConfig,
  type ParentWorkerApi,
  type SubagentWorkerApi,
  type WorkerEvent,
} from '../workers/protocol';
import ParentWorker from '../workers/parent.ts?worker';
import SubagentWorker from '../workers/subagent.ts?worker';
import { AgentColumn, resumableHistory } from './agent-column.svelte';
import { LocalSandboxHost } from './local-sandbox';
import { SANDBOX_LABELS, type SandboxHost } from './sandbox-host';
import { failureOf } from './worker-failure';
import type { SandboxConnection } from '../workers/sandbox-service';
import {
  DEFAULTS,
  loadSettings,
  modelConfig,
  saveSettings,
  scrub,
  settingsProblem,
  type ModelSettings,
} from './model-settings';
import { DEFAULT_MODEL, readUrlSettings, type UrlSettings } from './url-settings';

export type RunStatus =
  | { kind: 'booting' }
  | { kind: 'idle' }
  | { kind: 'running' }
  | { kind: 'finished' }
  | { kind: 'stopped' }
  | { kind: 'failed'; reason: string };

/**
 * WebContainer, as the header tells it: `off` (sandbox=local), `starting`, `unavailable` (why),
 * `ready` (booted after the first run began: the switch is offered), `active` (in use; `moved`
 * when the sample project was moved to it before the first run, `switched` after the learner's
 * switch, `chosen` with sandbox=webcontainer).
 */
export type WebContainerStatus =
  | { kind: 'off' }
  | { kind: 'starting' }
  | { kind: 'unavailable'; reason: string }
  | { kind: 'ready' }
  | { kind: 'active'; how: 'moved' | 'switched' | 'chosen' };

export interface LogLine {
  agent: AgentId;
  text: string;
}

export interface FileMark {
  agent: AgentId;
  kind: FileChange['kind'];
}

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

export class Playground {
  readonly url: UrlSettings;

  status = $state.raw<RunStatus>({ kind: 'booting' });
  parent = new AgentColumn('parent');
  subagents = $state.raw<AgentColumn[]>([]);
  log = $state.raw<LogLine[]>([]);
  files = $state.raw<FileEntry[]>([]);
  /** The latest first-use load of node or python3 in the sandbox (Pyodide takes seconds). */
  runtime = $state.raw<RuntimeProgress | null>(null);
  marks = $state.raw<Record<string, FileMark>>({});
  workdir = $state('');
  sandboxLabel = $state('');
  webContainer = $state.raw<WebContainerStatus>({ kind: 'off' });
  /** A message for the user about their input (e.g. an empty prompt). */
  notice = $state<string | null>(null);
  /** The Settings dialog's values (see model-settings.ts for where each one is kept). */
  modelSettings = $state.raw<ModelSettings>(DEFAULTS);
  /** Set while the API client waits to retry a failed call (429, 529, 5xx, network). */
  retrying = $state<string | null>(null);

  running = $derived(this.status.kind === 'running');

  /** The sandbox the agents use now. */
  #sandbox: SandboxHost | undefined;
  /** A WebContainer that booted after the first run began, until the learner switches to it. */
  #offered: SandboxHost | undefined;
  /** Settles when a change of sandbox is done; a run waits for it. */
  #switching: Promise<void> = Promise.resolve();
  #runStarted = false;
  #booted: Promise<void> | undefined;
  #parentWorker: Worker | undefined;
  #parentApi: Comlink.Remote<ParentWorkerApi> | undefined;
  #parentFailure: Promise<never> | undefined;
  // Not state: the screen reads the columns, never the workers.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #liveSubagents = new Map<AgentId, Worker>();
  /** Each agent worker's line to the sandbox: closing one stops its commands still running. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #connections = new Set<SandboxConnection>();
  #spawned = 0;
  #holds = 0;
  #held: Array<() => void> = [];
  #controller: AbortController | undefined;
  /** The model config of the run under way (settings saved during a run apply to the next). */
  #runModel: ModelConfig | undefined;

  constructor(search: string) {
    this.url = readUrlSettings(search);
    this.modelSettings = loadSettings(storage(), this.url);
    if (this.url.ignored.length) this.notice = `Ignored URL settings: ${this.url.ignored.join(', ')}`;
  }

  get modelLabel(): string {
    const { provider, model, baseURL } = this.modelSettings;
    if (provider === 'demo') return 'Demo (offline, scripted)';
    const host = /^https?:\/\/([^/?#]+)/.exec(baseURL)?.[1] ?? baseURL;
    return host === 'api.anthropic.com' ? `${model} (Anthropic API)` : `${model} (${host})`;
  }

  /** Keeps the Settings dialog's values; the key is stored only if the learner asked for it. */
  saveSettings(values: ModelSettings): void {
    this.modelSettings = {
      ...values,
      apiKey: values.apiKey.trim(),
      baseURL: values.baseURL.trim(),
      model: values.model.trim(),
    };
    saveSettings(storage(), this.modelSettings);
    if (this.notice && !settingsProblem(this.modelSettings)) this.notice = null;
  }

  /**
   * Boots the sandbox once; later calls get the same promise.
   *
   * sandbox=auto: the offline sandbox (started before the app, src/boot.ts) is ready at once, and
   * WebContainer boots alongside; the learner never waits for it. sandbox=local: never tries
   * WebContainer. sandbox=webcontainer: WebContainer only, and its failure is the run's.
   */
  boot(): Promise<void> {
    this.#booted ??= this.#boot().catch((error: unknown) => {
      // WebContainer's failures are sentences of their own ("WebContainer did not start within …").
      const reason = unavailable(error) ? error.message : `the sandbox did not start: ${message(error)}`;
      this.status = { kind: 'failed', reason };
      throw error;
    });
    return this.#booted;
  }

  async #boot(): Promise<void> {
    const { sandbox, sample, webContainerTimeoutMs: timeoutMs } = this.url;
    if (sandbox === 'webcontainer') {
      this.sandboxLabel = SANDBOX_LABELS.webcontainer;
      this.webContainer = { kind: 'starting' };
      try {
        const { WebContainerSandboxHost } = await import('./webcontainer-host');
        await this.#adopt(new WebContainerSandboxHost(sample, { timeoutMs }));
        this.#startParent();
        this.webContainer = { kind: 'active', how: 'chosen' };
      } catch (error) {
        this.webContainer = { kind: 'unavailable', reason: reasonOf(error) };
        throw error;
      }
      return;
    }
    await this.#adopt(LocalSandboxHost.take(sample));
    this.#startParent();
    if (sandbox === 'auto') void this.#tryWebContainer(timeoutMs);
  }

  /** Makes `host` the agents' sandbox once it is ready; the previous one is stopped. */
  async #adopt(host: SandboxHost): Promise<void> {
    const { workdir, readyAtEpoch } = await host.ready;
    if (performance.getEntriesByName('sandbox:ready').length === 0) {
      // The sandbox's own time of readiness (the page may have been busy building the screen).
      const startTime =
        readyAtEpoch === undefined ? undefined : Math.max(0, readyAtEpoch - performance.timeOrigin);
      performance.mark('sandbox:ready', startTime === undefined ? undefined : { startTime });
    }
    const previous = this.#sandbox;
    this.#sandbox = host;
    previous?.dispose();
    this.workdir = workdir;
    this.sandboxLabel = SANDBOX_LABELS[host.kind];
    await host.watch((changes) => {
      if (this.#sandbox === host) this.#onFileChanges(changes);
    });
    await host.watchRuntimes?.((progress) => {
      if (this.#sandbox === host) this.runtime = progress;
    });
    this.marks = {};
    this.files = await host.list();
    if (this.status.kind === 'booting') this.status = { kind: 'idle' };
  }

  /**
   * sandbox=auto: boots WebContainer next to the offline sandbox. Ready before the first run: the
   * sample project moves there. Ready later: the switch is offered. Failed: the header says why.
   */
  async #tryWebContainer(timeoutMs: number | undefined): Promise<void> {
    // Loaded on demand: the page's first script stays free of WebContainer.
    const { cannotBootReason, WebContainerSandboxHost } = await import('./webcontainer-host');
    const cannot = cannotBootReason();
    if (cannot) {
      this.webContainer = { kind: 'unavailable', reason: cannot };
      return;
    }
    this.webContainer = { kind: 'starting' };
    const host = new WebContainerSandboxHost(this.url.sample, { timeoutMs });
    try {
      await host.ready;
    } catch (error) {
      host.dispose();
      this.webContainer = { kind: 'unavailable', reason: reasonOf(error) };
      return;
    }
    if (this.#runStarted) {
      this.#offered = host;
      this.webContainer = { kind: 'ready' };
      return;
    }
    await this.#switchTo(host);
    this.webContainer = { kind: 'active', how: 'moved' };
  }

  #switchTo(host: SandboxHost): Promise<void> {
    const done = this.#adopt(host);
    this.#switching = done.catch(() => {});
    return done;
  }

  /** The learner's switch to a WebContainer that booted late: the files are the sample project again. */
  async switchToWebContainer(): Promise<void> {
    const host = this.#offered;
    if (!host || this.running) return;
    this.#offered = undefined;
    await this.#switchTo(host);
    this.webContainer = { kind: 'active', how: 'switched' };
  }

  #onFileChanges(changes: FileChange[]): void {
    const marks = { ...this.marks };
    for (const change of changes) {
      if (change.agent === 'system') continue;
      const before = marks[change.path];
      // A file an agent created stays "created" while the same run goes on changing it.
      marks[change.path] = {
        agent: change.agent,
        kind: before?.kind === 'create' && change.kind === 'modify' ? 'create' : change.kind,
      };
    }
    this.marks = marks;
    const host = this.#sandbox;
    void host?.list().then((files) => {
      if (this.#sandbox === host) this.files = files;
    });
  }

  /** Reads a file of the shared sandbox for the viewer. */
  readFile(path: string): Promise<string> {
    if (!this.#sandbox) return Promise.reject(new Error('The sandbox is not ready'));
    return this.#sandbox.readFile(path);
  }

  #settings(): AgentSettings {
    return {
      model: this.#runModel ?? modelConfig(this.modelSettings, this.url.speed),
      modelName: this.modelSettings.provider === 'demo' ? DEFAULT_MODEL : this.modelSettings.model,
      workdir: this.workdir,
      bashTimeoutMs: LIMITS.bashTimeoutMs,
    };
  }

  /** A fresh port to the shared sandbox, for one agent worker; `release` ends it when the agent is done. */
  async #sandboxPort(): Promise<{ port: MessagePort; release: () => void }> {
    const { port1, port2 } = new MessageChannel();
    const connection = await this.#sandbox!.connect(port2);
    this.#connections.add(connection);
    const release = () => {
      if (this.#connections.delete(connection)) connection.close();
    };
    return { port: port1, release };
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
    this.notice = null;
    this.#runStarted = true;
    try {
      await this.boot();
    } catch {
      return; // the status line says why
    }
    await this.#switching;
    this.#runModel = modelConfig(this.modelSettings, this.url.speed);
    const controller = new AbortController();
    this.#controller = controller;
    this.status = { kind: 'running' };
    let releasePort = () => {};

    try {
      const parentApi = this.#startParent();
      // A stopped turn's dangling tail is not sent again, so it leaves the screen too: the
      // parent column always shows the array the model receives.
      const history = resumableHistory(this.parent.messages);
      this.parent.messages = history;
      const { port, release } = await this.#sandboxPort();
      releasePort = release;
      const host = Comlink.proxy({
        onEvents: (events: WorkerEvent[]) => this.#onEvents(events),
        flush: () => {},
        runTask: (task: TaskRequest, calledAtEpoch: number) =>
          this.#runTask(task, calledAtEpoch, controller.signal),
      });
      const run = parentApi.run(
        { prompt, history, settings: this.#settings() },
        Comlink.transfer(port, [port]),
        host,
      );
      await untilStopped(Promise.race([run, this.#parentFailure!]), controller.signal);
      this.status = { kind: 'finished' };
    } catch (error) {
      if (controller.signal.aborted) this.status = { kind: 'stopped' };
      else {
        this.status = { kind: 'failed', reason: scrub(message(error), this.modelSettings.apiKey) };
        this.#stopWorkers();
      }
    } finally {
      releasePort();
      this.#controller = undefined;
      this.#runModel = undefined;
      this.retrying = null;
      this.parent.draft = null;
      performance.mark('run:finished');
    }
  }

  /**
   * The parent's worker, started if it is not running: at the first run, and ahead of it once the
   * sandbox is ready. It lives across runs, until Stop or a failure.
   */
  #startParent(): Comlink.Remote<ParentWorkerApi> {
    if (this.#parentApi) return this.#parentApi;
    this.#parentWorker = new ParentWorker({ name: 'parent' });
    this.#parentApi = Comlink.wrap<ParentWorkerApi>(this.#parentWorker);
    this.#parentFailure = failureOf(this.#parentWorker, 'parent');
    this.#parentFailure.catch(() => {});
    return this.#parentApi;
  }

  /** Stops the run at once: every agent worker is terminated; the sandbox and the arrays stay. */
  stop(): void {
    if (!this.#controller) return;
    this.#controller.abort();
    this.#stopWorkers();
  }

  #stopWorkers(): void {
    // The sandbox first: its commands stop even if it is inside a loop that never yields.
    for (const connection of this.#connections) connection.close();
    this.#connections.clear();
    this.#parentWorker?.terminate();
    this.#parentWorker = undefined;
    this.#parentApi = undefined;
    this.#parentFailure = undefined;
    for (const [id, worker] of this.#liveSubagents) {
      worker.terminate();
      const column = this.subagents.find((c) => c.id === id);
      if (column) {
        column.state = 'stopped';
        column.draft = null;
      }
    }
    this.#liveSubagents.clear();
  }

  /** One subagent in its own worker; resolves with its summary, then the worker is gone. */
  async #runTask(task: TaskRequest, calledAtEpoch: number, signal: AbortSignal): Promise<string> {
    const n = ++this.#spawned;
    const id = `subagent-${n}`;
    const start = pageTime(calledAtEpoch);
    // The worker first, with the screen held still while it starts (see #hold).
    const worker = new SubagentWorker({ name: id });
    this.#liveSubagents.set(id, worker);
    const api = Comlink.wrap<SubagentWorkerApi>(worker);
    const failure = failureOf(worker, id);
    failure.catch(() => {});
    const ready = Promise.race([api.ready(), failure]);
    ready.catch(() => {});
    this.#hold(ready);
    const sandboxPort = this.#sandboxPort();

    const column = new AgentColumn(id, {
      description: task.description,
      taskId: task.id,
      messages: [{ role: 'user', content: task.prompt }],
    });
    column.state = 'starting';
    this.#whenScreenFree(() => {
      this.subagents = [...this.subagents, column];
    });

    try {
      const { readyAtEpoch } = checkReady(await untilStopped(ready, signal));
      measure('subagent:spawn', start, Math.max(start, pageTime(readyAtEpoch)));
      column.state = 'running';
      const { port } = await sandboxPort;
      const run = api.run(
        { agent: id, prompt: task.prompt, settings: this.#settings() },
        Comlink.transfer(port, [port]),
        Comlink.proxy({ onEvents: (events: WorkerEvent[]) => this.#onEvents(events), flush: () => {} }),
      );
      const summary = await untilStopped(Promise.race([run, failure]), signal);
      column.summary = summary;
      column.state = 'discarded';
      return summary;
    } catch (error) {
      if (!signal.aborted) column.state = 'failed';
      throw error;
    } finally {
      worker.terminate();
      void sandboxPort.then(
        ({ release }) => release(),
        () => {},
      );
      this.#liveSubagents.delete(id);
      column.draft = null;
      measure('subagent:run', start, performance.now());
    }
  }

  #column(agent: AgentId): AgentColumn | undefined {
    return agent === 'parent' ? this.parent : this.subagents.find((c) => c.id === agent);
  }

  #onEvents(batch: WorkerEvent[]): void {
    if (!Array.isArray(batch)) throw new Error('events: expected an array of events');
    this.#whenScreenFree(() => {
      for (const event of batch) this.#onEvent(event);
    });
  }

  /**
   * Holds screen updates while a subagent worker starts, for at most HOLD_MS. Chromium starts a
   * worker with the help of the page's thread, so a long repaint just after `new Worker` (the new
   * column, the parent's tool call) delays the worker by as long; measured, it put about 35 ms
   * on `subagent:spawn`. The held updates are then applied at once, in order.
   */
  #hold(starting: Promise<unknown>): void {
    this.#holds++;
    const release = () => {
      if (--this.#holds > 0) return;
      const held = this.#held;
      this.#held = [];
      for (const apply of held) apply();
    };
    Promise.race([starting, new Promise((resolve) => setTimeout(resolve, HOLD_MS))]).then(release, release);
  }

  #whenScreenFree(apply: () => void): void {
    if (this.#holds > 0) this.#held.push(apply);
    else apply();
  }

  #onEvent(raw: WorkerEvent): void {
    const event = checkEvent(raw);
    if (event.type === 'timing') {
      const start = pageTime(event.startEpoch);
      measure(event.name, start, start + event.durationMs);
      return;
    }
    this.#apply(event);
  }

  /** Whether an agent's worker was terminated (Stop, or a failed run). */
  #terminated(column: AgentColumn): boolean {
    if (column.id === 'parent') return this.status.kind === 'stopped' || this.status.kind === 'failed';
    return column.state === 'stopped' || column.state === 'failed';
  }

  #apply(event: LoopEvent): void {
    const column = this.#column(event.agent);
    // Events a worker posted just before it was terminated still arrive: they must not bring
    // back a "streaming" draft for a loop that is gone.
    if (column && (event.type === 'model_start' || event.type === 'stream') && this.#terminated(column))
      return;
    switch (event.type) {
      case 'message':
        column?.setMessage(event.index, event.message);
        break;
      case 'model_start':
        column?.startCall();
        break;
      case 'stream':
        if (event.event.type === 'retrying') {
          this.retrying = `${event.agent}: attempt ${event.event.attempt}, ${scrub(event.event.reason, this.modelSettings.apiKey)}`;
        } else column?.stream(event.event);
        break;
      case 'model_end':
        this.retrying = null;
        // The demo model's usage is its own estimate; only a real API's counts are shown as counted.
        column?.endCall(this.#runModel?.provider === 'anthropic' ? event.usage : undefined);
        break;
      case 'limit_reached':
        if (column) column.limitReached = true;
        break;
      case 'log':
        this.log = [...this.log, { agent: event.agent, text: event.line }];
        break;
      case 'error':
        this.log = [
          ...this.log,
          { agent: event.agent, text: `Error: ${scrub(event.error, this.modelSettings.apiKey)}` },
        ];
        break;
      default:
        break;
    }
  }

  /**
   * The run as JSON: every array on screen, the log and the settings that are not secret.
   * The API key is never part of it.
   */
  exportRun(): string {
    const { apiKey: _key, rememberKey: _remember, ...settings } = this.modelSettings;
    const run = {
      format: 's04-playground-run',
      version: 1,
      exportedAt: new Date(Date.now()).toISOString(), // eslint-disable-line svelte/prefer-svelte-reactivity -- a one-off timestamp, not state
      model: { ...settings, label: this.modelLabel },
      sandbox: { label: this.sandboxLabel, workdir: this.workdir, sample: this.url.sample },
      status: this.status,
      parent: { messages: this.parent.messages, usage: this.parent.usage },
      subagents: this.subagents.map((c) => ({
        id: c.id,
        description: c.description,
        taskId: c.taskId,
        state: c.state,
        summary: c.summary,
        calls: c.calls,
        usage: c.usage,
        messages: c.messages,
      })),
      log: this.log,
    };
    return scrub(JSON.stringify(run, null, 2), this.modelSettings.apiKey);
  }

  /** Starts over: a fresh conversation (the files stay as they are). */
  clear(): void {
    if (this.running) return;
    this.parent.messages = [];
    this.subagents = [];
    this.log = [];
    this.#spawned = 0;
    this.status = { kind: 'idle' };
  }

  /** Terminates every worker (page teardown). */
  dispose(): void {
    this.stop();
    this.#stopWorkers();
    this.#sandbox?.dispose();
    this.#offered?.dispose();
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A WebContainerUnavailableError (webcontainer-boot.ts), told apart without loading that module. */
function unavailable(error: unknown): error is Error & { reason: string } {
  return error instanceof Error && error.name === 'WebContainerUnavailableError';
}

/** Why WebContainer is unavailable, worded to follow "WebContainer unavailable: ". */
function reasonOf(error: unknown): string {
  return unavailable(error) ? error.reason : message(error);
}

/** localStorage when the page may use it (it throws in some privacy modes). */
function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}
