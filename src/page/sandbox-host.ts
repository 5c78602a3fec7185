/**
 * What the playground needs of a sandbox, wherever it runs:
 *
 *   LocalSandboxHost         (local-sandbox.ts)         the offline shell, in its own worker
 *   WebContainerSandboxHost  (webcontainer-host.ts)     WebContainer, on the main thread
 *
 * Either way each agent worker gets a MessagePort on which the sandbox answers SandboxRemote
 * (src/workers/sandbox/protocol.ts) through Comlink, so the agents cannot tell the two apart.
 */
import type { RuntimeProgress } from '../sandbox/runtimes';
import type { FileChange, FileEntry, FileSlice, SandboxKind } from '../sandbox/sandbox';
import type { CommandStart } from '../workers/sandbox/protocol';
import type { SandboxConnection } from '../workers/sandbox/service';

export interface SandboxHost {
  readonly kind: SandboxKind;
  /** Resolves when the sample project is mounted and tools can run; rejects with a sentence. */
  readonly ready: Promise<{ workdir: string; readyAtEpoch?: number }>;
  /**
   * Serves the sandbox on a port, for one agent worker (the other end goes to the worker). Closing
   * the connection (Stop, or the agent is done) stops its commands still running, at once, even
   * a runaway loop, and closes the port.
   */
  connect(port: MessagePort): Promise<SandboxConnection>;
  /** Sends every file change from now on, in batches. */
  watch(listener: (changes: FileChange[]) => void): Promise<void>;
  list(): Promise<FileEntry[]>;
  readFile(path: string): Promise<string>;
  /** Part of a file and its size (see Sandbox.readBytes). */
  readBytes(path: string, offset: number, length: number): Promise<FileSlice>;
  /** Sends the first-use loading of language runtimes, where the backend has them. */
  watchRuntimes?(listener: (progress: RuntimeProgress) => void): Promise<void>;
  /** Puts the sample project back as it was mounted (a comparison's fresh copy for each run). */
  reset(): Promise<void>;
  /** Stops the sandbox (its worker, or its file watch and ports). */
  dispose(): void;
}

/**
 * The page's `sandbox:exec` mark (docs/automation-contract.md): a command the sandbox has begun,
 * at the time its own thread began it, with the agent and the command as its detail.
 */
export function markCommand({ agent, command, atEpoch }: CommandStart): void {
  const startTime = Math.max(0, atEpoch - performance.timeOrigin);
  performance.mark('sandbox:exec', { startTime, detail: { agent, command } });
}

/** What the header calls each sandbox. */
export const SANDBOX_LABELS: Record<SandboxKind, string> = {
  local: 'Local (offline shell)',
  webcontainer: 'WebContainer',
};
