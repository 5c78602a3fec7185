/**
 * Hand-written util.inspect and util.format, laid out by Node's rules (80 columns, three inner
 * levels on a line, more than six short array items in columns, `<ref *1>`, errors as V8 stacks):
 * Node's own inspect (node-inspect-extracted) prints identically, but QuickJS would load it on
 * every run that prints an object and it weighs on the node chunk; this file is small and loads
 * quickly. console.log, util, assert's messages and the uncaught-error report print with it.
 */
import { host } from '../host.js';
import { userFrames } from '../errors.js';

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

const DEFAULTS = { depth: 2, customInspect: true, breakLength: 80, maxArrayLength: 100 };
/** Node's `compact: 3`: the three innermost levels of objects may share a line. */
const COMPACT = 3;

/** util.inspect(value, options), or the old (value, showHidden, depth) form. */
export function inspect(value, options, legacyDepth) {
  const ctx = { ...DEFAULTS, seen: [], circular: undefined, indentationLvl: 0, currentDepth: 0 };
  if (options !== null && typeof options === 'object') {
    for (const key of Object.keys(DEFAULTS)) if (options[key] !== undefined) ctx[key] = options[key];
  } else if (legacyDepth !== undefined) ctx.depth = legacyDepth;
  if (ctx.depth === null) ctx.depth = Infinity;
  if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
  return formatValue(ctx, value, 0);
}
inspect.custom = Symbol.for('nodejs.util.inspect.custom');
inspect.defaultOptions = DEFAULTS;

const META = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

/** A string as Node quotes it: single quotes unless the text holds some. */
function quote(text) {
  let q = "'";
  if (text.includes("'")) {
    if (!text.includes('"')) q = '"';
    else if (!text.includes('`') && !text.includes('${')) q = '`';
  }
  const special = new RegExp(`[\\x00-\\x1f\\x7f\\\\${q}]`, 'g');
  const escaped = text.replace(special, (c) =>
    c === q || c === '\\'
      ? `\\${c}`
      : (META[c] ?? `\\x${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`),
  );
  return `${q}${escaped}${q}`;
}

