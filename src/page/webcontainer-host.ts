/**
 * The WebContainer sandbox, served from the main thread to the agent workers.
 *
 *   main thread                                   agent worker (parent, subagent-N)
 *   WebContainer.boot()  (main thread only)
 *   WebContainerSandbox  (src/sandbox/webcontainer/index.ts)
 *     └─ Comlink.expose(SandboxRemote, port2)  ◄── port1 ──  Comlink.wrap<SandboxRemote>(port1)
 *
 * The commands' shell (just-bash) does not run here: each exec runs in a `webcontainer-shell`
 * worker (workerShell below), which calls back for file operations and for the programs it
 * starts in WebContainer, so a runaway shell loop never freezes the page.
 *
 * The agents get the same SandboxRemote the offline sandbox's worker gives them, so nothing in
 * the workers knows which backend answers. The WebContainer client and the shell around it
 * (just-bash) load on demand: the first only when a boot is tried, the second only once it
 * worked, so an offline page never downloads the shell a second time.
 */
import * as Comlink from 'comlink';
import type { FileChange, FileEntry, FileSlice } from '../sandbox/sandbox';
import type { WebContainerSandbox } from '../sandbox/webcontainer';
import { COEP } from '../sandbox/isolation';
import { bootWebContainer, DEFAULT_BOOT_TIMEOUT_MS } from '../sandbox/webcontainer/boot';
import type { ShellRunner } from '../sandbox/webcontainer/shell';
import {
  checkedShellHost,
  checkShellOutcome,
  type ShellOutcome,
  type ShellWorkerApi,
} from '../sandbox/webcontainer/shell-protocol';
import type { SampleName } from '../sandbox/samples';
import { serveSandbox, type SandboxConnection } from '../workers/sandbox/service';
import ShellWorker from '../workers/shell/webcontainer-shell.ts?worker';
import { markCommand, type SandboxHost } from './sandbox-host';

export { cannotBootReason } from '../sandbox/webcontainer/boot';

/** How long past its deadline a shell worker may stay silent before it is terminated. */
export const SHELL_HUNG_GRACE_MS = 2000;
/** Idle shell workers kept for the next commands (one per agent running a command at once). */
const IDLE_SHELLS = 2;

/**
 * Commands run in `webcontainer-shell` workers, one command per worker at a time, so a runaway
 * loop never holds the page (or another agent's command). One worker is started at once, so
 * just-bash is loaded before the first command. A worker that has not answered by the deadline
 * plus SHELL_HUNG_GRACE_MS is terminated and the command reported as timed out.
 */
export function workerShell(): ShellRunner {
  interface Shell {
    worker: Worker;
    api: Comlink.Remote<ShellWorkerApi>;
  }
  const start = (): Shell => {
    const worker = new ShellWorker({ name: 'webcontainer-shell' });
    return { worker, api: Comlink.wrap<ShellWorkerApi>(worker) };
  };
  const idle: Shell[] = [start()];
  const busy = new Set<Shell>();
  let ids = 0;
  let disposed = false;
  return {
    async run(request, host, signal) {
      if (disposed) throw new Error('The sandbox has been disposed');
      const shell = idle.pop() ?? start();
      busy.add(shell);
      const id = ++ids;
      // The shell may be inside a loop that never reads its messages: Stop terminates it, and
      // the abort message is for a shell that is free (one waiting on a program, say).
      let onAbort = () => {};
      const stopped = new Promise<'stopped'>((resolve) => {
        onAbort = () => {
          void shell.api.abort(id).catch(() => {});
          resolve('stopped');
        };
      });
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const hung = new Promise<'hung'>((resolve) => {
        timer = setTimeout(() => resolve('hung'), request.timeoutMs + SHELL_HUNG_GRACE_MS);
      });
      let reusable = false;
      try {
        const outcome: ShellOutcome | 'hung' | 'stopped' = await Promise.race([
          // The worker's calls on the host, and its outcome, are checked as they arrive here.
          shell.api.run(id, request, Comlink.proxy(checkedShellHost(host))).then(checkShellOutcome),
          hung,
          stopped,
        ]);
        if (outcome === 'stopped') return { stdout: '', stderr: '', exitCode: 130 };
        if (outcome === 'hung') {
          return {
            stdout: '',
            stderr: 'bash: killed: the command did not stop at its deadline\n',
            exitCode: 124,
            hung: true,
          };
        }
        reusable = true;
        return outcome;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        busy.delete(shell);
        if (reusable && !disposed && idle.length < IDLE_SHELLS) idle.push(shell);
        else shell.worker.terminate();
      }
    },
    dispose() {
      disposed = true;
      for (const shell of [...idle.splice(0), ...busy]) shell.worker.terminate();
      busy.clear();
    },
  };
}

