/**
 * The offline sandbox's worker (named `sandbox`): one just-bash shell over one in-memory
 * filesystem, shared by every agent. Each agent worker gets its own MessagePort to it, so tool
 * calls go worker to worker without passing through the page, and a long command never freezes
 * the screen.
 */
import * as Comlink from 'comlink';
import type { RuntimeProgress } from '../sandbox/runtimes';
import type { FileChange } from '../sandbox/sandbox';
import { create } from '../sandbox/local';
import { loadSample } from '../sandbox/samples';
import { readUrlSettings } from '../ui/url-settings';
import { StopCell } from '../sandbox/stop-signal';
import { EARLY_BOOT_FRAGMENT, type SampleName, type SandboxWorkerApi } from './protocol';
import { sandboxRemote, serveSandbox, type SandboxConnection } from './sandbox-service';

let sandbox: Awaited<ReturnType<typeof create>> | undefined;
let runtimeListener: ((progress: RuntimeProgress) => void) | undefined;
let unsubscribeRuntimes = () => {};
let listener: ((changes: FileChange[]) => void) | undefined;
let pending: FileChange[] = [];
let unsubscribe = () => {};

function ready(): NonNullable<typeof sandbox> {
  if (!sandbox) throw new Error('The sandbox is not booted yet');
  return sandbox;
}

/** Changes are sent at most once a frame: a `sed -i` over many files is one message. */
function queue(change: FileChange): void {
  if (pending.push(change) === 1) {
    setTimeout(() => {
      const batch = pending;
      pending = [];
      listener?.(batch);
    }, 16);
  }
}

/** One per agent worker's port, by the page's id for it. */
const connections = new Map<number, SandboxConnection>();

type Booted = { workdir: string; readyAtEpoch: number };

async function mount(sample: SampleName): Promise<Booted> {
  if (sample !== 'python' && sample !== 'typescript') throw new Error(`Unknown sample project: ${sample}`);
  unsubscribe();
  unsubscribeRuntimes();
  sandbox?.dispose();
  sandbox = undefined;
  const mounted = await create(loadSample(sample));
  sandbox = mounted;
  unsubscribe = mounted.onChange(queue);
  unsubscribeRuntimes = mounted.onRuntimeProgress((progress) => runtimeListener?.(progress));
  // Ready here, in this thread: the page records this time, not when it got around to the reply.
  const readyAtEpoch = performance.timeOrigin + performance.now();
  void mounted.warmUp().catch(() => {}); // after the mark: a head start for the agents' commands
  return { workdir: mounted.workdir, readyAtEpoch };
}

/** A boot this worker started on its own (EARLY_BOOT_FRAGMENT), until the page's first `boot`. */
let early: { sample: SampleName; booted: Promise<Booted> } | undefined;

if (self.location.hash.startsWith(EARLY_BOOT_FRAGMENT)) {
  const { sample } = readUrlSettings(self.location.hash.slice(EARLY_BOOT_FRAGMENT.length));
  const booted = mount(sample);
  booted.catch(() => {}); // reported to the page's boot call
  early = { sample, booted };
}

const api: SandboxWorkerApi = {
  ...sandboxRemote(ready).remote,

  async boot(sample: SampleName) {
    const started = early;
    early = undefined;
    if (started?.sample === sample) return started.booted;
    if (started) await started.booted.catch(() => {});
    return mount(sample);
  },

  connect(port: MessagePort, id: number, stop?: Int32Array) {
    connections.get(id)?.close();
    connections.set(id, serveSandbox(ready, port, stop && new StopCell(stop)));
  },

  disconnect(id: number) {
    connections.get(id)?.close();
    connections.delete(id);
  },

  watch(callback) {
    listener = callback;
  },

  watchRuntimes(callback) {
    runtimeListener = callback;
  },
};

Comlink.expose(api);
