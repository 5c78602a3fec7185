/**
 * The WebContainer sandbox, served from the main thread to the agent workers.
 *
 *   main thread                                   agent worker (parent, subagent-N)
 *   WebContainer.boot()  (main thread only)
 *   WebContainerSandbox  (src/sandbox/webcontainer.ts)
 *     └─ Comlink.expose(SandboxRemote, port2)  ◄── port1 ──  Comlink.wrap<SandboxRemote>(port1)
 *
 * The agents get the same SandboxRemote the offline sandbox's worker gives them, so nothing in
 * the workers knows which backend answers. The WebContainer client and the shell around it
 * (just-bash) load on demand: the first only when a boot is tried, the second only once it
 * worked, so an offline page never downloads the shell a second time.
 */
import * as Comlink from 'comlink';
import type { AgentId } from '../core/messages';
import type { FileChange, FileEntry, Sandbox } from '../sandbox/sandbox';
import { bootWebContainer, DEFAULT_BOOT_TIMEOUT_MS } from '../sandbox/webcontainer-boot';
import type { SampleName, SandboxRemote } from '../workers/protocol';
import type { SandboxHost } from './sandbox-host';

export { cannotBootReason } from '../sandbox/webcontainer-boot';

export class WebContainerSandboxHost implements SandboxHost {
  readonly kind = 'webcontainer' as const;
  readonly ready: Promise<{ workdir: string }>;
  #sandbox: Sandbox | undefined;
  #listener: ((changes: FileChange[]) => void) | undefined;
  #pending: FileChange[] = [];
  readonly #ports = new Set<MessagePort>();
  #disposed = false;

  /** What an agent worker may do, answered by the sandbox on this thread. */
  readonly #remote: SandboxRemote = {
    workdir: () => this.#ready().workdir,
    exec: (command: string, timeoutMs: number, agent: AgentId) =>
      this.#ready().exec(command, { timeoutMs, agent }),
    readFile: (path: string) => this.#ready().readFile(path),
    writeFile: (path: string, content: string, agent: AgentId) =>
      this.#ready().writeFile(path, content, agent),
    exists: (path: string) => this.#ready().exists(path),
    list: () => this.#ready().list(),
  };

  constructor(
    readonly sample: SampleName,
    options: { timeoutMs?: number } = {},
  ) {
    this.ready = this.#start(options.timeoutMs ?? DEFAULT_BOOT_TIMEOUT_MS);
    this.ready.catch(() => {}); // reported by whoever awaits it
  }

  async #start(timeoutMs: number): Promise<{ workdir: string }> {
    // The page is served with COEP require-corp (vite.config.ts); the boot option must match it.
    const wc = await bootWebContainer({ coep: 'require-corp', timeoutMs, workdirName: 'project' });
    const [{ create }, { loadSample }] = await Promise.all([
      import('../sandbox/webcontainer'),
      import('../sandbox/samples'),
    ]);
    if (this.#disposed) throw new Error('The WebContainer sandbox was closed before it started');
    const sandbox = await create(loadSample(this.sample), { webContainer: wc });
    sandbox.onChange((change) => this.#queue(change));
    this.#sandbox = sandbox;
    return { workdir: sandbox.workdir };
  }

  #ready(): Sandbox {
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

  async connect(port: MessagePort): Promise<void> {
    this.#ports.add(port);
    Comlink.expose(this.#remote, port);
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

  /** Stops serving and watching; WebContainer itself stays booted (one per page). */
  dispose(): void {
    this.#disposed = true;
    this.#listener = undefined;
    this.#sandbox?.dispose();
    for (const port of this.#ports) port.close();
    this.#ports.clear();
  }
}
