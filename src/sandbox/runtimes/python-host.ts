/**
 * Where Pyodide runs, seen from the sandbox: a PythonHost loads it and runs one request at a time,
 * stopping the script at its deadline.
 *
 *   sandbox worker                                nested worker `python` (pyodide.worker.ts)
 *   WorkerPythonHost ── Comlink: load, run ──────▶ PythonEngine (pyodide.ts)
 *        │  at the deadline: interrupt[0] = 2 ───▶ KeyboardInterrupt in the script
 *        ├─ still running 1 s later: terminate() the worker; the next run loads Pyodide again
 *        └─ Stop: interrupt and terminate() at once (the learner is waiting; the work is abandoned)
 *
 * Pyodide holds its thread while a script runs, so it gets a thread of its own: the sandbox
 * worker stays free for other agents' commands and for the deadline timer. The interrupt needs
 * a SharedArrayBuffer (the page is cross-origin isolated); without one, terminate() is the stop.
 */
import * as Comlink from 'comlink';
import type { EngineProgress, PythonRunRequest, PythonRunResult } from './pyodide';
import { acceptEngineProgress, checkPythonResult, type PythonWorkerApi } from './python-protocol';

export interface PythonRunLimits {
  /** Date.now() at which the script is interrupted. */
  deadline: number;
  signal?: AbortSignal;
}

export interface PythonHostResult extends PythonRunResult {
  timedOut: boolean;
}

export interface PythonHost {
  /** Whether Pyodide is loaded and idle enough that a run can start at once. */
  readonly loaded: boolean;
  /**
   * Loads Pyodide once; later calls share the same load. While a stopped script is unwinding
   * (or its worker is being terminated) it waits for that first. Resolves to whether it loaded.
   */
  load(onProgress: (progress: EngineProgress) => void, signal?: AbortSignal): Promise<boolean>;
  run(request: PythonRunRequest, limits: PythonRunLimits): Promise<PythonHostResult>;
  dispose(): void;
}

/** How long an interrupted script gets to unwind before its worker is terminated. */
const TERMINATE_AFTER_MS = 1000;
/** A script may catch KeyboardInterrupt: the interrupt is sent again this often. */
const REINTERRUPT_MS = 250;
const SIGINT = 2;

/** The pyodide files are served by the app itself, under BASE_URL/pyodide/ (see vite.config.ts). */
function pyodideIndexURL(): string {
  return new URL(`${import.meta.env.BASE_URL}pyodide/`, self.location.href).href;
}

/** Pyodide in a nested module worker, interrupted through a SharedArrayBuffer. */
export class WorkerPythonHost implements PythonHost {
  #worker: Worker | undefined;
  #api: Comlink.Remote<PythonWorkerApi> | undefined;
  #loading: Promise<void> | undefined;
  /** Fails the load under way: its worker was terminated, and it would never answer. */
  #abandon: ((error: Error) => void) | undefined;
  #loaded = false;
  /** A run's script is being stopped: interrupted, maybe about to be terminated. */
  #stopping = false;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #interrupt =
    typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated !== false
      ? new Int32Array(new SharedArrayBuffer(4))
      : undefined;