export class WebContainerSandboxHost implements SandboxHost {
  readonly kind = 'webcontainer' as const;
  readonly ready: Promise<{ workdir: string }>;
  #sandbox: WebContainerSandbox | undefined;
  #listener: ((changes: FileChange[]) => void) | undefined;
  #pending: FileChange[] = [];
  readonly #connections = new Set<SandboxConnection>();
  #disposed = false;

  constructor(
    readonly sample: SampleName,
    options: { timeoutMs?: number } = {},
  ) {
    this.ready = this.#start(options.timeoutMs ?? DEFAULT_BOOT_TIMEOUT_MS);
    this.ready.catch(() => {}); // reported by whoever awaits it
  }

  async #start(timeoutMs: number): Promise<{ workdir: string }> {
    // The boot option must match the page's COEP, whether a server or the service worker sent it.
    const wc = await bootWebContainer({ coep: COEP, timeoutMs, workdirName: 'project' });
    const [{ create }, { loadSample }] = await Promise.all([
      import('../sandbox/webcontainer'),
      import('../sandbox/samples'),
    ]);
    if (this.#disposed) throw new Error('The WebContainer sandbox was closed before it started');
    const sandbox = await create(loadSample(this.sample), { webContainer: wc, shell: workerShell() });
    sandbox.onChange((change) => this.#queue(change));
    this.#sandbox = sandbox;
    return { workdir: sandbox.workdir };
  }

  #ready(): WebContainerSandbox {
    if (!this.#sandbox || this.#disposed) throw new Error('The WebContainer sandbox is not ready');
    return this.#sandbox;
  }

  /** Changes are sent at most once a frame, as the offline sandbox's worker does. */
  #queue(change: FileChange): void {
    if (this.#pending.push(change) === 1) {
      setTimeout(() => {
        const batch = this.#pending;
        this.#pending = [];
        this.#listener?.(batch);
      }, 16);
    }
  }

  /** Served on this thread, which never runs a command itself: closing needs no shared memory. */
  async connect(port: MessagePort): Promise<SandboxConnection> {
    const served = serveSandbox(() => this.#ready(), port, undefined, markCommand);
    const connection = {
      close: () => {
        this.#connections.delete(connection);
        served.close();
      },
    };
    this.#connections.add(connection);
    return connection;
  }

  async reset(): Promise<void> {
    const [{ toFileSystemTree }, { loadSample }] = await Promise.all([
      import('../sandbox/webcontainer'),
      import('../sandbox/samples'),
    ]);
    await this.#ready().mount(toFileSystemTree(loadSample(this.sample)));
  }

  async watch(listener: (changes: FileChange[]) => void): Promise<void> {
    this.#listener = listener;
  }

  async list(): Promise<FileEntry[]> {
    return this.#ready().list();
  }

  async readFile(path: string): Promise<string> {
    return this.#ready().readFile(path);
  }

  async readBytes(path: string, offset: number, length: number): Promise<FileSlice> {
    return this.#ready().readBytes(path, offset, length);
  }

  /** Stops serving and watching; WebContainer itself stays booted (one per page). */
  dispose(): void {
    this.#disposed = true;
    this.#listener = undefined;
    this.#sandbox?.dispose();
    for (const connection of [...this.#connections]) connection.close();
  }
}
