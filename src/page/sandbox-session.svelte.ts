/**
 * The sandbox the agents share, for the whole life of the page: boot, adoption, WebContainer's
 * offer and switch, and the files as the screen lists them.
 *
 * sandbox=auto: the offline sandbox (maybe started ahead, before the app: ./ahead.ts) is ready soon, and
 * WebContainer boots alongside; the learner never waits for it. Ready before the first run, the
 * sample project moves there; ready later, the switch is offered; failed, the header says why.
 * sandbox=local never tries WebContainer; sandbox=webcontainer uses only WebContainer, and its
 * failure is the boot's. While a run is looked at read-only (a link, a record, an opened session),
 * WebContainer is neither tried nor booted: viewing a run contacts nothing.
 */
import type { RuntimeProgress } from '../sandbox/runtimes';
import type { FileChange, FileEntry, FileSlice } from '../sandbox/sandbox';
import type { UrlSettings } from '../settings/url-settings';
import { LocalSandboxHost } from './local-sandbox';
import { SANDBOX_LABELS, type SandboxHost } from './sandbox-host';
import { type PageWork, quiet, startWhenQuiet } from './quiet';
import { sandboxLine, type SandboxLine } from './sandbox-line';
import { messageOf } from '../core/errors';

/** WebContainer's attempt starts this long after boot at the earliest (see #tryWebContainerWhenQuiet). */
const WEB_CONTAINER_AFTER_MS = 3000;
/**
 * ...then once no run is under way, looked at every 500 ms, and 2 s after the last one (the learner
 * reads it, and may click again).
 */
const QUIET = { pollMs: 500, afterRunMs: 2000 };

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

/** What the session tells its owner (./runtime.svelte.ts), and asks of it. */
export interface SandboxEvents {
  /** Every file change of the sandbox in use, with the agent that made it. */
  onChanges: (changes: FileChange[]) => void;
  /** A sandbox was adopted (its files are the sample project again). */
  onAdopted: () => void;
  /** A run or a comparison is under way. */
  busy?: () => boolean;
  /** A run has begun on this page (counted from the click, before the boot it may wait for). */
  runBegun?: () => boolean;
  /** When the last run ended (the page's clock), if one has. */
  runEndedAt?: () => number | null;
  /** The offline sandbox the page started ahead of time for this sample, if it did (./ahead.ts). */
  early?: (sample: UrlSettings['sample']) => LocalSandboxHost | undefined;
  /**
   * A run is looked at read-only (a link, a `record=`, an opened session or import): viewing it
   * needs no sandbox, so WebContainer (StackBlitz's frame, its network) waits until it is closed.
   */
  viewing?: () => boolean;
}

export class SandboxSession {
  files = $state.raw<FileEntry[]>([]);
  workdir = $state('');
  label = $state('');
  webContainer = $state.raw<WebContainerStatus>({ kind: 'off' });
  /** The latest first-use load of node or python3 in the sandbox (Pyodide takes seconds). */
  runtime = $state.raw<RuntimeProgress | null>(null);
  /** python3's runtime has been loaded (or tried) in this page: nothing is left to load ahead. */
  pythonUsed = false;
  /** python3's load, ahead or on first use, has ended (ready or failed). */
  pythonSettled = false;

  readonly #url: UrlSettings;
  /** Every file change of the sandbox in use, with the agent that made it. */
  readonly #onChanges: (changes: FileChange[]) => void;
  /** Called each time a sandbox is adopted (its files are the sample project again). */
  readonly #onAdopted: () => void;
  /** The offline sandbox the page started ahead of time for this sample, if it did (./ahead.ts). */
  readonly #early: (sample: UrlSettings['sample']) => LocalSandboxHost | undefined;
  /** The page works ahead of time (./ahead.ts): the sandbox may load what agents will need. */
  readonly #ahead: boolean;
  #host: SandboxHost | undefined;
  /** A WebContainer that booted after the first run began, until the learner switches to it. */
  #offered: SandboxHost | undefined;
  /** Each agent worker's line to the sandbox. */
  // Not state: nothing on screen reads it.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #connections = new Set<SandboxLine>();
  /** Settles when a change of sandbox is done; a run waits for it. */
  #switching: Promise<void> = Promise.resolve();
  #booted: Promise<void> | undefined;
  /** The sandbox loading python3 ahead (preloadPython), while it does. */
  #preloading: LocalSandboxHost | undefined;
  /** A run has begun on this page: a WebContainer ready later is offered rather than switched to. */
  readonly #runBegun: () => boolean;
  /** The page's runs, as WebContainer's attempt waits for a quiet page (./quiet.ts). */
  readonly #runs: PageWork;
  #disposed = false;
  /** A run is looked at read-only (see the constructor's `viewing`). */
  readonly #viewing: () => boolean;

