/**
 * `node` on QuickJS: runs one script in a fresh QuickJS runtime over a FileTree (tree.ts).
 *
 *   runNode ─ new runtime (64 MB, interrupt at the deadline)
 *     ├─ node-prelude/     the Node-like world inside QuickJS: npm packages (path, events,
 *     │                    buffer, string_decoder) and our own fs, require, process,
 *     │                    util.inspect, util, assert, bundled into chunks when Vite loads
 *     │                    it (vite-plugins/node-prelude.ts); the lazy chunks (Buffer, inspect,
 *     │                    util, assert) are compiled on first use (host `chunk`)
 *     ├─ host functions    synchronous: write, fs over the FileTree, compile, exit, clock
 *     └─ event loop        here, outside QuickJS: pending jobs, then timers, awaiting between
 *                          them so the sandbox worker stays responsive while a script sleeps
 *
 * QuickJS checks its interrupt handler every few thousand instructions, so `while (true) {}`
 * ends at the deadline, and so does `process.exit()`: the exit cannot be caught by the script.
 * The QuickJS module (wasm) is loaded on first use and shared by later runs.
 */
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import PRELUDE from './node-prelude/index.js?prelude';
import { installHost, type HostOutput } from './quickjs-host';
import type { FileTree } from './tree';

/** What `node --version` prints, without the `v`: honest about what runs. */
const NODE_VERSION = '0.0.0-quickjs';
/** The vendored QuickJS of @jitl/quickjs-wasmfile-release-sync 0.32.0. */
const QUICKJS_VERSION = '2025-09-13';
const MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
/**
 * QuickJS's own stack check, kept under what a browser worker gives wasm: plain recursion reaches
 * hundreds of frames and still fails inside QuickJS (a catchable "InternalError: stack
 * overflow"). Deeper native recursion (JSON.stringify of a very deep
 * object) overflows the worker's stack instead: that is caught below and costs the module.
 */
const STACK_LIMIT_BYTES = 128 * 1024;
/** Per stream: a script printing in a loop until the timeout must not eat the worker's memory. */
const OUTPUT_LIMIT_CHARS = 8 * 1024 * 1024;

export type NodeProgram = { kind: 'file'; path: string } | { kind: 'eval'; code: string; print: boolean };

export interface NodeRun {
  program: NodeProgram;
  /** process.argv as Node builds it: [execPath, script?, ...args]. */
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: string;
  /** The files the script sees; its writes change this tree. */
  tree: FileTree;
  /** Date.now() at which the script is stopped. */
  deadline: number;
  signal?: AbortSignal;
  memoryLimitBytes?: number;
}

export interface NodeResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  timedOut: boolean;
}

let quickjs: Promise<QuickJSWASMModule> | undefined;

/** Loads the QuickJS wasm module once; later runs reuse it. */
export function loadQuickJS(): Promise<QuickJSWASMModule> {
  if (!quickjs) {
    quickjs = import('@jitl/quickjs-wasmfile-release-sync').then((variant) =>
      newQuickJSWASMModuleFromVariant(variant.default),
    );
    quickjs.catch(() => (quickjs = undefined));
  }
  return quickjs;
}

/** A module whose state may be broken (host stack overflow, failed teardown) is not reused. */
function discardModule(): void {
  quickjs = undefined;
}

class Output implements HostOutput {
  readonly #parts: string[][] = [[], []];
  readonly #sizes = [0, 0];