function formatPrimitive(value) {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n`;
    default:
      return String(value);
  }
}

/** A Buffer of the buffer package (lazy/buffer.js), told apart without loading it. */
const isBuffer = (value) => ArrayBuffer.isView(value) && value._isBuffer === true;

function formatBuffer(buffer) {
  const shown = Array.from(buffer.subarray(0, 50), (b) => b.toString(16).padStart(2, '0')).join(' ');
  const more =
    buffer.length > 50 ? ` ... ${buffer.length - 50} more byte${buffer.length > 51 ? 's' : ''}` : '';
  return `<Buffer${shown ? ' ' : ''}${shown}${more}>`;
}

function formatValue(ctx, value, recurseTimes) {
  if (typeof value !== 'object' && typeof value !== 'function') return formatPrimitive(value);
  if (value === null) return 'null';
  if (isBuffer(value)) return formatBuffer(value);
  if (ctx.customInspect) {
    const custom = value[inspect.custom];
    if (typeof custom === 'function' && custom !== inspect) {
      const depth = ctx.depth - recurseTimes;
      const { customInspect, breakLength, maxArrayLength } = ctx;
      const options = { depth, customInspect, breakLength, maxArrayLength, stylize: (text) => text };
      const result = custom.call(value, depth, options, inspect);
      if (result !== value) {
        if (typeof result !== 'string') return formatValue(ctx, result, recurseTimes);
        return result.replace(/\n/g, `\n${' '.repeat(ctx.indentationLvl)}`);
      }
    }
  }
  if (ctx.seen.includes(value)) {
    ctx.circular ??= new Map();
    if (!ctx.circular.has(value)) ctx.circular.set(value, ctx.circular.size + 1);
    return `[Circular *${ctx.circular.get(value)}]`;
  }
  return formatRaw(ctx, value, recurseTimes);
}

/** The name of `value`'s constructor, or null for an object without a prototype. */
function constructorName(value) {
  for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, 'constructor');
    if (typeof descriptor?.value === 'function' && descriptor.value.name !== '') return descriptor.value.name;
  }
  return null;
}

/**
 * An error's stack as V8 writes it: "Name: message", then the user's frames (QuickJS's stacks
 * hold frames only). Node's own errors show their code: "TypeError [ERR_INVALID_ARG_TYPE]: …".
 */
function stackOf(error) {
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

function formatError(ctx, error) {
  let text = stackOf(error);
  // An error without frames is shown in brackets, as Node shows one.
  if (!/\n\s+at /.test(text)) text = `[${text}]`;
  return ctx.indentationLvl ? text.replace(/\n/g, `\n${' '.repeat(ctx.indentationLvl)}`) : text;
}

function functionBase(fn) {
  const source = Function.prototype.toString.call(fn);
  if (/^class\b/.test(source)) {
    const parent = Object.getPrototypeOf(fn);
    const extended = parent !== Function.prototype && parent?.name ? ` extends ${parent.name}` : '';
    return `[class ${fn.name || '(anonymous)'}${extended}]`;
  }
  const tag = fn[Symbol.toStringTag];
  const type = typeof tag === 'string' && tag.endsWith('Function') ? tag : 'Function';
  return fn.name ? `[${type}: ${fn.name}]` : `[${type} (anonymous)]`;
}

function formatRaw(ctx, value, recurseTimes) {
  const name = constructorName(value);
  let keys = Reflect.ownKeys(value).filter((k) => Object.getOwnPropertyDescriptor(value, k)?.enumerable);
  let base = '';
  let braces = ['{', '}'];
  let formatter = () => [];
  let isArrayLike = false;

  if (Array.isArray(value)) {
    keys = keys.filter((k) => typeof k === 'symbol' || !/^\d+$/.test(k));
    const prefix =
      name === 'Array'
        ? ''
        : name === null
          ? `[Array(${value.length}): null prototype] `
          : `${name}(${value.length}) `;
    braces = [`${prefix}[`, ']'];
    if (value.length === 0 && keys.length === 0) return `${braces[0]}]`;
    formatter = formatArray;
    isArrayLike = true;
  } else if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    keys = keys.filter((k) => typeof k === 'symbol' || !/^\d+$/.test(k));
    braces = [`${name}(${value.length}) [`, ']'];
    if (value.length === 0 && keys.length === 0) return `${braces[0]}]`;
    formatter = formatTypedArray;
    isArrayLike = true;
  } else if (value instanceof Map) {
    braces = [`${name}(${value.size}) {`, '}'];
    if (value.size === 0 && keys.length === 0) return `${braces[0]}}`;
    formatter = formatMap;
  } else if (value instanceof Set) {
    braces = [`${name}(${value.size}) {`, '}'];
    if (value.size === 0 && keys.length === 0) return `${braces[0]}}`;
    formatter = formatSet;
  } else if (typeof value === 'function') {
    base = functionBase(value);
    if (keys.length === 0) return base;
  } else if (value instanceof Error) {
    base = formatError(ctx, value);
    // Node leaves out what the stack already says, and shows a cause and an AggregateError's errors.
    keys = keys.filter((k) => !['name', 'message', 'stack'].includes(k) || !base.includes(String(value[k])));
    for (const hidden of ['cause', 'errors'])
      if (hasOwn(value, hidden) && !keys.includes(hidden)) keys.push(hidden);
    if (keys.length === 0) return base;
  } else if (value instanceof RegExp || value instanceof Date) {
    base =
      value instanceof RegExp
        ? String(value)
        : Number.isNaN(value.getTime())
          ? 'Invalid Date'
          : value.toISOString();
    if (keys.length === 0) return base;
  } else if (value instanceof Promise) {
    braces = [`${name ?? 'Promise'} {`, '}'];
    formatter = formatPromise;
  } else if (value instanceof WeakMap || value instanceof WeakSet) {
    return `${name} { <items unknown> }`;
  } else if (value instanceof ArrayBuffer) {
    braces = [`${name} {`, '}'];
    formatter = (_ctx, buffer) => [
      `[Uint8Contents]: <${Array.from(new Uint8Array(buffer, 0, Math.min(buffer.byteLength, 50)), (b) => b.toString(16).padStart(2, '0')).join(' ')}${buffer.byteLength > 50 ? ` ... ${buffer.byteLength - 50} more bytes` : ''}>`,
      `byteLength: ${buffer.byteLength}`,
    ];
  } else {
    // A Symbol.toStringTag that is not an own enumerable key shows after the name: `Object [Math]`.
    let tag = value[Symbol.toStringTag];
    if (
      typeof tag !== 'string' ||
      tag === name ||
      Object.prototype.propertyIsEnumerable.call(value, Symbol.toStringTag)
    )
      tag = '';
    const prefix = `${name ?? '[Object: null prototype]'}${tag ? ` [${tag}]` : ''}`;
    braces[0] = prefix === 'Object' ? '{' : `${prefix} {`;
    if (keys.length === 0) return `${braces[0]}}`;
  }

  if (recurseTimes > ctx.depth) return `[${name ?? 'Object: null prototype'}]`;
  recurseTimes += 1;
  ctx.seen.push(value);
  ctx.currentDepth = recurseTimes;
  const output = formatter(ctx, value, recurseTimes);
  for (const key of keys) output.push(formatProperty(ctx, value, recurseTimes, key, false));
  ctx.seen.pop();

  const reference = ctx.circular?.get(value);
  if (reference !== undefined) base = base === '' ? `<ref *${reference}>` : `<ref *${reference}> ${base}`;
  return reduceToSingleString(ctx, output, base, braces, isArrayLike, recurseTimes, value);
}

function formatProperty(ctx, value, recurseTimes, key, isArrayItem) {
  const descriptor = Object.getOwnPropertyDescriptor(value, key) ?? { value: value[key] };
  let shown;
  if (descriptor.value !== undefined) {
    ctx.indentationLvl += 2;
    shown = formatValue(ctx, descriptor.value, recurseTimes);
    ctx.indentationLvl -= 2;
  } else if (descriptor.get !== undefined) {
    shown = descriptor.set !== undefined ? '[Getter/Setter]' : '[Getter]';
  } else {
    shown = descriptor.set !== undefined ? '[Setter]' : 'undefined';
  }
  if (isArrayItem) return shown;
  const name =
    typeof key === 'symbol'
      ? `[${key.toString()}]`
      : descriptor.enumerable === false
        ? `[${key}]`
        : /^[a-zA-Z_][a-zA-Z_0-9]*$/.test(key)
          ? key
          : quote(key);
  return `${name}: ${shown}`;
}

const moreItems = (count) => `... ${count} more item${count > 1 ? 's' : ''}`;

function formatArray(ctx, array, recurseTimes) {
  const output = [];
  let i = 0;
  for (; i < array.length && output.length < ctx.maxArrayLength; i++) {
    if (hasOwn(array, i)) {
      output.push(formatProperty(ctx, array, recurseTimes, i, true));
      continue;
    }
    let end = i;
    while (end + 1 < array.length && !hasOwn(array, end + 1)) end++;
    const holes = end - i + 1;
    output.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`);
    i = end;
  }
  if (i < array.length) output.push(moreItems(array.length - i));
  return output;
}

