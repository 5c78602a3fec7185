/**
 * The offline sandbox's worker (named `sandbox`): one just-bash shell over one in-memory
 * filesystem, shared by every agent. Each agent worker gets its own MessagePort to it, so tool
 * calls go worker to worker without passing through the page, and a long command never freezes
 * the screen.
 */
import * as Comlink from 'comlink';
import type { RuntimeProgress } from '../../sandbox/runtimes';
import type { FileChange } from '../../sandbox/sandbox';
import { create } from '../../sandbox/local';
import { loadSample } from '../../sandbox/samples';
import { readUrlSettings } from '../../settings/url-settings';
import type { SampleName } from '../../sandbox/samples';
import { StopCell } from '../../sandbox/stop-signal';
import { isEarlyBoot, servedSandboxWorker, type CommandStart } from './protocol';
import { sandboxRemote, serveSandbox, type SandboxConnection } from './service';

// On the worker's own timeline: one entry per evaluation of this module, so a second copy of it
// in the same worker (see vite-plugins/early-sandbox.ts) shows up, and the tests check it never does.
performance.mark('sandbox:module-evaluated');

let sandbox: Awaited<ReturnType<typeof create>> | undefined;
let runtimeListener: ((progress: RuntimeProgress) => void) | undefined;
let unsubscribeRuntimes = () => {};
let listener: ((changes: FileChange[]) => void) | undefined;
let pending: FileChange[] = [];
let unsubscribe = () => {};
let commandListener: ((start: CommandStart) => unknown) | undefined;

/** Tells the page of a command as it begins (its `sandbox:exec` mark). */
function commandBegun(start: CommandStart): void {
  void Promise.resolve(commandListener?.(start)).catch(() => {});
}

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

/** A runtime load started ahead of its first use, until it is done or a run stops it. */
let preloading: AbortController | undefined;
/** The commands' load ahead of their first use (LocalSandbox.warmUp), until an agent connects. */
let warming: AbortController | undefined;
/** Whether the page works ahead of time (its first `boot` says): the warm-up after a mount, ICU's data. */
let ahead = true;
/** Whether the page has taken this sandbox over (its first `boot`): its own script is in. */
let pageHere = false;
/** The warm-up of a mount made before that, waiting for it. */
let warmUpHeld: (() => void) | undefined;

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
  // After the mark: a head start for the agents' commands, which yields to the first agent.
  warming?.abort();
  const controller = (warming = new AbortController());
  const warm = () => void mounted.warmUp(controller.signal).catch(() => {});
  setTimeout(() => {
    if (!ahead) return;
    loadIcuData();
    // Not before the page's own script is in: on a slow network the commands' chunks fetched
    // beside it would delay the first screen, and so the first click.
    if (pageHere) warm();
    else warmUpHeld = warm;
  }, 0);
  return { workdir: mounted.workdir, readyAtEpoch };
}

let icuLoaded = false;

/**
 * ICU's data is loaded once for the whole renderer process, the page's thread and its workers: a
 * process's first Intl.NumberFormat, DateTimeFormat or collation pays for it, and after that any
 * thread pays next to nothing. The page's chart library makes both formats
 * as it loads, and the first `ls` or `sort` collates; loaded here, just after the mount, neither
 * the page's thread nor a run pays for it.
 */
function loadIcuData(): void {
  if (icuLoaded) return;
  icuLoaded = true;
  const start = performance.now();
  new Intl.NumberFormat().format(1234.5);
  new Intl.DateTimeFormat().format(0);
  'a'.localeCompare('b');
  performance.measure('sandbox:icu-data', { start });
}

/** A boot this worker started on its own, until the page's first `boot`. */
let early: { sample: SampleName; booted: Promise<Booted> } | undefined;

/** Mounts `sample` once what was mounted before is done (a mount replaces the one before). */
function mountEarly(sample: SampleName): void {
  const before = early?.booted.catch(() => {});
  const booted = before ? before.then(() => mount(sample)) : mount(sample);
  booted.catch(() => {}); // reported to the page's boot call
  early = { sample, booted };
}

/**
 * The page's first script posts the page's query string right after `new Worker` (see
 * vite-plugins/early-sandbox.ts). It comes by message, not in the worker's URL: lazily loaded chunks
 * import this module by its bare URL, and a URL that differs from the worker's (a fragment, a
 * query) would make them evaluate a second copy of it. Listening before Comlink does lets this
 * message be taken out of Comlink's way.
 */
function onEarlyBoot(event: MessageEvent): void {
  if (!isEarlyBoot(event.data)) return;
  event.stopImmediatePropagation();
  self.removeEventListener('message', onEarlyBoot);
  const { sample } = readUrlSettings(event.data.search);
  if (early?.sample !== sample) mountEarly(sample);
}
self.addEventListener('message', onEarlyBoot);

/*
 * That message reaches this thread only once the page's own thread has taken note that this
 * script loaded, and the page's thread is busy building the screen then. So the sample a page gets without asking is mounted at once; the message
 * changes it only when the page asks for another.
 */
mountEarly(readUrlSettings('').sample);

// What the page sends is checked before it is acted on (./protocol.ts).
const api = servedSandboxWorker({
  ...sandboxRemote(ready, undefined, commandBegun).remote,

  async boot(sample: SampleName, worksAhead?: boolean) {
    self.removeEventListener('message', onEarlyBoot);
    if (!pageHere && worksAhead === false) ahead = false;
    pageHere = true;
    const held = warmUpHeld;
    warmUpHeld = undefined;
    if (ahead) held?.();
    const started = early;
    early = undefined;
    if (started?.sample === sample) return started.booted;
    if (started) await started.booted.catch(() => {});
    return mount(sample);
  },

  connect(port: MessagePort, id: number, stop?: Int32Array) {
    warming?.abort();
    connections.get(id)?.close();
    connections.set(id, serveSandbox(ready, port, stop && new StopCell(stop), commandBegun));
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

  watchCommands(callback) {
    commandListener = callback;
  },

  async preloadRuntime(runtime) {
    preloading?.abort();
    const controller = new AbortController();
    preloading = controller;
    try {
      await ready().preloadRuntime(runtime, controller.signal);
    } finally {
      if (preloading === controller) preloading = undefined;
    }
  },

  cancelPreload() {
    preloading?.abort();
    preloading = undefined;
  },

  async readBytes(path, offset, length) {
    const slice = await ready().readBytes(path, offset, length);
    return Comlink.transfer(slice, [slice.bytes.buffer]);
  },
});

Comlink.expose(api);
