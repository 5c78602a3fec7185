/**
 * `require('util')`, hand-written around the formatter every run already has (inspect.js): the
 * util package only added Node 0.x's inspect and helpers a few lines each give as well.
 */
import { lazy } from '../host.js';
import { format, formatWithOptions, inspect } from './inspect.js';
import { TextDecoder, TextEncoder } from '../text.js';

const tag = (value) => Object.prototype.toString.call(value).slice(8, -1);

export const types = {
  isPromise: (v) => v instanceof Promise,
  isDate: (v) => v instanceof Date,
  isRegExp: (v) => v instanceof RegExp,
  isMap: (v) => v instanceof Map,
  isSet: (v) => v instanceof Set,
  isWeakMap: (v) => v instanceof WeakMap,
  isWeakSet: (v) => v instanceof WeakSet,
  isNativeError: (v) => v instanceof Error,
  isArrayBuffer: (v) => v instanceof ArrayBuffer,
  isAnyArrayBuffer: (v) => v instanceof ArrayBuffer || tag(v) === 'SharedArrayBuffer',
  isArrayBufferView: (v) => ArrayBuffer.isView(v),
  isTypedArray: (v) => ArrayBuffer.isView(v) && !(v instanceof DataView),
  isUint8Array: (v) => v instanceof Uint8Array,
  isDataView: (v) => v instanceof DataView,
  isAsyncFunction: (v) => typeof v === 'function' && tag(v) === 'AsyncFunction',
  isGeneratorFunction: (v) => typeof v === 'function' && /GeneratorFunction$/.test(tag(v)),
  isGeneratorObject: (v) => tag(v) === 'Generator',
};

const custom = Symbol.for('nodejs.util.promisify.custom');

function promisify(fn) {
  if (typeof fn[custom] === 'function') return fn[custom];
  return function (...args) {
    return new Promise((resolve, reject) =>
      fn.call(this, ...args, (error, value) => (error ? reject(error) : resolve(value))),
    );
  };
}
promisify.custom = custom;

export default {
  format,
  formatWithOptions,
  inspect,
  isDeepStrictEqual: (a, b) => lazy('assert').isDeepStrictEqual(a, b),
  inherits(ctor, superCtor) {
    Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
    Object.setPrototypeOf(ctor, superCtor);
    ctor.super_ = superCtor;
  },
  promisify,
  callbackify(fn) {
    return (...args) => {
      const callback = args.pop();
      fn(...args).then(
        (value) => callback(null, value),
        (error) => callback(error),
      );
    };
  },
  deprecate: (fn) => fn,
  debuglog: () => Object.assign(() => {}, { enabled: false }),
  isArray: Array.isArray,
  // ANSI escape sequences: colours and cursor moves.
  // eslint-disable-next-line no-control-regex
  stripVTControlCharacters: (text) => String(text).replace(/\u001b\[[\d;]*[A-Za-z]/g, ''),
  types,
  TextEncoder,
  TextDecoder,
};
