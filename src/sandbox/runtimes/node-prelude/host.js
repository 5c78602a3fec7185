/**
 * Hand-written: the bridge to quickjs.ts, this sandbox's own protocol. The host's synchronous
 * functions (write, fs over the shared FileTree, compile, exit, clock) and the run's settings
 * arrive as one global that is taken away here, before any script runs.
 */
const HOST_GLOBAL = '__nodeHost';

export const host = globalThis[HOST_GLOBAL];
delete globalThis[HOST_GLOBAL];

/** version, quickjsVersion, argv, cwd, env, stdin, memoryLimitBytes. */
export const init = JSON.parse(host.init);

/** Ends the run with `code`: the host stops QuickJS at its next check, past any try/catch. */
export function hardExit(code) {
  host.exit(code);
  for (;;) {
    // The interrupt handler ends this loop: nothing in the script can catch that.
  }
}

/** Calls the host's tree; an `ENOENT`-style code comes back as an error with `fsCode`. */
export function fsHost(op, args) {
  const reply = JSON.parse(host.fs(op, JSON.stringify(args)));
  if (reply.error) {
    const failure = new Error(reply.error);
    failure.fsCode = reply.error;
    throw failure;
  }
  return reply.ok;
}

export const utf8Encode = (text) => new Uint8Array(host.utf8Encode(String(text)));
export const utf8Decode = (bytes) =>
  host.utf8Decode(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

/**
 * The exports of a module of lazy/, compiled and run the first time one is asked for, so that a
 * run pays only for the packages it uses. `host.load` is the bundle's chunk loader
 * (vite-plugins/node-prelude.ts).
 */
export const lazy = (name) => host.load(name);