  /** A `signal` aborted during the first load (Stop) terminates the worker that was loading. */
  async load(onProgress: (progress: EngineProgress) => void, signal?: AbortSignal): Promise<boolean> {
    if (this.#stopping) await this.#queue;
    if (this.#loaded) return false;
    if (!this.#loading) {
      onProgress({ phase: 'loading' });
      const worker = new Worker(new URL('./pyodide.worker.ts', import.meta.url), {
        type: 'module',
        name: 'python',
      });
      const api = Comlink.wrap<PythonWorkerApi>(worker);
      this.#worker = worker;
      this.#api = api;
      const failed = new Promise<never>((_, reject) => {
        worker.addEventListener('error', (event) =>
          reject(new Error(event.message || 'the Python worker failed')),
        );
      });
      const abandoned = new Promise<never>((_, reject) => (this.#abandon = reject));
      this.#loading = Promise.race([
        api.load(
          pyodideIndexURL(),
          this.#interrupt,
          Comlink.proxy((raw: unknown) => {
            const progress = acceptEngineProgress(raw);
            if (progress) onProgress(progress);
          }),
        ),
        failed,
        abandoned,
      ]);
      this.#loading.then(
        () => (this.#loaded = true),
        () => this.#reset(),
      );
    }
    const onAbort = () => this.#reset();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await this.#loading;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    return true;
  }

  run(request: PythonRunRequest, limits: PythonRunLimits): Promise<PythonHostResult> {
    // One interpreter, one script at a time: a queued run's deadline keeps ticking meanwhile.
    const result = this.#queue.then(() => this.#runNow(request, limits));
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #runNow(request: PythonRunRequest, limits: PythonRunLimits): Promise<PythonHostResult> {
    if (Date.now() >= limits.deadline) return notRun(true);
    if (limits.signal?.aborted) return notRun(false);
    await this.load(() => {});
    const api = this.#api!;
    const interrupt = this.#interrupt;
    if (interrupt) Atomics.store(interrupt, 0, 0);

    let timedOut = false;
    let kill: (() => void) | undefined;
    const killed = new Promise<'killed'>((resolve) => (kill = () => resolve('killed')));
    let reinterrupt: ReturnType<typeof setInterval> | undefined;
    let terminate: ReturnType<typeof setTimeout> | undefined;
    const stop = (byDeadline: boolean) => {
      timedOut ||= byDeadline;
      if (!byDeadline) {
        // Stop: nobody waits for the script's own unwinding, and the worker's memory goes with it.
        // The interrupt comes first: Chromium ends a worker that is busy in script only 2 s
        // after terminate(), and until then the loop burns a core. Interrupted, the script
        // returns to its event loop, where the termination is taken at once.
        if (interrupt) Atomics.store(interrupt, 0, SIGINT);
        this.#stopping = true;
        this.#reset();
        kill?.();
        return;
      }
      if (this.#stopping) return;
      this.#stopping = true;
      if (interrupt) {
        Atomics.store(interrupt, 0, SIGINT);
        reinterrupt = setInterval(() => Atomics.store(interrupt, 0, SIGINT), REINTERRUPT_MS);
      }
      const grace = interrupt ? TERMINATE_AFTER_MS : 0;
      terminate = setTimeout(() => {
        this.#reset();
        kill?.();
      }, grace);
    };
    const deadline = setTimeout(() => stop(true), Math.max(0, limits.deadline - Date.now()));
    const onAbort = () => stop(false);
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const outcome = await Promise.race([api.run(request).then(checkPythonResult), killed]);
      if (outcome === 'killed') {
        if (!timedOut) return notRun(false);
        const note = 'python3: the script did not stop when interrupted; its interpreter was restarted\n';
        return { ...notRun(timedOut), stderr: note };
      }
      timedOut ||= outcome.interrupted && Date.now() >= limits.deadline;
      return { ...outcome, timedOut, exitCode: timedOut ? 124 : outcome.exitCode };
    } finally {
      this.#stopping = false;
      clearTimeout(deadline);
      clearTimeout(terminate);
      clearInterval(reinterrupt);
      limits.signal?.removeEventListener('abort', onAbort);
    }
  }

  get loaded(): boolean {
    return this.#loaded && !this.#stopping;
  }

  #reset(): void {
    if (!this.#loaded) this.#abandon?.(new Error('its load was stopped'));
    this.#abandon = undefined;
    this.#loaded = false;
    this.#api?.[Comlink.releaseProxy]();
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#api = undefined;
    this.#loading = undefined;
  }

  dispose(): void {
    this.#reset();
  }
}

/** The result of a script that was stopped before it ran, or killed with its interpreter. */
function notRun(timedOut: boolean): PythonHostResult {
  return { stdout: '', stderr: '', exitCode: timedOut ? 124 : 130, interrupted: true, timedOut, changes: [] };
}