  constructor(url: UrlSettings, events: SandboxEvents, ahead = true) {
    this.#url = url;
    const busy = events.busy ?? (() => false);
    const viewing = events.viewing ?? (() => false);
    const endedAt = events.runEndedAt ?? (() => null);
    this.#viewing = viewing;
    this.#runBegun = events.runBegun ?? (() => false);
    this.#runs = {
      running: () => busy() || viewing(),
      endedAt,
    };
    this.#onChanges = events.onChanges;
    this.#onAdopted = events.onAdopted;
    this.#early = events.early ?? (() => undefined);
    this.#ahead = ahead;
  }

  /** Boots once; later calls get the same promise. Rejects with a sentence. */
  boot(): Promise<void> {
    this.#booted ??= this.#boot();
    return this.#booted;
  }

  /** Boots again after a failed boot (a new sandbox worker: its script fetched anew). */
  retryBoot(): Promise<void> {
    this.#booted = undefined;
    return this.boot();
  }

  /** Resolves when the sandbox in use is settled (no switch under way). */
  settled(): Promise<void> {
    return this.#switching;
  }

  async #boot(): Promise<void> {
    const { sandbox, sample, webContainerTimeoutMs: timeoutMs } = this.#url;
    if (sandbox === 'webcontainer') {
      this.label = SANDBOX_LABELS.webcontainer;
      // A run looked at read-only contacts nothing: WebContainer boots once it is closed.
      if (this.#viewing()) {
        await quiet({ running: this.#viewing }, { pollMs: QUIET.pollMs }, () => this.#disposed);
        if (this.#disposed) return;
      }
      this.webContainer = { kind: 'starting' };
      try {
        const { WebContainerSandboxHost } = await import('./webcontainer-host');
        await this.#adopt(new WebContainerSandboxHost(sample, { timeoutMs }));
        this.webContainer = { kind: 'active', how: 'chosen' };
      } catch (error) {
        this.webContainer = { kind: 'unavailable', reason: reasonOf(error) };
        throw error;
      }
      return;
    }
    const host = this.#early(sample) ?? new LocalSandboxHost(sample, undefined, this.#ahead);
    try {
      await this.#adopt(host);
    } catch (error) {
      host.dispose(); // a retry starts a new one
      throw error;
    }
    if (sandbox === 'auto') this.#tryWebContainerWhenQuiet(timeoutMs);
  }

  /**
   * WebContainer is tried beside the offline sandbox, but not beside a run: its attempt fetches
   * and compiles a large script and opens StackBlitz's frame, and a learner who clicks a prompt
   * as soon as the sandbox is ready would share two cores (and, on a slow link, the bandwidth)
   * with it. Like the page's other
   * work ahead (AHEAD_AFTER_MS), it starts WEB_CONTAINER_AFTER_MS after boot at the earliest, in an
   * idle moment with no run under way (2 s after the last one); a run clicked while its code is on
   * the way holds the boot itself until it is over. The header says it is starting meanwhile.
   */
  #tryWebContainerWhenQuiet(timeoutMs: number | undefined): void {
    // While a run is looked at read-only, nothing is starting: the header says so once it does.
    if (!this.#viewing()) this.webContainer = { kind: 'starting' };
    const attempt = () => {
      if (this.#disposed) return;
      this.#tryWebContainer(timeoutMs).catch((error: unknown) => {
        // Its code did not load (the page went offline or away, or a new deploy replaced it),
        // or the move failed: the offline sandbox goes on, and the header says why.
        this.webContainer = { kind: 'unavailable', reason: reasonOf(error) };
      });
    };
    startWhenQuiet(attempt, this.#runs, { afterMs: WEB_CONTAINER_AFTER_MS, ...QUIET });
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
    const previous = this.#host;
    this.#host = host;
    previous?.dispose();
    this.workdir = workdir;
    this.label = SANDBOX_LABELS[host.kind];
    // Asked all at once, answered in this order: the sandbox's warm-up, which starts as it answers
    // `ready`, delays each answer, and one after another they would hold the screen at "Starting".
    const watching = host.watch((changes) => {
      if (this.#host !== host) return;
      this.#onChanges(changes);
      void host.list().then((files) => {
        if (this.#host === host) this.files = files;
      });
    });
    const watchingRuntimes = host.watchRuntimes?.((progress) => {
      if (this.#host !== host) return;
      this.runtime = progress;
      if (progress.runtime === 'python') {
        if (progress.phase !== 'stopped') this.pythonUsed = true;
        if (progress.phase === 'ready' || progress.phase === 'failed') this.pythonSettled = true;
      }
    });
    const [files] = await Promise.all([host.list(), watching, watchingRuntimes]);
    this.files = files;
    this.#onAdopted();
  }

  async #tryWebContainer(timeoutMs: number | undefined): Promise<void> {
    // Loaded on demand: the page's first script stays free of WebContainer.
    const { cannotBootReason, WebContainerSandboxHost } = await import('./webcontainer-host').catch(
      (error: unknown) => {
        throw new Error(`its code did not load (${messageOf(error)})`);
      },
    );
    const cannot = cannotBootReason();
    if (cannot) {
      this.webContainer = { kind: 'unavailable', reason: cannot };
      return;
    }
    // A run clicked while its code was on the way: the boot (StackBlitz's frame) waits for its end.
    await quiet(this.#runs, QUIET, () => this.#disposed);
    if (this.#disposed) return;
    this.webContainer = { kind: 'starting' };
    const host = new WebContainerSandboxHost(this.#url.sample, { timeoutMs });
    try {
      await host.ready;
    } catch (error) {
      host.dispose();
      this.webContainer = { kind: 'unavailable', reason: reasonOf(error) };
      return;
    }
    if (this.#runBegun()) {
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
    if (!host) return;
    this.#offered = undefined;
    await this.#switchTo(host);
    this.webContainer = { kind: 'active', how: 'switched' };
  }

  /**
   * A fresh port to the shared sandbox, for one agent worker, handed over at once (see
   * sandbox-line.ts); `release` ends it when the agent is done, and stops its commands still
   * running. The agent's run is given `line` too: a line that could not be made fails it.
   */
  port(): { port: MessagePort; line: SandboxLine; release: () => void } {
    if (!this.#host) throw new Error('The sandbox is not ready');
    const { port1, port2 } = new MessageChannel();
    const line = sandboxLine(this.#host.connect(port2));
    this.#connections.add(line);
    const release = () => {
      if (this.#connections.delete(line)) line.close();
    };
    return { port: port1, line, release };
  }

  /**
   * Stop: every agent's connection is closed, which stops its commands at once, even one inside a
   * loop that never yields the sandbox's thread (see src/sandbox/stop-signal.ts).
   */
  closeConnections(): void {
    for (const connection of this.#connections) connection.close();
    this.#connections.clear();
  }

  /**
   * Loads python3's runtime (Pyodide, seconds) ahead of its first use, in the offline sandbox's
   * own nested worker: nothing on this page's thread or the sandbox's waits for it. WebContainer
   * has its own python3.
   */
  preloadPython(): void {
    const host = this.#host;
    if (!(host instanceof LocalSandboxHost) || this.#preloading || this.pythonUsed) return;
    this.#preloading = host;
    const done = () => {
      if (this.#preloading === host) this.#preloading = undefined;
    };
    host.preloadPython().then(done, done);
  }

  /** Whether python3 can be loaded ahead here: the offline sandbox has it in a worker of its own. */
  get offline(): boolean {
    return this.#host instanceof LocalSandboxHost;
  }

  /**
   * Stops python3's load started ahead, if it is still going: a run has started and gets the
   * machine to itself. Says whether there was one (to start again after the run).
   */
  cancelPreload(): boolean {
    const host = this.#preloading;
    if (!host) return false;
    this.#preloading = undefined;
    host.cancelPreload();
    return true;
  }

  /** The sample project again, as mounted at the start: a fresh copy for the next run. */
  async reset(): Promise<void> {
    const host = this.#host;
    if (!host) throw new Error('The sandbox is not ready');
    this.closeConnections();
    await host.reset();
    if (this.#host === host) this.files = await host.list();
  }

  /** Reads a file of the shared sandbox for the viewer. */
  readFile(path: string): Promise<string> {
    if (!this.#host) return Promise.reject(new Error('The sandbox is not ready'));
    return this.#host.readFile(path);
  }

  /** Reads part of a file, and its size, for the viewer (a large file is paged, never copied whole). */
  readBytes(path: string, offset: number, length: number): Promise<FileSlice> {
    if (!this.#host) return Promise.reject(new Error('The sandbox is not ready'));
    return this.#host.readBytes(path, offset, length);
  }

  dispose(): void {
    this.#disposed = true;
    this.#host?.dispose();
    this.#offered?.dispose();
  }
}

/** A WebContainerUnavailableError (sandbox/webcontainer/boot.ts), told apart without loading that module. */
export function unavailable(error: unknown): error is Error & { reason: string } {
  return error instanceof Error && error.name === 'WebContainerUnavailableError';
}

/** Why WebContainer is unavailable, worded to follow "WebContainer unavailable: ". */
function reasonOf(error: unknown): string {
  return unavailable(error) ? error.reason : messageOf(error);
}

/** The sentence after `Failed: ` for a boot that failed. */
export function bootFailure(error: unknown): string {
  // WebContainer's failures are sentences of their own ("WebContainer did not start within …").
  return unavailable(error) ? error.message : `the sandbox did not start: ${messageOf(error)}`;
}
