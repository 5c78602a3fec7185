/**
 * Takes the network, the origin's storage and the ways out of a worker away from its global
 * scope, for code that sees that scope: Python reaches it through Pyodide's `js` module (and
 * through any JS object's `constructor.constructor`, so shadowing `js` alone would not do).
 *
 * Called once the interpreter has loaded (it fetched its own files with the real `fetch`), and
 * before any user code runs. What the worker itself still needs to talk to the sandbox, it takes
 * beforehand (see pyodide.worker.ts: Comlink answers through a `postMessage` captured earlier).
 *
 * What is taken:
 *   - requests: fetch, XMLHttpRequest, WebSocket, EventSource, WebTransport, FontFace,
 *     importScripts, navigator.sendBeacon; more workers (Worker, SharedWorker), which would
 *     have them all again
 *   - the origin's storage: indexedDB, caches, cookieStore, navigator.storage (OPFS) and
 *     storageBuckets, locks
 *   - the page: postMessage, BroadcastChannel
 *   - evaluating source text (eval, Function and its async and generator kin, timers given a
 *     string): from there a dynamic `import()` would fetch a script, which nothing can delete
 * Each one becomes a stub that throws an error saying so, so scripts fail with a reason. The
 * originals are replaced, not shadowed: deleting or overwriting a stub brings nothing back, so
 * the properties stay writable for the host (a test runner restores its timers).
 */

/** What a script gets instead, as its message. */
function unavailableMessage(name: string): string {
  return `${name} is not available: code in this sandbox is offline (no network, no storage, no page access)`;
}

/** A font face loads its url() source, in workers too (`self.fonts`). */
const REQUESTS = [
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebSocketStream',
  'WebTransport',
  'EventSource',
  'FontFace',
  'fonts',
];
const WORKERS = ['importScripts', 'Worker', 'SharedWorker'];
const STORAGE = ['indexedDB', 'caches', 'cookieStore', 'requestFileSystem', 'webkitRequestFileSystem'];
const PAGE = ['postMessage', 'BroadcastChannel', 'Notification'];
const EVALUATION = ['eval', 'Function'];
/** On `navigator`: beacons are requests; storage (OPFS) and storage buckets are the origin's; locks are shared with the page. */
const NAVIGATOR = ['sendBeacon', 'storage', 'storageBuckets', 'locks', 'serviceWorker'];

/** The names taken from the global scope itself. */
const TAKEN_GLOBALS = [...REQUESTS, ...WORKERS, ...STORAGE, ...PAGE, ...EVALUATION];

function stub(name: string): (...args: unknown[]) => never {
  // A regular function, so that `new fetch()`-style calls throw the same error.
  const fn = function () {
    throw new Error(unavailableMessage(name));
  };
  Object.defineProperty(fn, 'name', { value: name });
  return fn;
}

/**
 * Replaces `name` wherever it lives on `target` and its prototype chain (Web IDL puts a global's
 * members on the global itself, other objects' on their prototypes).
 */
function take(target: object, name: string, label: string, prototype?: object): void {
  for (let object: object | null = target; object; object = Object.getPrototypeOf(object)) {
    const descriptor = Object.getOwnPropertyDescriptor(object, name);
    if (!descriptor) continue;
    const isFunction = typeof descriptor.value === 'function';
    const replacement = stub(label);
    if (prototype) replacement.prototype = prototype;
    Object.defineProperty(
      object,
      name,
      isFunction
        ? { value: replacement, writable: true, configurable: true, enumerable: false }
        : {
            get: () => {
              throw new Error(unavailableMessage(label));
            },
            configurable: true,
            enumerable: false,
          },
    );
  }
}

type TimerSetter = (handler: unknown, timeout?: number, ...args: unknown[]) => unknown;

/** Takes the network, storage, page channels and source evaluation away from `scope`. */
export function lockDownScope(scope: typeof globalThis): void {
  // Reached from any function, not only from the global: `(function () {}).constructor`.
  const kin = [
    scope.Function,
    Object.getPrototypeOf(async function () {}).constructor,
    Object.getPrototypeOf(function* () {}).constructor,
    Object.getPrototypeOf(async function* () {}).constructor,
  ] as Array<{ name: string; prototype: object }>;
  for (const constructor of kin) {
    Object.defineProperty(constructor.prototype, 'constructor', {
      value: stub(constructor.name),
      writable: true,
      configurable: true,
    });
  }
  // Pyodide tells functions by `instanceof Function`: the stand-in keeps the prototype, whose
  // constructor is a stub by now.
  for (const name of TAKEN_GLOBALS)
    take(scope, name, name, name === 'Function' ? scope.Function.prototype : undefined);
  const navigator = (scope as { navigator?: object }).navigator;
  if (navigator) for (const name of NAVIGATOR) take(navigator, name, `navigator.${name}`);

  // Timers stay (Pyodide's event loop uses them), but a string handler would be evaluated.
  for (const name of ['setTimeout', 'setInterval'] as const) {
    const original = scope[name] as unknown as TimerSetter;
    if (typeof original !== 'function') continue;
    const guarded: TimerSetter = (handler, ...rest) => {
      if (typeof handler !== 'function') throw new TypeError(unavailableMessage(`${name} with a string`));
      return original.call(scope, handler, ...rest);
    };
    Object.defineProperty(scope, name, { value: guarded, writable: true, configurable: true });
  }
}
