/**
 * `require('assert')`, hand-written: Node's methods, and AssertionError with Node's code, fields
 * and messages for the common cases ("Expected values to be strictly equal:\n\n1 !== 2\n"),
 * without Node's line-by-line diff of big values. The assert package needs the util package and
 * Node's inspect, which QuickJS would load on every run that asserts and which weigh on the node
 * chunk; this file is small and loads quickly (docs/benchmarks.md has the figures).
 */
import { inspect } from './inspect.js';

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

/** Node's isDeepEqual, loose (==, prototypes ignored) or strict. */
function isDeepEqual(a, b, strict, seen = []) {
  if (strict ? Object.is(a, b) : a == b || (a !== a && b !== b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (seen.some(([x, y]) => x === a && y === b)) return true;
  const next = [...seen, [a, b]];
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof RegExp && b instanceof RegExp) return String(a) === String(b);
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !isDeepEqual(v, b.get(k), strict, next)) return false;
    return true;
  }
  if (a instanceof Set && b instanceof Set) {
    if (a.size !== b.size) return false;
    for (const v of a) if (!b.has(v)) return false;
    return true;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => hasOwn(b, k) && isDeepEqual(a[k], b[k], strict, next));
}

export const isDeepStrictEqual = (a, b) => isDeepEqual(a, b, true);

export class AssertionError extends Error {
  constructor(options) {
    super(options.message);
    // Node's order, which its report of an uncaught AssertionError shows.
    this.generatedMessage = !options.userMessage;
    this.code = 'ERR_ASSERTION';
    this.actual = options.actual;
    this.expected = options.expected;
    this.operator = options.operator;
  }
}
AssertionError.prototype.name = 'AssertionError';

function fail(actual, expected, message, operator, defaultMessage) {
  if (message instanceof Error) throw message;
  throw new AssertionError({
    message: message ?? defaultMessage,
    userMessage: message !== undefined,
    actual,
    expected,
    operator,
  });
}

const comparison = (title, actual, expected, sep) =>
  `${title}\n\n${inspect(actual)}${sep ? ` ${sep} ${inspect(expected)}` : `\n\nshould equal\n\n${inspect(expected)}`}\n`;

const falsy = (call, value) => `The expression evaluated to a falsy value:\n\n  ${call}(${inspect(value)})\n`;

function checkThrown(error, expected, message, operator) {
  if (expected === undefined || typeof expected === 'string') return;
  if (expected instanceof RegExp) {
    if (!expected.test(String(error?.message ?? error))) {
      fail(
        error,
        expected,
        message,
        operator,
        `The input did not match the regular expression ${expected}. Input:\n\n${inspect(String(error))}\n`,
      );
    }
  } else if (typeof expected === 'function') {
    if (expected.prototype !== undefined && error instanceof expected) return;
    if (Object.prototype.isPrototypeOf.call(Error, expected) || expected === Error) {
      fail(
        error,
        expected,
        message,
        operator,
        `The error is expected to be an instance of "${expected.name}". Received "${error?.constructor?.name}"`,
      );
    }
    if (expected.call({}, error) !== true)
      fail(error, expected, message, operator, 'The validation function is expected to return "true".');
  } else if (typeof expected === 'object' && expected !== null) {
    for (const key of Object.keys(expected)) {
      const want = expected[key];
      const ok =
        want instanceof RegExp && typeof error?.[key] === 'string'
          ? want.test(error[key])
          : isDeepEqual(error?.[key], want, true);
      if (!ok)
        fail(
          error,
          expected,
          message,
          operator,
          `Expected values to be strictly deep-equal:\n+ actual - expected\n\n  ${key}: ${inspect(error?.[key])} !== ${inspect(want)}\n`,
        );
    }
  }
}

const matches = (text, regexp, message, operator, wanted) => {
  if (typeof text !== 'string' || regexp.test(text) !== wanted)
    fail(
      text,
      regexp,
      message,
      operator,
      typeof text !== 'string'
        ? `The "string" argument must be of type string. Received type ${typeof text} (${inspect(text)})`
        : `The input ${wanted ? 'did not match' : 'was expected to not match'} the regular expression ${regexp}. Input:\n\n${inspect(text)}\n`,
    );
};