  write(fd: number, text: string): void {
    const stream = fd === 2 ? 1 : 0;
    if (this.#sizes[stream] >= OUTPUT_LIMIT_CHARS) return;
    this.#parts[stream].push(text);
    this.#sizes[stream] += text.length;
    if (this.#sizes[stream] >= OUTPUT_LIMIT_CHARS) {
      this.#parts[stream].push(`\n[node: output cut at ${OUTPUT_LIMIT_CHARS / 1024 / 1024} MB]\n`);
    }
  }

  get stdout(): string {
    return this.#parts[0].join('');
  }

  get stderr(): string {
    return this.#parts[1].join('');
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** Runs one `node` program to completion, exit, timeout or abort. */
export async function runNode(run: NodeRun): Promise<NodeResult> {
  const module = await loadQuickJS();
  const output = new Output();
  const memoryLimit = run.memoryLimitBytes ?? MEMORY_LIMIT_BYTES;
  let exitCode: number | undefined;
  let outOfMemory = false;
  let broken = false;

  const runtime = module.newRuntime();
  runtime.setMemoryLimit(memoryLimit);
  runtime.setMaxStackSize(STACK_LIMIT_BYTES);
  runtime.setInterruptHandler(
    () => exitCode !== undefined || Date.now() >= run.deadline || run.signal?.aborted === true,
  );
  const vm = runtime.newContext();

  const timedOut = () => exitCode === undefined && Date.now() >= run.deadline;
  const over = () => exitCode !== undefined || Date.now() >= run.deadline || run.signal?.aborted === true;

  /** An error QuickJS handed back: an exit, the deadline, or something the prelude did not catch. */
  const settle = (error: QuickJSHandle): void => {
    const dumped = vm.dump(error) as { name?: string; message?: string; stack?: string } | string;
    error.dispose();
    if (over()) return;
    const name = typeof dumped === 'object' ? dumped?.name : undefined;
    const message = typeof dumped === 'object' ? dumped?.message : String(dumped);
    if (outOfMemory || (name === 'InternalError' && message === 'out of memory')) {
      outOfMemory = true;
      exitCode = 134;
      return;
    }
    output.write(2, `node: internal error: ${name ?? 'Error'}: ${message}\n`);
    exitCode = 1;
  };

  /** Calls a function of the prelude's API; returns its result as a JS value, or undefined. */
  const call = (api: QuickJSHandle, name: string, ...args: QuickJSHandle[]): unknown => {
    const fn = vm.getProp(api, name);
    try {
      const result = vm.callFunction(fn, api, ...args);
      if (result.error) {
        settle(result.error);
        return undefined;
      }
      const value = vm.dump(result.value);
      result.value.dispose();
      return value;
    } finally {
      fn.dispose();
    }
  };

  try {
    const host = installHost(vm, run.tree, output, {
      exit: (code) => (exitCode ??= code),
      outOfMemory: () => (outOfMemory = true),
    });
    vm.newString(
      JSON.stringify({
        version: NODE_VERSION,
        quickjsVersion: QUICKJS_VERSION,
        argv: run.argv,
        cwd: run.cwd,
        env: run.env,
        stdin: run.stdin,
        memoryLimitBytes: memoryLimit,
      }),
    ).consume((init) => vm.setProp(host, 'init', init));
    // The prelude takes the host away from the global object before any script runs (host.js).
    vm.setProp(vm.global, '__nodeHost', host);
    host.dispose();
    const api = vm.unwrapResult(vm.evalCode(PRELUDE.script, 'node:internal/prelude', { type: 'global' }));

    try {
      start(vm, api, run.program, call, settle);
      await eventLoop(runtime, api, call, settle, over, run);
      if (!over()) call(api, 'finish');
    } finally {
      api.dispose();
    }
  } catch (error) {
    // The host's own stack overflowed inside QuickJS (deep recursion) or the wasm trapped: the
    // module's state is broken, so it is dropped whole (disposing it would only abort) and the
    // next run loads a fresh one.
    broken = error instanceof RangeError || error instanceof WebAssembly.RuntimeError;
    if (broken) discardModule();
    if (!over()) {
      const text =
        error instanceof RangeError ? `RangeError: ${error.message}` : `node: internal error: ${error}`;
      output.write(2, `${text}\n`);
      exitCode = 1;
    }
  } finally {
    if (!broken) {
      try {
        vm.dispose();
        runtime.dispose();
      } catch {
        discardModule();
      }
    }
  }

  if (outOfMemory) {
    output.write(
      2,
      `FATAL ERROR: JavaScript heap out of memory (this sandbox's node is QuickJS, limited to ` +
        `${Math.round(memoryLimit / 1024 / 1024)} MB)\n`,
    );
    exitCode = 134;
  }
  const stoppedByDeadline = timedOut();
  if (stoppedByDeadline) output.write(2, `node: stopped at the time limit\n`);
  return {
    stdout: output.stdout,
    stderr: output.stderr,
    exitCode: stoppedByDeadline ? 124 : run.signal?.aborted ? 130 : (exitCode ?? 0),
    timedOut: stoppedByDeadline,
  };
}

type Call = (api: QuickJSHandle, name: string, ...args: QuickJSHandle[]) => unknown;

function start(
  vm: QuickJSContext,
  api: QuickJSHandle,
  program: NodeProgram,
  call: Call,
  settle: (error: QuickJSHandle) => void,
): void {
  if (program.kind === 'file') {
    vm.newString(program.path).consume((path) => call(api, 'runMain', path));
    return;
  }
  call(api, 'prepareEval');
  const result = vm.evalCode(program.code, '[eval]', { type: 'global' });
  if (result.error) {
    const source = vm.newString(program.code);
    const fatal = vm.getProp(api, 'fatal');
    const reported = vm.callFunction(fatal, api, result.error, source);
    fatal.dispose();
    source.dispose();
    result.error.dispose();
    if (reported.error) settle(reported.error);
    else reported.value.dispose();
    return;
  }
  if (program.print) call(api, 'print', result.value);
  result.value.dispose();
}

async function eventLoop(
  runtime: ReturnType<QuickJSWASMModule['newRuntime']>,
  api: QuickJSHandle,
  call: Call,
  settle: (error: QuickJSHandle) => void,
  over: () => boolean,
  run: NodeRun,
): Promise<void> {
  for (;;) {
    if (over()) return;
    const jobs = runtime.executePendingJobs(-1);
    if (jobs.error) {
      settle(jobs.error);
      return;
    }
    if (over()) return;
    const wait = call(api, 'nextTimer') as number | undefined;
    if (wait === undefined || over()) return;
    if (wait < 0) {
      if (runtime.hasPendingJob()) continue;
      // No timers: 'beforeExit' may schedule more, else the run is over.
      if (call(api, 'finish') === -1 && !over()) continue;
      return;
    }
    if (wait > 0) {
      await sleep(Math.min(wait, run.deadline - Date.now()), run.signal);
      if (over()) return;
    }
    call(api, 'runTimers');
  }
}
