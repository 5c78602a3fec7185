/**
 * Pyodide in the calling thread, for Node (tests, tools), where there is no Web Worker: the
 * script holds the thread while it runs, so the deadline cannot be a timer here. A watchdog
 * thread (Node's worker_threads) sleeps until the deadline on the same SharedArrayBuffer and
 * writes SIGINT into Pyodide's interrupt buffer, the same path the browser takes.
 */
import { PythonEngine, type EngineOptions, type EngineProgress, type PythonRunRequest } from './pyodide';
import type { PythonHost, PythonHostResult, PythonRunLimits } from './python-host';
import { stopCellsOf } from '../stop-signal';

/**
 * Sleeps on slot 1 until the deadline, a raised stop cell (looked at every 20 ms) or the end of
 * the run; from the deadline or the stop on, sends SIGINT to slot 0 until the run ends.
 */
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const slots = new Int32Array(workerData.buffer);
const stops = workerData.stops.map((buffer) => new Int32Array(buffer));
const deadline = Date.now() + workerData.ms;
let interrupting = false;
for (;;) {
  interrupting ||= Date.now() >= deadline || stops.some((stop) => Atomics.load(stop, 0) !== 0);
  if (interrupting) Atomics.store(slots, 0, 2);
  const wait = interrupting ? 250 : stops.length ? Math.min(20, deadline - Date.now()) : deadline - Date.now();
  if (Atomics.wait(slots, 1, 0, Math.max(0, wait)) !== 'timed-out') break;
}
`;

type NodeWorkerThreads = {
  Worker: new (
    code: string,
    options: { eval: true; workerData: unknown },
  ) => { unref(): void; terminate(): Promise<number> };
};

/** Node's worker_threads, reached without an import so that bundling for the browser ignores it. */
function workerThreads(): NodeWorkerThreads | undefined {
  const node = globalThis.process as { getBuiltinModule?: (id: string) => unknown } | undefined;
  return node?.getBuiltinModule?.('node:worker_threads') as NodeWorkerThreads | undefined;
}

/** Kept out of static analysis: only Node imports the npm package directly. */
const PYODIDE_PACKAGE = 'pyodide';

export class InProcessPythonHost implements PythonHost {
  #engine: Promise<PythonEngine> | undefined;
  #loaded = false;
  readonly #slots = new Int32Array(new SharedArrayBuffer(8));

  constructor(readonly options: Partial<Pick<EngineOptions, 'importPyodide' | 'indexURL'>> = {}) {}

  get loaded(): boolean {
    return this.#loaded;
  }

  async load(onProgress: (progress: EngineProgress) => void): Promise<boolean> {
    if (this.#loaded) return false;
    if (!this.#engine) {
      onProgress({ phase: 'loading' });
      this.#engine = PythonEngine.load({
        importPyodide: this.options.importPyodide ?? (() => import(/* @vite-ignore */ PYODIDE_PACKAGE)),
        indexURL: this.options.indexURL,
        interruptBuffer: new Int32Array(this.#slots.buffer, 0, 1),
      });
      this.#engine.then(
        () => (this.#loaded = true),
        () => (this.#engine = undefined),
      );
    }
    await this.#engine;
    return true;
  }

  async run(request: PythonRunRequest, limits: PythonRunLimits): Promise<PythonHostResult> {
    await this.load(() => {});
    const engine = await this.#engine!;
    Atomics.store(this.#slots, 1, 0);
    const threads = workerThreads();
    const watchdog = threads
      ? new threads.Worker(WATCHDOG, {
          eval: true,
          workerData: {
            buffer: this.#slots.buffer,
            ms: Math.max(0, limits.deadline - Date.now()),
            // Stop reaches the script through these: this thread is Python's until it returns.
            stops: stopCellsOf(limits.signal).map((stop) => stop.cell.buffer),
          },
        })
      : undefined;
    watchdog?.unref();
    try {
      const result = engine.run(request);
      const timedOut = result.interrupted && Date.now() >= limits.deadline;
      const stopped = result.interrupted && !timedOut && limits.signal?.aborted === true;
      return { ...result, timedOut, exitCode: timedOut ? 124 : stopped ? 130 : result.exitCode };
    } finally {
      Atomics.store(this.#slots, 1, 1);
      Atomics.notify(this.#slots, 1);
      Atomics.store(this.#slots, 0, 0);
      void watchdog?.terminate();
    }
  }

  dispose(): void {}
}