export default function assert(value, message) {
  if (!value) fail(value, true, message, '==', falsy('assert', value));
}

Object.assign(assert, {
  AssertionError,
  ok: (value, message) => {
    if (!value) fail(value, true, message, '==', falsy('assert.ok', value));
  },
  equal: (a, b, message) => {
    if (!(a == b || (a !== a && b !== b))) fail(a, b, message, '==', `${inspect(a)} == ${inspect(b)}`);
  },
  notEqual: (a, b, message) => {
    if (a == b) fail(a, b, message, '!=', `${inspect(a)} != ${inspect(b)}`);
  },
  strictEqual: (a, b, message) => {
    if (!Object.is(a, b))
      fail(a, b, message, 'strictEqual', comparison('Expected values to be strictly equal:', a, b, '!=='));
  },
  notStrictEqual: (a, b, message) => {
    if (Object.is(a, b))
      fail(a, b, message, 'notStrictEqual', `Expected "actual" to be strictly unequal to: ${inspect(b)}`);
  },
  deepEqual: (a, b, message) => {
    if (!isDeepEqual(a, b, false))
      fail(a, b, message, 'deepEqual', comparison('Expected values to be loosely deep-equal:', a, b));
  },
  deepStrictEqual: (a, b, message) => {
    if (!isDeepEqual(a, b, true))
      fail(a, b, message, 'deepStrictEqual', comparison('Expected values to be strictly deep-equal:', a, b));
  },
  notDeepStrictEqual: (a, b, message) => {
    if (isDeepEqual(a, b, true))
      fail(
        a,
        b,
        message,
        'notDeepStrictEqual',
        `Expected "actual" not to be strictly deep-equal to: ${inspect(b)}`,
      );
  },
  notDeepEqual: (a, b, message) => {
    if (isDeepEqual(a, b, false))
      fail(a, b, message, 'notDeepEqual', `Expected "actual" not to be loosely deep-equal to: ${inspect(b)}`);
  },
  match: (text, regexp, message) => matches(text, regexp, message, 'match', true),
  doesNotMatch: (text, regexp, message) => matches(text, regexp, message, 'doesNotMatch', false),
  fail: (message = 'Failed') => fail(undefined, undefined, message, 'fail'),
  ifError: (value) => {
    if (value !== null && value !== undefined)
      fail(
        value,
        null,
        undefined,
        'ifError',
        `ifError got unwanted exception: ${typeof value?.message === 'string' ? value.message : inspect(value)}`,
      );
  },
  throws(fn, expected, message) {
    try {
      fn();
    } catch (error) {
      checkThrown(error, expected, message, 'throws');
      return;
    }
    fail(
      undefined,
      expected,
      typeof expected === 'string' ? expected : message,
      'throws',
      'Missing expected exception.',
    );
  },
  doesNotThrow(fn, message) {
    try {
      fn();
    } catch (error) {
      fail(
        error,
        undefined,
        message,
        'doesNotThrow',
        `Got unwanted exception.\nActual message: "${error?.message}"`,
      );
    }
  },
  async rejects(promiseOrFn, expected, message) {
    try {
      await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn);
    } catch (error) {
      checkThrown(error, expected, message, 'rejects');
      return;
    }
    fail(undefined, expected, message, 'rejects', 'Missing expected rejection.');
  },
  async doesNotReject(promiseOrFn, message) {
    try {
      await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn);
    } catch (error) {
      fail(
        error,
        undefined,
        message,
        'doesNotReject',
        `Got unwanted rejection.\nActual message: "${error?.message}"`,
      );
    }
  },
});

/** `assert.strict`, `require('assert/strict')`: the loose comparisons are the strict ones. */
const strict = (value, message) => assert.ok(value, message);
Object.assign(strict, assert, {
  equal: assert.strictEqual,
  notEqual: assert.notStrictEqual,
  deepEqual: assert.deepStrictEqual,
  notDeepEqual: assert.notDeepStrictEqual,
});
strict.strict = strict;
assert.strict = strict;