function formatTypedArray(ctx, array) {
  const shown = Math.min(array.length, ctx.maxArrayLength);
  const output = [];
  for (let i = 0; i < shown; i++) output.push(formatPrimitive(array[i]));
  if (array.length > shown) output.push(moreItems(array.length - shown));
  return output;
}

function formatMap(ctx, map, recurseTimes) {
  const output = [];
  ctx.indentationLvl += 2;
  for (const [key, entry] of map) {
    if (output.length >= ctx.maxArrayLength) {
      output.push(moreItems(map.size - output.length));
      break;
    }
    output.push(`${formatValue(ctx, key, recurseTimes)} => ${formatValue(ctx, entry, recurseTimes)}`);
  }
  ctx.indentationLvl -= 2;
  return output;
}

function formatSet(ctx, set, recurseTimes) {
  const output = [];
  ctx.indentationLvl += 2;
  for (const entry of set) {
    if (output.length >= ctx.maxArrayLength) {
      output.push(moreItems(set.size - output.length));
      break;
    }
    output.push(formatValue(ctx, entry, recurseTimes));
  }
  ctx.indentationLvl -= 2;
  return output;
}

/** QuickJS keeps a promise's state from scripts: the host reads it. */
function formatPromise(ctx, promise, recurseTimes) {
  const [state, result] = host.promiseState(promise);
  if (state === 'pending') return ['<pending>'];
  ctx.indentationLvl += 2;
  const shown = formatValue(ctx, result, recurseTimes);
  ctx.indentationLvl -= 2;
  return [state === 'rejected' ? `<rejected> ${shown}` : shown];
}

