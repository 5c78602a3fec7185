/**
 * Hand-written: what node-inspect-extracted (Node's inspect, made for browsers) needs and cannot
 * find in QuickJS. The bundle hands it these (build/node-prelude.ts):
 * - an error's stack as V8 writes it, "Name: message" then frames: inspect prints errors by it,
 *   and QuickJS's stacks hold frames only (and no Error.captureStackTrace to change that);
 * - a promise's state, which only the host can read (QuickJS's own), for `Promise { 42 }`;
 * - `URL` for its `instanceof URL`: this sandbox has no URL objects;
 * - `Atomics`, whose keys it copies when it loads: a stand-in until then.
 */
import { host } from './host.js';
import { userFrames } from './errors.js';

const atomicsStandIn = !('Atomics' in globalThis);
if (atomicsStandIn) globalThis.Atomics = Object.create(null);

/** Takes the stand-in away once node-inspect-extracted has loaded. */
export function removeStandIns() {
  if (atomicsStandIn) delete globalThis.Atomics;
}

export class URL {
  constructor() {
    throw new TypeError('URL is not available in this sandbox');
  }
}

/**
 * `error.stack` as V8 would give it: QuickJS's frames (the user's, ten at most) under
 * "Name: message". Node's own errors, with an `ERR_*` code, show it after the name as Node's do:
 * "TypeError [ERR_INVALID_ARG_TYPE]: ...".
 */
export function stackOf(error) {
  const stack = error.stack;
  if (typeof stack === 'string' && stack !== '' && !/^\s+at /.test(stack)) return stack;
  let name = String(error.name ?? 'Error');
  if (typeof error.code === 'string' && error.code.startsWith('ERR_') && !name.includes('['))
    name = `${name} [${error.code}]`;
  const message = error.message === undefined ? '' : String(error.message);
  const header = message === '' ? name : name === '' ? message : `${name}: ${message}`;
  const frames = typeof stack === 'string' ? userFrames(stack) : '';
  return frames ? `${header}\n${frames}` : header;
}

/** [state, value] as Node's internals give it, `kPending` and `kRejected` being inspect's own. */
export function promiseDetails(promise, kPending, kRejected) {
  const [state, value] = host.promiseState(promise);
  if (state === 'pending') return [kPending, undefined];
  return [state === 'rejected' ? kRejected : state, value];
}
