/**
 * Hand-written: console writes to the host's stdout and stderr (fd 1 and 2), which collect the
 * command's output. What it prints is util.format's (lazy/inspect.js), compiled the first time a
 * value needs it: strings, numbers, booleans, null and undefined print as String() gives them, as
 * Node's format does, so `console.log('done', 3)` costs no inspect.
 */
import { host, lazy } from './host.js';
import { userFrames } from './errors.js';

const plain = (value) =>
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  value === undefined ||
  value === null ||
  (typeof value === 'number' && !Object.is(value, -0));

/** util.format(...args). */
export function format(...args) {
  if (args.every(plain) && !(typeof args[0] === 'string' && args[0].includes('%')))
    return args.map(String).join(' ');
  return lazy('inspect').format(...args);
}

let groupIndent = '';
const counts = new Map();
const timings = new Map();

/** Writes one line to fd 1 or 2, indented by console.group. */
export function writeLine(fd, text) {
  const line = groupIndent ? text.replace(/^/gm, groupIndent) : text;
  host.write(fd, `${line}\n`);
}

const elapsed = (label) => `${label}: ${(host.now() - (timings.get(label) ?? 0)).toFixed(3)}ms`;

export const console = {
  log: (...args) => writeLine(1, format(...args)),
  info: (...args) => writeLine(1, format(...args)),
  debug: (...args) => writeLine(1, format(...args)),
  error: (...args) => writeLine(2, format(...args)),
  warn: (...args) => writeLine(2, format(...args)),
  trace: (...args) => writeLine(2, `Trace: ${format(...args)}\n${userFrames(new Error().stack ?? '')}`),
  dir: (value, options) => writeLine(1, lazy('inspect').inspect(value, { customInspect: false, ...options })),
  table: (value) => writeLine(1, format(value)),
  assert: (condition, ...args) => {
    if (!condition) writeLine(2, args.length ? `Assertion failed: ${format(...args)}` : 'Assertion failed');
  },
  count: (label = 'default') => {
    counts.set(label, (counts.get(label) ?? 0) + 1);
    writeLine(1, `${label}: ${counts.get(label)}`);
  },
  countReset: (label = 'default') => counts.delete(label),
  time: (label = 'default') => timings.set(label, host.now()),
  timeLog: (label = 'default', ...args) => writeLine(1, format(elapsed(label), ...args)),
  timeEnd: (label = 'default') => {
    writeLine(1, elapsed(label));
    timings.delete(label);
  },
  group: (...args) => {
    if (args.length) writeLine(1, format(...args));
    groupIndent += '  ';
  },
  groupEnd: () => {
    groupIndent = groupIndent.slice(2);
  },
};