/** Node's groupArrayElements: more than six short items are set out in aligned columns. */
function groupArrayElements(ctx, output, value) {
  let totalLength = 0;
  let maxLength = 0;
  let outputLength = output.length;
  if (ctx.maxArrayLength < value.length && outputLength > 0) outputLength--;
  const separatorSpace = 2;
  const dataLen = [];
  for (let i = 0; i < outputLength; i++) {
    const len = output[i].length;
    dataLen.push(len);
    totalLength += len + separatorSpace;
    if (maxLength < len) maxLength = len;
  }
  const actualMax = maxLength + separatorSpace;
  if (
    actualMax * 3 + ctx.indentationLvl < ctx.breakLength &&
    (totalLength / actualMax > 5 || maxLength <= 6)
  ) {
    const averageBias = Math.sqrt(actualMax - totalLength / output.length);
    const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
    const columns = Math.min(
      Math.round(Math.sqrt(2.5 * biasedMax * outputLength) / biasedMax),
      Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
      COMPACT * 4,
      15,
    );
    if (columns <= 1) return output;
    const maxLineLength = [];
    for (let i = 0; i < columns; i++) {
      let lineLength = 0;
      for (let j = i; j < output.length; j += columns) if (dataLen[j] > lineLength) lineLength = dataLen[j];
      maxLineLength.push(lineLength + separatorSpace);
    }
    let numbers = true;
    for (let i = 0; i < output.length; i++) {
      if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') {
        numbers = false;
        break;
      }
    }
    const grouped = [];
    for (let i = 0; i < outputLength; i += columns) {
      const max = Math.min(i + columns, outputLength);
      let line = '';
      let j = i;
      for (; j < max - 1; j++) {
        const cell = `${output[j]}, `;
        line += numbers ? cell.padStart(maxLineLength[j - i]) : cell.padEnd(maxLineLength[j - i]);
      }
      line += numbers ? output[j].padStart(maxLineLength[j - i] - separatorSpace) : output[j];
      grouped.push(line);
    }
    if (outputLength < output.length) grouped.push(output[outputLength]);
    return grouped;
  }
  return output;
}

/** One line when it fits in 80 columns and holds at most three levels; else one entry a line. */
function reduceToSingleString(ctx, output, base, braces, isArrayLike, recurseTimes, value) {
  const entries = output.length;
  if (isArrayLike && entries > 6) output = groupArrayElements(ctx, output, value);
  if (ctx.currentDepth - recurseTimes < COMPACT && entries === output.length) {
    const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
    let totalLength = output.length + start;
    const fits =
      totalLength + output.length <= ctx.breakLength &&
      output.every((entry) => (totalLength += entry.length) <= ctx.breakLength) &&
      !base.includes('\n');
    if (fits) {
      const joined = output.join(', ');
      if (!joined.includes('\n')) return `${base ? `${base} ` : ''}${braces[0]} ${joined} ${braces[1]}`;
    }
  }
  const indentation = `\n${' '.repeat(ctx.indentationLvl)}`;
  return `${base ? `${base} ` : ''}${braces[0]}${indentation}  ${output.join(`,${indentation}  `)}${indentation}${braces[1]}`;
}

/** Whether `%s` inspects `value` (an object of a built-in class) rather than String() it. */
function builtInToString(value) {
  if (hasOwn(value, 'toString')) return false;
  let proto = value;
  do proto = Object.getPrototypeOf(proto);
  while (proto !== null && !hasOwn(proto, 'constructor'));
  const ctor = proto?.constructor;
  return proto === null || (typeof ctor === 'function' && globalThis[ctor.name] === ctor);
}

/** util.format(...args): printf-like %s %d %i %f %j %o %O %c, then the rest inspected. */
export const format = (...args) => formatWithOptions(undefined, ...args);

/** util.formatWithOptions(inspectOptions, ...args): format, inspecting with those options. */
export function formatWithOptions(options, ...args) {
  const show = (value, extra) => inspect(value, { ...options, ...extra });
  const first = args[0];
  let next = 1;
  let out;
  if (typeof first === 'string' && args.length > 1 && first.includes('%')) {
    out = first.replace(/%([sdifjoOc%])/g, (match, spec) => {
      if (spec === '%') return '%';
      if (next >= args.length) return match;
      const arg = args[next++];
      switch (spec) {
        case 's':
          if (typeof arg === 'number' || typeof arg === 'bigint') return formatPrimitive(arg);
          if (typeof arg !== 'object' || arg === null || !builtInToString(arg)) return String(arg);
          return show(arg, { depth: 0 });
        case 'd':
          return typeof arg === 'bigint'
            ? `${arg}n`
            : typeof arg === 'symbol'
              ? 'NaN'
              : formatPrimitive(Number(arg));
        case 'i':
          return typeof arg === 'bigint'
            ? `${arg}n`
            : typeof arg === 'symbol'
              ? 'NaN'
              : String(parseInt(arg));
        case 'f':
          return typeof arg === 'symbol' ? 'NaN' : String(parseFloat(arg));
        case 'j':
          try {
            return JSON.stringify(arg);
          } catch {
            return '[Circular]';
          }
        case 'o':
          return show(arg, { depth: 4 });
        case 'O':
          return show(arg);
        default:
          return '';
      }
    });
  } else {
    out = args.length === 0 ? '' : typeof first === 'string' ? first : show(first);
  }
  for (; next < args.length; next++) {
    const arg = args[next];
    out += ` ${typeof arg === 'string' ? arg : show(arg)}`;
  }
  return out;
}
