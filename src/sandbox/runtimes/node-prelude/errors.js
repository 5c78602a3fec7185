/**
 * Hand-written: errors as Node's internals make them, for the parts of Node written here and for
 * path-browserify, whose argument checks are Node 10's ("Path must be a string"): the same
 * `code` and the same words Node prints today.
 */
const STACK_TRACE_LIMIT = 10;

/** The frames of a QuickJS stack that belong to the user's code, ten at most as in V8. */
export function userFrames(stack) {
  return stack
    .split('\n')
    .filter((line) => line.trim() && !line.includes('node:internal/') && !line.includes('(native)'))
    .slice(0, STACK_TRACE_LIMIT)
    .join('\n');
}

/** An error with Node's `code`. */
export function codedError(Ctor, code, message) {
  const error = new Ctor(message);
  error.code = code;
  return error;
}

/** How Node names a wrong argument: "Received type number (1)", "Received an instance of Map". */
function received(value) {
  if (value === null || value === undefined) return String(value);
  switch (typeof value) {
    case 'function':
      return `function ${value.name}`;
    case 'object':
      return value.constructor?.name ? `an instance of ${value.constructor.name}` : 'an object';
    case 'string': {
      const text = value.length > 28 ? `${value.slice(0, 25)}...` : value;
      return `type string (${text.includes("'") ? JSON.stringify(text) : `'${text}'`})`;
    }
    case 'number':
      return `type number (${Object.is(value, -0) ? '-0' : value})`;
    case 'bigint':
      return `type bigint (${value}n)`;
    default:
      return `type ${typeof value} (${String(value)})`;
  }
}

/** Node's ERR_INVALID_ARG_TYPE for an argument that must be a string. */
export function assertString(value, name) {
  if (typeof value !== 'string') {
    throw codedError(
      TypeError,
      'ERR_INVALID_ARG_TYPE',
      `The "${name}" argument must be of type string. Received ${received(value)}`,
    );
  }
}
