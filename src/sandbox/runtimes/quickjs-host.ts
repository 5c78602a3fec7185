/**
 * The host functions of `node` on QuickJS (quickjs.ts): the synchronous calls the prelude builds
 * Node's modules on. Output, the clock, exit, the prelude's lazy chunks, promise states, UTF-8,
 * compiling code, and the filesystem: every fs call works on the run's FileTree (tree.ts), its
 * errors answered as Node's codes (ENOENT, ...).
 */
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';
import PRELUDE from './node-prelude/index.js?prelude';
import { TreeError, type FileTree } from './tree';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Copies bytes into a fresh ArrayBuffer, as QuickJS's newArrayBuffer wants. */
function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer as ArrayBuffer;
}

/** Where a script's writes to stdout (1) and stderr (2) go. */
export interface HostOutput {
  write(fd: number, text: string): void;
}

export interface HostControl {
  exit(code: number): void;
  outOfMemory(): void;
}

/** The synchronous functions the prelude builds Node's modules on. */
export function installHost(
  vm: QuickJSContext,
  tree: FileTree,
  output: HostOutput,
  control: HostControl,
): QuickJSHandle {
  const host = vm.newObject();
  const define = (name: string, fn: (...args: QuickJSHandle[]) => QuickJSHandle | undefined) => {
    vm.newFunction(name, fn).consume((handle) => vm.setProp(host, name, handle));
  };
  const fsCode = (error: unknown): string => {
    if (error instanceof TreeError) return error.code;
    throw error;
  };

  define('write', (fd, text) => {
    output.write(vm.getNumber(fd), vm.getString(text));
    return undefined;
  });
  define('now', () => vm.newNumber(performance.now()));
  define('exit', (code) => {
    control.exit(vm.getNumber(code) | 0);
    return undefined;
  });
  define('outOfMemory', () => {
    control.outOfMemory();
    return undefined;
  });
  define('chunk', (name) => vm.newString(PRELUDE.chunks[vm.getString(name)] ?? ''));
  define('promiseState', (promise) => {
    const state = vm.getPromiseState(promise);
    const pair = vm.newArray();
    vm.newString(state.type).consume((type) => vm.setProp(pair, 0, type));
    const value =
      state.type === 'fulfilled' ? state.value : state.type === 'rejected' ? state.error : undefined;
    if (value) {
      vm.setProp(pair, 1, value);
      if (value !== promise) value.dispose();
    }
    return pair;
  });
  define('utf8Encode', (text) => vm.newArrayBuffer(arrayBuffer(encoder.encode(vm.getString(text)))));
  define('utf8Decode', (buffer) =>
    vm.newString(vm.getArrayBuffer(buffer).consume((bytes) => decoder.decode(bytes.value))),
  );

  define('fs', (opHandle, argsHandle) => {
    const op = vm.getString(opHandle);
    const args = JSON.parse(vm.getString(argsHandle)) as unknown[];
    let reply: { ok?: unknown; error?: string };
    try {
      reply = { ok: fsOperation(tree, op, args) };
    } catch (error) {
      reply = { error: fsCode(error) };
    }
    return vm.newString(JSON.stringify(reply));
  });
  define('readBytes', (path) => {
    try {
      return vm.newArrayBuffer(arrayBuffer(tree.readFile(vm.getString(path))));
    } catch (error) {
      return vm.newString(fsCode(error));
    }
  });
  define('writeText', (path, text, append) => {
    try {
      tree.writeFile(vm.getString(path), vm.getString(text), vm.dump(append) === true);
      return undefined;
    } catch (error) {
      return vm.newString(fsCode(error));
    }
  });
  define('writeBytes', (path, buffer, append) => {
    try {
      const bytes = vm.getArrayBuffer(buffer).consume((view) => view.value.slice());
      tree.writeFile(vm.getString(path), bytes, vm.dump(append) === true);
      return undefined;
    } catch (error) {
      return vm.newString(fsCode(error));
    }
  });
  define('compile', (code, filename) => {
    const result = vm.evalCode(vm.getString(code), vm.getString(filename), { type: 'global' });
    const pair = vm.newArray();
    if (result.error) {
      vm.setProp(pair, 1, result.error);
      result.error.dispose();
    } else {
      vm.setProp(pair, 0, result.value);
      result.value.dispose();
    }
    return pair;
  });
  return host;
}

function fsOperation(tree: FileTree, op: string, args: unknown[]): unknown {
  const path = String(args[0]);
  switch (op) {
    case 'readText':
      return decoder.decode(tree.readFile(path));
    case 'stat': {
      const entry = tree.get(path);
      if (!entry) return null;
      return entry.type === 'directory'
        ? { type: 'directory', size: 4096, mtimeMs: 0 }
        : { type: 'file', size: entry.data.length, mtimeMs: entry.mtimeMs };
    }
    case 'readdir':
      return tree.readdir(path);
    case 'mkdir':
      return tree.mkdir(path, args[1] === true) ?? null;
    case 'remove':
      tree.remove(path, args[1] as { recursive?: boolean; force?: boolean; directory?: boolean });
      return null;
    case 'rename':
      tree.rename(path, String(args[1]));
      return null;
    default:
      throw new Error(`Unknown fs operation: ${op}`);
  }
}
