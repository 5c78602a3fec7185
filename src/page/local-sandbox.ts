/**
 * The main thread's handle on the offline sandbox's worker. The page may start it ahead of time,
 * before the screen is built (./ahead.ts, over the worker the built page's first script started);
 * the playground then takes the running instance over.
 */
import * as Comlink from 'comlink';
import type { RuntimeProgress } from '../sandbox/runtimes';
import type { FileChange, FileEntry, FileSlice } from '../sandbox/sandbox';
import type { SampleName } from '../sandbox/samples';
import { StopCell } from '../sandbox/stop-signal';
import { checkedListeners, sandboxAnswers, type SandboxWorkerApi } from '../workers/sandbox/protocol';
import type { SandboxConnection } from '../workers/sandbox/service';
import SandboxWorker from '../workers/sandbox/sandbox.ts?worker';
import { markCommand, type SandboxHost } from './sandbox-host';
import { failureOf, ScriptNotLoaded } from './worker-failure';

export class LocalSandboxHost implements SandboxHost {
  readonly kind = 'local' as const;

  readonly worker: Worker;
  readonly api: Comlink.Remote<SandboxWorkerApi>;
  /** Resolves when the sample project is mounted and tools can run. */
  readonly ready: Promise<{ workdir: string; readyAtEpoch?: number }>;

  /**
   * `worker`: one the page started ahead of time; `ahead`: whether the sandbox loads what the
   * agents will need ahead of their first command (false with `ahead=off`: src/page/ahead.ts).
   */
  constructor(
    readonly sample: SampleName,
    worker?: Worker,
    ahead = true,
  ) {
    this.worker = worker ?? new SandboxWorker({ name: 'sandbox' });
    this.api = Comlink.wrap<SandboxWorkerApi>(this.worker);
    // A worker started by the built page's first script may have failed to load its script
    // before anyone listened (vite-plugins/early-sandbox.ts).
    const notLoaded = (worker as { s04NotLoaded?: number } | undefined)?.s04NotLoaded === 1;
    this.ready = notLoaded
      ? Promise.reject(new ScriptNotLoaded("the sandbox worker's script did not load"))
      : Promise.race([
          this.api.boot(sample, ahead).then(sandboxAnswers.boot),
          failureOf(this.worker, 'sandbox'),
        ]);
    this.ready.catch(() => {}); // reported by whoever awaits it
    // Each command the sandbox begins is marked on the page's timeline (`sandbox:exec`).
    this.api
      .watchCommands(Comlink.proxy(checkedListeners({ commands: markCommand }).commands))
      .catch(() => {});
  }

  #connections = 0;

  /**
   * The connection's stop is a cell in shared memory as well as a message: the sandbox's thread
   * may be inside a loop that never reads its messages (see src/sandbox/stop-signal.ts).
   */
  async connect(port: MessagePort): Promise<SandboxConnection> {
    const id = ++this.#connections;
    const stop = StopCell.create();
    await this.api.connect(Comlink.transfer(port, [port]), id, stop?.cell);
    return {
      close: () => {
        stop?.raise();
        this.api.disconnect(id).catch(() => {}); // a terminated sandbox has nothing left to stop
      },
    };
  }

  async reset(): Promise<void> {
    await this.api.boot(this.sample);
  }

  async watch(listener: (changes: FileChange[]) => void): Promise<void> {
    await this.api.watch(Comlink.proxy(checkedListeners({ changes: listener }).changes));
  }

  async watchRuntimes(listener: (progress: RuntimeProgress) => void): Promise<void> {
    await this.api.watchRuntimes(Comlink.proxy(checkedListeners({ progress: listener }).progress));
  }

  list(): Promise<FileEntry[]> {
    return this.api.list().then(sandboxAnswers.list);
  }

  readFile(path: string): Promise<string> {
    return this.api.readFile(path).then(sandboxAnswers.readFile);
  }

  /** Loads python3's runtime (Pyodide) now, in the sandbox's nested worker. */
  async preloadPython(): Promise<void> {
    await this.api.preloadRuntime('python');
  }

  /** Stops python3's load started by preloadPython, if it is still going. */
  cancelPreload(): void {
    void this.api.cancelPreload();
  }

  readBytes(path: string, offset: number, length: number): Promise<FileSlice> {
    return this.api.readBytes(path, offset, length).then(sandboxAnswers.readBytes);
  }

  dispose(): void {
    this.worker.terminate();
  }
}
