/**
 * Hand-written: timers belong to the host's event loop (quickjs.ts), which sleeps outside QuickJS
 * between them so the sandbox worker stays responsive. This keeps the list the host asks about
 * (nextTimer) and runs the due ones one at a time (runTimers), microtasks in between.
 */
import { host } from './host.js';
import { codedError } from './errors.js';
import { reportFatal } from './fatal.js';

const timers = new Map();
let nextTimerId = 1;

function addTimer(callback, delay, args, repeat) {
  if (typeof callback !== 'function') {
    throw codedError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "callback" argument must be of type function');
  }
  const ms = Math.max(1, Number(delay) || 0);
  const id = nextTimerId++;
  timers.set(id, { at: host.now() + ms, ms, callback, args, repeat });
  return new Timeout(id);
}

class Timeout {
  constructor(id) {
    this.id = id;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }
  hasRef() {
    return true;
  }
  refresh() {
    const timer = timers.get(this.id);
    if (timer) timer.at = host.now() + timer.ms;
    return this;
  }
  [Symbol.toPrimitive]() {
    return this.id;
  }
}

function clearTimer(handle) {
  if (handle === undefined || handle === null) return;
  timers.delete(typeof handle === 'object' ? handle.id : Number(handle));
}

export const timerGlobals = {
  setTimeout: (callback, delay, ...args) => addTimer(callback, delay, args, false),
  setInterval: (callback, delay, ...args) => addTimer(callback, delay, args, true),
  setImmediate: (callback, ...args) => addTimer(callback, 0, args, false),
  clearTimeout: clearTimer,
  clearInterval: clearTimer,
  clearImmediate: clearTimer,
  queueMicrotask: (callback) => {
    Promise.resolve().then(callback);
  },
};

export const timersPromises = {
  setTimeout: (ms, value) => new Promise((resolve) => timerGlobals.setTimeout(() => resolve(value), ms)),
  setImmediate: (value) => new Promise((resolve) => timerGlobals.setImmediate(() => resolve(value))),
};

/** Whether any timer is left. */
export const pendingTimers = () => timers.size > 0;

/** Milliseconds until the next timer is due, or -1 when none is left. */
export function nextTimer() {
  let first = Infinity;
  for (const timer of timers.values()) first = Math.min(first, timer.at);
  return first === Infinity ? -1 : Math.max(0, first - host.now());
}

/** Runs the first due timer: the host runs the microtasks it queued before the next. */
export function runTimers() {
  const now = host.now();
  const due = [...timers].filter(([, t]) => t.at <= now).sort(([a, x], [b, y]) => x.at - y.at || a - b);
  for (const [id, timer] of due) {
    if (!timers.has(id)) continue;
    if (timer.repeat) timer.at = host.now() + timer.ms;
    else timers.delete(id);
    try {
      timer.callback(...timer.args);
    } catch (error) {
      reportFatal(error);
    }
    return true;
  }
  return false;
}
