/**
 * The Node.js world a `node` script sees inside QuickJS. Maintained packages provide what they
 * can at little cost; the rest is hand-written, each file saying why:
 *
 *   path            path-browserify, with Node's argument errors    path.js
 *   events          events
 *   buffer          buffer                                          lazy/buffer.js
 *   string_decoder  string_decoder                                  lazy/string_decoder.js
 *   util.inspect    hand-written: Node's own is slow to load        lazy/inspect.js
 *   util, assert    hand-written, printing with inspect.js          lazy/util.js, lazy/assert.js
 *   fs              hand-written, over the host's shared tree       fs.js
 *   require         hand-written, CommonJS over that tree           modules.js
 *   process, console, timers, os, TextEncoder, uncaught errors: hand-written, over the host
 *
 * vite-plugins/node-prelude.ts bundles this folder into chunks that quickjs.ts hands to each run's
 * fresh QuickJS context: this module's runs first, once the host functions are handed over
 * (host.js); a module of lazy/ is compiled the first time a script needs it. This module's
 * default export is the entry points the host calls. Frames of the chunks are named
 * `node:internal/prelude/…` and left out of the stacks users see.
 */
import { host, lazy } from './host.js';
import { EventEmitter } from 'events';
import { codedError } from './errors.js';
import { reportFatal } from './fatal.js';
import { console, format } from './console.js';
import { fs } from './fs.js';
import {
  evalModule,
  esmError,
  fakeModule,
  looksLikeEsm,
  makeRequire,
  registerBuiltins,
  resolveMain,
  runMain,
} from './modules.js';
import { os } from './os.js';
import { path } from './path.js';
import { process } from './process.js';
import { TextDecoder, TextEncoder } from './text.js';
import { nextTimer, pendingTimers, runTimers, timerGlobals, timersPromises } from './timers.js';

const builtins = {
  fs: () => fs,
  'fs/promises': () => fs.promises,
  path: () => path,
  'path/posix': () => path,
  util: () => lazy('util').default,
  'util/types': () => lazy('util').types,
  assert: () => lazy('assert').default,
  'assert/strict': () => lazy('assert').default.strict,
  events: () => EventEmitter,
  os: () => os,
  buffer: () => lazy('buffer').default,
  string_decoder: () => lazy('string_decoder'),
  timers: () => ({ ...timerGlobals }),
  'timers/promises': () => timersPromises,
  process: () => process,
  console: () => console,
  module: () => ({
    builtinModules: Object.keys(builtins),
    createRequire: (file) => makeRequire(fakeModule(file)),
  }),
};
registerBuiltins(builtins);

Object.assign(globalThis, timerGlobals, {
  global: globalThis,
  console,
  process,
  TextEncoder,
  TextDecoder,
  atob: (text) => lazy('buffer').Buffer.from(String(text), 'base64').toString('latin1'),
  btoa: (text) => lazy('buffer').Buffer.from(String(text), 'latin1').toString('base64'),
  structuredClone: (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value))),
  performance: { now: () => host.now(), timeOrigin: Date.now() - host.now() },
  // Node has fetch, so scripts call it: it fails as Node's does offline, saying why.
  fetch: () =>
    Promise.reject(
      codedError(TypeError, 'ERR_UNAVAILABLE_IN_SANDBOX', 'fetch failed: this sandbox has no network'),
    ),
});

// Buffer loads on first use, and a script may replace it: Node's global Buffer is such a pair too.
Object.defineProperty(globalThis, 'Buffer', {
  get() {
    const { Buffer } = lazy('buffer');
    Object.defineProperty(globalThis, 'Buffer', { value: Buffer, writable: true, configurable: true });
    return Buffer;
  },
  set(value) {
    Object.defineProperty(globalThis, 'Buffer', { value, writable: true, configurable: true });
  },
  configurable: true,
});

export default {
  /** Runs `filename` as the main module. */
  runMain(filename) {
    try {
      const resolved = resolveMain(filename);
      process.argv[1] = resolved;
      runMain(resolved);
    } catch (error) {
      reportFatal(error);
    }
  },
  /** Gives `node -e` code the globals Node gives it: require, module, exports, __filename. */
  prepareEval() {
    const module = evalModule();
    Object.assign(globalThis, {
      require: module.require,
      module,
      exports: module.exports,
      __filename: '[eval]',
      __dirname: '.',
    });
  },
  /** What `node -p` prints for the value of its code. */
  print(value) {
    host.write(1, `${format(value)}\n`);
  },
  /** `node -e` code that did not compile. */
  fatal(error, source) {
    if (error instanceof SyntaxError && source !== undefined && looksLikeEsm(source))
      reportFatal(esmError('[eval]'));
    reportFatal(error);
  },
  nextTimer,
  runTimers,
  /** The script ran out of work: Node's 'beforeExit' and 'exit', then the exit code. */
  finish() {
    try {
      process.emit('beforeExit', Number(process.exitCode ?? 0));
    } catch (error) {
      reportFatal(error);
    }
    if (pendingTimers()) return -1;
    process.exit();
  },
};
