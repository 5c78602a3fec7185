/**
 * Runs inside QuickJS before the user's script: a small Node.js world made of plain JavaScript
 * over a few synchronous host functions (quickjs.ts): CommonJS `require` of files in the shared
 * tree, `fs`, `path`, `util`, `assert`, `events`, `os`, `process`, `console`, timers, `Buffer`.
 *
 * It evaluates to a function of (host, init) that installs the globals and returns the entry
 * points the host calls: runMain, prepareEval, print, nextTimer, runTimers, finish.
 * Frames of this file are named `node:internal/…` and left out of the stacks users see.
 */
// The file is this one expression: evaluating it in QuickJS yields the function.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions
(function (host, initJson) {
  'use strict';
  const init = JSON.parse(initJson);
  const VERSION = init.version;
  const stdinText = init.stdin;
  let cwd = init.cwd;
  let mainModule;

  // ---------------------------------------------------------------- small helpers

  const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

  function codedError(Ctor, code, message) {
    const error = new Ctor(message);
    error.code = code;
    return error;
  }

  /** Ends the run with `code`: the host stops QuickJS at its next check, past any try/catch. */
  function hardExit(code) {
    host.exit(code);
    for (;;) {
      // The interrupt handler ends this loop: nothing in the script can catch that.
    }
  }

  // ---------------------------------------------------------------- path (POSIX)

  function assertPath(p, name = 'path') {
    if (typeof p !== 'string') {
      throw codedError(
        TypeError,
        'ERR_INVALID_ARG_TYPE',
        `The "${name}" argument must be of type string. Received ${describeReceived(p)}`,
      );
    }
  }

  function describeReceived(v) {
    if (v === null) return 'null';
    if (v === undefined) return 'undefined';
    if (typeof v === 'function') return `function ${v.name || '(anonymous)'}`;
    if (typeof v === 'object')
      return v.constructor?.name ? `an instance of ${v.constructor.name}` : 'an object';
    return `type ${typeof v} (${inspect(v)})`;
  }

  function normalizeString(p, allowAboveRoot) {
    const out = [];
    for (const part of p.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (out.length && out[out.length - 1] !== '..') out.pop();
        else if (allowAboveRoot) out.push('..');
      } else out.push(part);
    }
    return out.join('/');
  }

  const path = {
    sep: '/',
    delimiter: ':',
    normalize(p) {
      assertPath(p);
      if (p === '') return '.';
      const absolute = p.startsWith('/');
      const trailing = p.endsWith('/');
      let result = normalizeString(p, !absolute);
      if (!result && !absolute) result = '.';
      if (result && trailing) result += '/';
      return absolute ? `/${result}` : result;
    },
    join(...parts) {
      for (const p of parts) assertPath(p);
      const joined = parts.filter((p) => p !== '').join('/');
      return joined === '' ? '.' : path.normalize(joined);
    },
    resolve(...parts) {
      let resolved = '';
      for (let i = parts.length - 1; i >= -1 && !resolved.startsWith('/'); i--) {
        const p = i >= 0 ? parts[i] : cwd;
        assertPath(p);
        if (p) resolved = resolved ? `${p}/${resolved}` : p;
      }
      const normal = normalizeString(resolved, false);
      return `/${normal}`;
    },
    isAbsolute(p) {
      assertPath(p);
      return p.startsWith('/');
    },
    relative(from, to) {
      const a = path.resolve(from).split('/').filter(Boolean);
      const b = path.resolve(to).split('/').filter(Boolean);
      let i = 0;
      while (i < a.length && i < b.length && a[i] === b[i]) i++;
      return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
    },
    dirname(p) {
      assertPath(p);
      if (p === '') return '.';
      const trimmed = p.length > 1 ? p.replace(/\/+$/, '') : p;
      const at = trimmed.lastIndexOf('/');
      if (at === -1) return '.';
      if (at === 0) return '/';
      return trimmed.slice(0, at).replace(/\/+$/, '') || '/';
    },
    basename(p, ext) {
      assertPath(p);
      const trimmed = p.length > 1 ? p.replace(/\/+$/, '') : p;
      let base = trimmed.slice(trimmed.lastIndexOf('/') + 1);
      if (ext !== undefined && base.endsWith(ext) && base !== ext) base = base.slice(0, -ext.length);
      return base;
    },
    extname(p) {
      const base = path.basename(p);
      const at = base.lastIndexOf('.');
      return at <= 0 ? '' : base.slice(at);
    },
    parse(p) {
      const root = p.startsWith('/') ? '/' : '';
      const base = path.basename(p);
      const ext = path.extname(p);
      const dir = p.includes('/') ? path.dirname(p) : '';
      return { root, dir, base, ext, name: ext ? base.slice(0, -ext.length) : base };
    },
    format(o) {
      const dir = o.dir || o.root || '';
      const base = o.base || `${o.name || ''}${o.ext || ''}`;
      return dir ? (dir === o.root ? `${dir}${base}` : `${dir}/${base}`) : base;
    },
    toNamespacedPath: (p) => p,
  };
  path.posix = path;
  path.win32 = path;

  // ---------------------------------------------------------------- Buffer, text encoding

  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

  function bytesToBase64(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length; i += 3) {
      const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
      out += i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=';
      out += i + 2 < bytes.length ? B64[n & 63] : '=';
    }
    return out;
  }

  function base64ToBytes(text) {
    const clean = text.replace(/[^A-Za-z0-9+/\-_]/g, '');
    const out = [];
    let bits = 0;
    let value = 0;
    for (const ch of clean) {
      const index = ch === '-' ? 62 : ch === '_' ? 63 : B64.indexOf(ch);
      value = (value << 6) | index;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out.push((value >> bits) & 255);
      }
    }
    return new Uint8Array(out);
  }

  const utf8Encode = (text) => new Uint8Array(host.utf8Encode(String(text)));
  const utf8Decode = (bytes) =>
    host.utf8Decode(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

  class Buffer extends Uint8Array {
    static from(value, encodingOrOffset, length) {
      if (typeof value === 'string') return Buffer.#wrap(encode(value, encodingOrOffset));
      if (value instanceof ArrayBuffer) {
        return new Buffer(value, encodingOrOffset ?? 0, length ?? value.byteLength - (encodingOrOffset ?? 0));
      }
      if (value && typeof value === 'object' && value.type === 'Buffer' && Array.isArray(value.data)) {
        return Buffer.#wrap(new Uint8Array(value.data));
      }
      return Buffer.#wrap(new Uint8Array(value));
    }
    static #wrap(bytes) {
      const buffer = new Buffer(bytes.length);
      buffer.set(bytes);
      return buffer;
    }
    static alloc(size, fill = 0) {
      const buffer = new Buffer(size);
      if (typeof fill === 'number') buffer.fill(fill);
      else if (size > 0) {
        const pattern = encode(String(fill), 'utf8');
        for (let i = 0; i < size; i++) buffer[i] = pattern[i % pattern.length];
      }
      return buffer;
    }
    static allocUnsafe(size) {
      return new Buffer(size);
    }
    static isBuffer(value) {
      return value instanceof Buffer;
    }
    static isEncoding(encoding) {
      return ['utf8', 'utf-8', 'hex', 'base64', 'base64url', 'latin1', 'binary', 'ascii'].includes(
        String(encoding).toLowerCase(),
      );
    }
    static byteLength(value, encoding) {
      return typeof value === 'string' ? encode(value, encoding).length : value.byteLength;
    }
    static concat(list, total) {
      const length = total ?? list.reduce((n, b) => n + b.length, 0);
      const out = new Buffer(length);
      let at = 0;
      for (const b of list) {
        out.set(b.subarray(0, Math.max(0, length - at)), at);
        at += b.length;
        if (at >= length) break;
      }
      return out;
    }
    toString(encoding = 'utf8', start = 0, end = this.length) {
      return decode(this.subarray(start, end), encoding);
    }
    toJSON() {
      return { type: 'Buffer', data: Array.from(this) };
    }
    equals(other) {
      return this.length === other.length && this.every((b, i) => b === other[i]);
    }
    slice(start, end) {
      return this.subarray(start, end);
    }
    write(text, offset = 0) {
      const bytes = encode(text, 'utf8').subarray(0, this.length - offset);
      this.set(bytes, offset);
      return bytes.length;
    }
  }

  function encode(text, encoding = 'utf8') {
    switch (String(encoding).toLowerCase()) {
      case 'hex': {
        const out = new Uint8Array(Math.floor(text.length / 2));
        for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
        return out;
      }
      case 'base64':
      case 'base64url':
        return base64ToBytes(text);
      case 'latin1':
      case 'binary':
      case 'ascii':
        return Uint8Array.from(text, (c) => c.charCodeAt(0) & 255);
      default:
        return utf8Encode(text);
    }
  }

  function decode(bytes, encoding = 'utf8') {
    switch (String(encoding).toLowerCase()) {
      case 'hex':
        return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      case 'base64':
        return bytesToBase64(bytes);
      case 'base64url':
        return bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      case 'latin1':
      case 'binary':
        return String.fromCharCode(...bytes);
      case 'ascii':
        return String.fromCharCode(...bytes.map((b) => b & 127));
      default:
        return utf8Decode(bytes);
    }
  }

  class TextEncoder {
    get encoding() {
      return 'utf-8';
    }
    encode(text = '') {
      return utf8Encode(text);
    }
  }

  class TextDecoder {
    constructor(encoding = 'utf-8') {
      if (!/^utf-?8$/i.test(encoding)) throw new RangeError(`The "${encoding}" encoding is not supported`);
    }
    get encoding() {
      return 'utf-8';
    }
    decode(input) {
      if (input === undefined) return '';
      const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
      return utf8Decode(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    }
  }

  // ---------------------------------------------------------------- util.inspect and format

  const INSPECT_DEPTH = 2;
  const BREAK_LENGTH = 76;

  function quote(text) {
    const q = !text.includes("'") ? "'" : !text.includes('"') ? '"' : !text.includes('`') ? '`' : "'";
    const escaped = text
      .replace(/\\/g, '\\\\')
      .replace(/\n/g, '\\n')
      .replace(/\t/g, '\\t')
      .replace(/\r/g, '\\r')
      .replace(new RegExp(q, 'g'), `\\${q}`);
    return `${q}${escaped}${q}`;
  }

  function formatKey(key) {
    if (typeof key === 'symbol') return `[${key.toString()}]`;
    return /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key);
  }

  function errorText(error) {
    const header =
      error.message === undefined || error.message === ''
        ? String(error.name ?? 'Error')
        : `${error.name ?? 'Error'}: ${error.message}`;
    const stack = cleanStack(typeof error.stack === 'string' ? error.stack : '');
    return stack ? `${header}\n${stack}` : header;
  }

  /** Like V8's Error.stackTraceLimit: ten frames, none of this prelude's. */
  function cleanStack(stack) {
    return stack
      .split('\n')
      .filter((line) => line.trim() && !line.includes('node:internal/') && !line.includes('(native)'))
      .slice(0, 10)
      .join('\n');
  }

  function formatValue(value, depth, seen, top) {
    switch (typeof value) {
      case 'string':
        return top ? value : quote(value);
      case 'number':
        return Object.is(value, -0) ? '-0' : String(value);
      case 'bigint':
        return `${value}n`;
      case 'symbol':
        return value.toString();
      case 'undefined':
        return 'undefined';
      case 'boolean':
        return String(value);
      case 'function':
        return formatObject(value, depth, seen);
      default:
        return value === null ? 'null' : formatObject(value, depth, seen);
    }
  }

  function constructorName(value) {
    const proto = Object.getPrototypeOf(value);
    if (proto === null) return null;
    const ctor = proto.constructor;
    return typeof ctor === 'function' && ctor.name ? ctor.name : 'Object';
  }

  function formatObject(value, depth, seen) {
    if (seen.includes(value)) return '[Circular *1]';
    const name = constructorName(value);
    let prefix = '';
    let open = '{';
    let close = '}';
    let entries = [];
    let keys = Reflect.ownKeys(value).filter(
      (k) => typeof k === 'symbol' || Object.getOwnPropertyDescriptor(value, k)?.enumerable,
    );

    if (typeof value === 'function') {
      const isClass = /^class\b/.test(Function.prototype.toString.call(value));
      const base = isClass
        ? `[class ${value.name || '(anonymous)'}]`
        : `[Function: ${value.name || '(anonymous)'}]`;
      keys = keys.filter((k) => k !== 'prototype');
      if (keys.length === 0) return base.replace('[Function: (anonymous)]', '[Function (anonymous)]');
      prefix = `${base} `;
    } else if (value instanceof Error) {
      const text = errorText(value);
      keys = keys.filter((k) => k !== 'stack' && k !== 'message');
      if (keys.length === 0) return text;
      prefix = `${text} `;
    } else if (value instanceof Date) {
      return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
    } else if (value instanceof RegExp) {
      return String(value);
    } else if (value instanceof Promise) {
      return 'Promise { <unknown> }';
    } else if (value instanceof WeakMap || value instanceof WeakSet) {
      return `${name} { <items unknown> }`;
    } else if (value instanceof Buffer) {
      const shown = Array.from(value.subarray(0, 50), (b) => b.toString(16).padStart(2, '0')).join(' ');
      const more = value.length > 50 ? ` ... ${value.length - 50} more bytes` : '';
      return `<Buffer${shown ? ' ' : ''}${shown}${more}>`;
    }

    if (depth > INSPECT_DEPTH) {
      if (Array.isArray(value)) return '[Array]';
      return `[${name ?? 'Object: null prototype'}]`;
    }
    const next = [...seen, value];

    if (Array.isArray(value) || ArrayBuffer.isView(value)) {
      open = '[';
      close = ']';
      if (!Array.isArray(value)) prefix = `${name}(${value.length}) `;
      else if (name !== 'Array') prefix = `${name}(${value.length}) `;
      const shown = Math.min(value.length, 100);
      for (let i = 0; i < shown; i++) entries.push(formatValue(value[i], depth + 1, next, false));
      if (value.length > shown) entries.push(`... ${value.length - shown} more items`);
      keys = keys.filter((k) => typeof k === 'symbol' || !/^\d+$/.test(k));
    } else if (value instanceof Map) {
      prefix = `${name}(${value.size}) `;
      for (const [k, v] of value) {
        entries.push(
          `${formatValue(k, depth + 1, next, false)} => ${formatValue(v, depth + 1, next, false)}`,
        );
      }
    } else if (value instanceof Set) {
      prefix = `${name}(${value.size}) `;
      for (const v of value) entries.push(formatValue(v, depth + 1, next, false));
    } else if (!prefix) {
      if (name === null) prefix = '[Object: null prototype] ';
      else if (name !== 'Object') prefix = `${name} `;
    }

    for (const key of keys) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      let shown;
      if (descriptor.get || descriptor.set) {
        shown =
          descriptor.get && descriptor.set ? '[Getter/Setter]' : descriptor.get ? '[Getter]' : '[Setter]';
      } else {
        shown = formatValue(descriptor.value, depth + 1, next, false);
      }
      entries.push(`${formatKey(key)}: ${shown}`);
    }

    if (entries.length === 0) {
      if (prefix && open === '{' && typeof value !== 'function' && !(value instanceof Error)) {
        return `${prefix}{}`;
      }
      return prefix ? prefix.trimEnd() : `${open}${close}`;
    }
    const single = `${prefix}${open} ${entries.join(', ')} ${close}`;
    if (single.length <= BREAK_LENGTH && !entries.some((e) => e.includes('\n'))) return single;
    const indented = entries.map((e) => `  ${e.replace(/\n/g, '\n  ')}`).join(',\n');
    return `${prefix}${open}\n${indented}\n${close}`;
  }

  function inspect(value, options) {
    void options;
    return formatValue(value, 0, [], false);
  }
  inspect.custom = Symbol.for('nodejs.util.inspect.custom');

  function format(...args) {
    let first = args[0];
    let rest = args.slice(1);
    let out = '';
    if (typeof first === 'string' && rest.length > 0 && first.includes('%')) {
      out = first.replace(/%([sdifjoOc%])/g, (match, spec) => {
        if (spec === '%') return '%';
        if (rest.length === 0) return match;
        const arg = rest.shift();
        switch (spec) {
          case 's':
            return typeof arg === 'string' ? arg : formatValue(arg, 1, [], true);
          case 'd':
          case 'i': {
            const n = typeof arg === 'bigint' ? arg : Number(arg);
            return typeof n === 'bigint' ? `${n}n` : String(spec === 'i' ? Math.trunc(n) : n);
          }
          case 'f':
            return String(parseFloat(arg));
          case 'j':
            try {
              return JSON.stringify(arg);
            } catch {
              return '[Circular]';
            }
          case 'c':
            return '';
          default:
            return inspect(arg);
        }
      });
      first = undefined;
    } else {
      out = typeof first === 'string' ? first : formatValue(first, 0, [], true);
      if (args.length === 0) out = '';
    }
    for (const arg of rest) out += ` ${typeof arg === 'string' ? arg : formatValue(arg, 0, [], true)}`;
    return out;
  }

  // ---------------------------------------------------------------- events

  class EventEmitter {
    #events = new Map();
    on(name, listener) {
      if (!this.#events.has(name)) this.#events.set(name, []);
      this.#events.get(name).push(listener);
      return this;
    }
    addListener(name, listener) {
      return this.on(name, listener);
    }
    prependListener(name, listener) {
      this.on(name, listener);
      const list = this.#events.get(name);
      list.unshift(list.pop());
      return this;
    }
    once(name, listener) {
      const wrapped = (...args) => {
        this.off(name, wrapped);
        listener.apply(this, args);
      };
      wrapped.listener = listener;
      return this.on(name, wrapped);
    }
    off(name, listener) {
      const list = this.#events.get(name);
      if (!list) return this;
      const at = list.findIndex((l) => l === listener || l.listener === listener);
      if (at !== -1) list.splice(at, 1);
      return this;
    }
    removeListener(name, listener) {
      return this.off(name, listener);
    }
    removeAllListeners(name) {
      if (name === undefined) this.#events.clear();
      else this.#events.delete(name);
      return this;
    }
    emit(name, ...args) {
      const list = this.#events.get(name);
      if (!list || list.length === 0) {
        if (name === 'error')
          throw args[0] instanceof Error ? args[0] : new Error(`Unhandled error. (${args[0]})`);
        return false;
      }
      for (const listener of [...list]) listener.apply(this, args);
      return true;
    }
    listeners(name) {
      return (this.#events.get(name) ?? []).map((l) => l.listener ?? l);
    }
    listenerCount(name) {
      return this.#events.get(name)?.length ?? 0;
    }
    eventNames() {
      return [...this.#events.keys()].filter((k) => this.#events.get(k).length > 0);
    }
    setMaxListeners() {
      return this;
    }
  }
  EventEmitter.EventEmitter = EventEmitter;
  EventEmitter.once = (emitter, name) =>
    new Promise((resolve) => emitter.once(name, (...args) => resolve(args)));

  // ---------------------------------------------------------------- timers

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

  const timerGlobals = {
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

  // ---------------------------------------------------------------- console

  let groupIndent = '';
  const counts = new Map();
  const timings = new Map();

  function writeLine(fd, text) {
    const line = groupIndent ? text.replace(/^/gm, groupIndent) : text;
    host.write(fd, `${line}\n`);
  }

  const console = {
    log: (...args) => writeLine(1, format(...args)),
    info: (...args) => writeLine(1, format(...args)),
    debug: (...args) => writeLine(1, format(...args)),
    error: (...args) => writeLine(2, format(...args)),
    warn: (...args) => writeLine(2, format(...args)),
    trace: (...args) => writeLine(2, `Trace: ${format(...args)}\n${cleanStack(new Error().stack ?? '')}`),
    dir: (value) => writeLine(1, inspect(value)),
    table: (value) => writeLine(1, inspect(value)),
    assert: (condition, ...args) => {
      if (!condition) writeLine(2, args.length ? `Assertion failed: ${format(...args)}` : 'Assertion failed');
    },
    count: (label = 'default') => {
      counts.set(label, (counts.get(label) ?? 0) + 1);
      writeLine(1, `${label}: ${counts.get(label)}`);
    },
    countReset: (label = 'default') => counts.delete(label),
    time: (label = 'default') => timings.set(label, host.now()),
    timeLog: (label = 'default', ...args) =>
      writeLine(1, [`${label}: ${(host.now() - (timings.get(label) ?? 0)).toFixed(3)}ms`, ...args].join(' ')),
    timeEnd: (label = 'default') => {
      writeLine(1, `${label}: ${(host.now() - (timings.get(label) ?? 0)).toFixed(3)}ms`);
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

  // ---------------------------------------------------------------- process

  class Stream extends EventEmitter {
    constructor(fd) {
      super();
      this.fd = fd;
      this.isTTY = false;
      this.writable = fd !== 0;
    }
    write(chunk, encoding, callback) {
      const text = typeof chunk === 'string' ? chunk : decode(chunk, 'utf8');
      host.write(this.fd, text);
      const done = typeof encoding === 'function' ? encoding : callback;
      if (done) timerGlobals.queueMicrotask(done);
      return true;
    }
    end(chunk) {
      if (chunk !== undefined) this.write(chunk);
    }
  }

  const stdin = new Stream(0);
  let stdinScheduled = false;
  stdin.setEncoding = () => stdin;
  stdin.resume = () => stdin;
  stdin.pause = () => stdin;
  stdin.read = () => null;
  const startStdin = () => {
    if (stdinScheduled) return;
    stdinScheduled = true;
    addTimer(
      () => {
        if (stdinText) stdin.emit('data', stdinText);
        stdin.emit('end');
        stdin.emit('close');
      },
      0,
      [],
      false,
    );
  };
  const stdinOn = stdin.on.bind(stdin);
  stdin.on = (name, listener) => {
    if (name === 'data' || name === 'end' || name === 'readable') startStdin();
    return stdinOn(name, listener);
  };
  stdin[Symbol.asyncIterator] = async function* () {
    if (stdinText) yield stdinText;
  };

  const process = new EventEmitter();
  let exiting = false;
  Object.assign(process, {
    title: 'node',
    version: `v${VERSION}`,
    versions: { node: VERSION, quickjs: init.quickjsVersion },
    release: { name: 'node (QuickJS in the browser sandbox)' },
    platform: 'linux',
    arch: 'wasm32',
    pid: 42,
    ppid: 1,
    argv: init.argv,
    argv0: 'node',
    execArgv: [],
    execPath: '/usr/local/bin/node',
    env: init.env,
    exitCode: undefined,
    stdin,
    stdout: new Stream(1),
    stderr: new Stream(2),
    cwd: () => cwd,
    chdir(dir) {
      const target = path.resolve(String(dir));
      const stat = fsHost('stat', [target]);
      if (!stat || stat.type !== 'directory') {
        throw fsError(stat ? 'ENOTDIR' : 'ENOENT', 'chdir', `${cwd} -> '${target}`);
      }
      cwd = target;
    },
    exit(code) {
      if (code !== undefined) process.exitCode = code;
      const final = Number(process.exitCode ?? 0) & 255;
      if (!exiting) {
        exiting = true;
        try {
          process.emit('exit', final);
        } catch (error) {
          reportFatal(error);
        }
      }
      hardExit(final);
    },
    abort() {
      hardExit(134);
    },
    nextTick: (callback, ...args) => timerGlobals.queueMicrotask(() => callback(...args)),
    hrtime: Object.assign(
      (previous) => {
        const ns = Math.round(host.now() * 1e6);
        let seconds = Math.floor(ns / 1e9);
        let nanos = ns % 1e9;
        if (previous) {
          seconds -= previous[0];
          nanos -= previous[1];
          if (nanos < 0) {
            seconds -= 1;
            nanos += 1e9;
          }
        }
        return [seconds, nanos];
      },
      { bigint: () => BigInt(Math.round(host.now() * 1e6)) },
    ),
    uptime: () => host.now() / 1000,
    memoryUsage: () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }),
    cpuUsage: () => ({ user: 0, system: 0 }),
    umask: () => 0o22,
    getuid: () => 1000,
    getgid: () => 1000,
    emitWarning: (warning) =>
      writeLine(2, `(node:42) Warning: ${warning instanceof Error ? warning.message : warning}`),
  });

  // ---------------------------------------------------------------- fs over the host's tree

  const FS_ERRORS = {
    ENOENT: [-2, 'no such file or directory'],
    EEXIST: [-17, 'file already exists'],
    ENOTDIR: [-20, 'not a directory'],
    EISDIR: [-21, 'illegal operation on a directory'],
    ENOTEMPTY: [-39, 'directory not empty'],
    EINVAL: [-22, 'invalid argument'],
    EBADF: [-9, 'bad file descriptor'],
  };

  function fsError(code, syscall, target, dest) {
    const [errno, text] = FS_ERRORS[code] ?? [-1, code];
    const where = dest === undefined ? `'${target}'` : `'${target}' -> '${dest}'`;
    const error = new Error(`${code}: ${text}, ${syscall} ${where}`);
    Object.assign(error, { errno, code, syscall, path: target });
    if (dest !== undefined) error.dest = dest;
    return error;
  }

  /** Calls the host's tree; an `ENOENT`-style code comes back as `{ error }`. */
  function fsHost(op, args) {
    const reply = JSON.parse(host.fs(op, JSON.stringify(args)));
    if (reply.error) {
      const failure = new Error(reply.error);
      failure.fsCode = reply.error;
      throw failure;
    }
    return reply.ok;
  }

  function fsCall(op, args, syscall, target, dest) {
    try {
      return fsHost(op, args);
    } catch (error) {
      if (error.fsCode) throw fsError(error.fsCode, syscall, target, dest);
      throw error;
    }
  }

  function toPath(p, name = 'path') {
    if (p && typeof p === 'object' && p.protocol === 'file:') return path.resolve(p.pathname);
    if (p instanceof Uint8Array) p = decode(p);
    assertPath(p, name);
    return path.resolve(p);
  }

  function encodingOf(options) {
    if (typeof options === 'string') return options;
    return options?.encoding ?? null;
  }

  class Stats {
    constructor(info) {
      this.dev = 1;
      this.ino = 0;
      this.mode = info.type === 'directory' ? 0o40755 : 0o100644;
      this.nlink = 1;
      this.uid = 1000;
      this.gid = 1000;
      this.size = info.size;
      this.blksize = 4096;
      this.blocks = Math.ceil(info.size / 512);
      this.atimeMs = this.mtimeMs = this.ctimeMs = this.birthtimeMs = info.mtimeMs;
      this.atime = this.mtime = this.ctime = this.birthtime = new Date(info.mtimeMs);
      Object.defineProperty(this, '_type', { value: info.type });
    }
    isFile() {
      return this._type === 'file';
    }
    isDirectory() {
      return this._type === 'directory';
    }
    isSymbolicLink() {
      return false;
    }
    isFIFO() {
      return false;
    }
    isSocket() {
      return false;
    }
    isBlockDevice() {
      return false;
    }
    isCharacterDevice() {
      return false;
    }
  }

  class Dirent {
    constructor(name, parent, type) {
      this.name = name;
      this.parentPath = parent;
      this.path = parent;
      Object.defineProperty(this, '_type', { value: type });
    }
    isFile() {
      return this._type === 'file';
    }
    isDirectory() {
      return this._type === 'directory';
    }
    isSymbolicLink() {
      return false;
    }
  }

  function writeFd(fd, data) {
    if (fd !== 1 && fd !== 2) throw fsError('EBADF', 'write', String(fd));
    host.write(fd, typeof data === 'string' ? data : decode(data));
  }

  function writeData(file, data, options, append) {
    if (typeof file === 'number') return writeFd(file, data);
    const target = toPath(file);
    const flag = typeof options === 'object' && options?.flag;
    const appending = append || flag === 'a' || flag === 'a+';
    if (flag === 'wx' || flag === 'ax') {
      if (fsHost('stat', [target])) throw fsError('EEXIST', 'open', target);
    }
    let error;
    if (typeof data === 'string' || !ArrayBuffer.isView(data)) {
      const text = typeof data === 'string' ? data : String(data);
      const encoding = encodingOf(options) ?? 'utf8';
      error = /^utf-?8$/i.test(encoding)
        ? host.writeText(target, text, appending)
        : host.writeBytes(target, copyBuffer(encode(text, encoding)), appending);
    } else {
      error = host.writeBytes(target, copyBuffer(data), appending);
    }
    if (error) throw fsError(error, 'open', target);
  }

  const copyBuffer = (view) => view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);

  const fs = {
    constants: { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2 },
    F_OK: 0,
    R_OK: 4,
    W_OK: 2,
    X_OK: 1,
    Stats,
    Dirent,
    readFileSync(file, options) {
      const encoding = encodingOf(options);
      if (file === 0 || file === '/dev/stdin') {
        return encoding ? stdinText : Buffer.from(stdinText);
      }
      const target = toPath(file);
      if (encoding && /^utf-?8$/i.test(encoding)) return fsCall('readText', [target], 'open', target);
      const bytes = host.readBytes(target);
      if (typeof bytes === 'string') throw fsError(bytes, 'open', target);
      const buffer = Buffer.from(bytes);
      return encoding ? buffer.toString(encoding) : buffer;
    },
    writeFileSync(file, data, options) {
      writeData(file, data, options, false);
    },
    appendFileSync(file, data, options) {
      writeData(file, data, options, true);
    },
    writeSync(fd, data) {
      writeFd(fd, data);
      return typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    },
    existsSync(file) {
      try {
        return fsHost('stat', [toPath(file)]) !== null;
      } catch {
        return false;
      }
    },
    accessSync(file) {
      const target = toPath(file);
      if (fsHost('stat', [target]) === null) throw fsError('ENOENT', 'access', target);
    },
    statSync(file, options) {
      const target = toPath(file);
      const info = fsHost('stat', [target]);
      if (info === null) {
        if (options?.throwIfNoEntry === false) return undefined;
        throw fsError('ENOENT', 'stat', target);
      }
      return new Stats(info);
    },
    lstatSync(file, options) {
      return fs.statSync(file, options);
    },
    readdirSync(dir, options) {
      const target = toPath(dir);
      const walk = (at, prefix) => {
        const names = fsCall('readdir', [at], 'scandir', target);
        const out = [];
        for (const name of names) {
          const full = at === '/' ? `/${name}` : `${at}/${name}`;
          const info = fsHost('stat', [full]);
          out.push(options?.withFileTypes ? new Dirent(name, at, info?.type) : prefix + name);
          if (options?.recursive && info?.type === 'directory') out.push(...walk(full, `${prefix}${name}/`));
        }
        return out;
      };
      return walk(target, '');
    },
    mkdirSync(dir, options) {
      const target = toPath(dir);
      const recursive = typeof options === 'object' && !!options?.recursive;
      const first = fsCall('mkdir', [target, recursive], 'mkdir', target);
      return recursive ? (first ?? undefined) : undefined;
    },
    mkdtempSync(prefix) {
      const target = `${toPath(prefix)}${Math.random().toString(36).slice(2, 8)}`;
      fsCall('mkdir', [target, false], 'mkdtemp', target);
      return target;
    },
    rmSync(file, options) {
      const target = toPath(file);
      fsCall('remove', [target, { recursive: !!options?.recursive, force: !!options?.force }], 'rm', target);
    },
    rmdirSync(dir, options) {
      const target = toPath(dir);
      fsCall('remove', [target, { recursive: !!options?.recursive, directory: true }], 'rmdir', target);
    },
    unlinkSync(file) {
      const target = toPath(file);
      if (fsHost('stat', [target])?.type === 'directory') throw fsError('EISDIR', 'unlink', target);
      fsCall('remove', [target, {}], 'unlink', target);
    },
    renameSync(from, to) {
      const source = toPath(from);
      const target = toPath(to);
      fsCall('rename', [source, target], 'rename', source, target);
    },
    copyFileSync(from, to) {
      const source = toPath(from);
      const target = toPath(to);
      const bytes = host.readBytes(source);
      if (typeof bytes === 'string') throw fsError(bytes, 'copyfile', source, target);
      const error = host.writeBytes(target, bytes, false);
      if (error) throw fsError(error, 'copyfile', source, target);
    },
    cpSync(from, to, options) {
      const source = toPath(from);
      const target = toPath(to);
      const info = fsHost('stat', [source]);
      if (info === null) throw fsError('ENOENT', 'cp', source, target);
      if (info.type === 'file') return fs.copyFileSync(source, target);
      if (!options?.recursive) {
        throw codedError(
          Error,
          'ERR_FS_EISDIR',
          `Recursive option is required to copy a directory: ${source}`,
        );
      }
      fs.mkdirSync(target, { recursive: true });
      for (const name of fs.readdirSync(source)) fs.cpSync(`${source}/${name}`, `${target}/${name}`, options);
    },
    realpathSync(file) {
      const target = toPath(file);
      if (fsHost('stat', [target]) === null) throw fsError('ENOENT', 'realpath', target);
      return target;
    },
    chmodSync() {},
    utimesSync() {},
    truncateSync(file, length = 0) {
      const buffer = fs.readFileSync(file);
      fs.writeFileSync(file, buffer.subarray(0, length));
    },
  };
  fs.realpathSync.native = fs.realpathSync;

  const SYNC_NAMES = Object.keys(fs).filter(
    (k) => k.endsWith('Sync') && k !== 'existsSync' && k !== 'writeSync',
  );

  /** fs.promises and the callback API: the sync calls, settled on a later microtask. */
  fs.promises = {};
  for (const name of SYNC_NAMES) {
    const base = name.slice(0, -4);
    fs.promises[base] = (...args) =>
      new Promise((resolve, reject) => {
        try {
          resolve(fs[name](...args));
        } catch (error) {
          reject(error);
        }
      });
    fs[base] = (...args) => {
      const callback = args.pop();
      if (typeof callback !== 'function') {
        throw codedError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "cb" argument must be of type function');
      }
      let result;
      let failure = null;
      try {
        result = fs[name](...args);
      } catch (error) {
        failure = error;
      }
      timerGlobals.queueMicrotask(() => callback(failure, result));
    };
  }
  fs.exists = (file, callback) => timerGlobals.queueMicrotask(() => callback(fs.existsSync(file)));
  fs.promises.constants = fs.constants;

  // ---------------------------------------------------------------- util, assert, os

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

  const util = {
    format,
    inspect,
    isDeepStrictEqual: (a, b) => isDeepEqual(a, b, true),
    inherits(ctor, superCtor) {
      Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
      Object.setPrototypeOf(ctor, superCtor);
      ctor.super_ = superCtor;
    },
    promisify(fn) {
      return (...args) =>
        new Promise((resolve, reject) =>
          fn(...args, (error, value) => (error ? reject(error) : resolve(value))),
        );
    },
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
    types: {
      isPromise: (v) => v instanceof Promise,
      isDate: (v) => v instanceof Date,
      isRegExp: (v) => v instanceof RegExp,
      isMap: (v) => v instanceof Map,
      isSet: (v) => v instanceof Set,
    },
    TextEncoder,
    TextDecoder,
  };

  class AssertionError extends Error {
    constructor(options) {
      super(options.message);
      this.code = 'ERR_ASSERTION';
      this.actual = options.actual;
      this.expected = options.expected;
      this.operator = options.operator;
      this.generatedMessage = !options.userMessage;
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

  function assert(value, message) {
    if (!value)
      fail(
        value,
        true,
        message,
        '==',
        'The expression evaluated to a falsy value:\n\n  assert(' + inspect(value) + ')\n',
      );
  }
  Object.assign(assert, {
    AssertionError,
    ok: (value, message) => {
      if (!value)
        fail(
          value,
          true,
          message,
          '==',
          'The expression evaluated to a falsy value:\n\n  assert.ok(' + inspect(value) + ')\n',
        );
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
        fail(
          a,
          b,
          message,
          'deepStrictEqual',
          comparison('Expected values to be strictly deep-equal:', a, b),
        );
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
        fail(
          a,
          b,
          message,
          'notDeepEqual',
          `Expected "actual" not to be loosely deep-equal to: ${inspect(b)}`,
        );
    },
    match: (text, regexp, message) => {
      if (!regexp.test(text))
        fail(
          text,
          regexp,
          message,
          'match',
          `The input did not match the regular expression ${regexp}. Input:\n\n${inspect(text)}\n`,
        );
    },
    fail: (message = 'Failed') => fail(undefined, undefined, message, 'fail'),
    throws(fn, expected, message) {
      try {
        fn();
      } catch (error) {
        checkThrown(error, expected, message);
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
        checkThrown(error, expected, message);
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
  assert.strict = assert;

  function checkThrown(error, expected, message) {
    if (expected === undefined || typeof expected === 'string') return;
    if (expected instanceof RegExp) {
      if (!expected.test(String(error?.message ?? error))) {
        fail(
          error,
          expected,
          message,
          'throws',
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
          'throws',
          `The error is expected to be an instance of "${expected.name}". Received "${error?.constructor?.name}"`,
        );
      }
      if (expected.call({}, error) !== true)
        fail(error, expected, message, 'throws', 'The validation function is expected to return "true".');
    } else if (typeof expected === 'object') {
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
            'throws',
            `Expected values to be strictly deep-equal:\n+ actual - expected\n\n  ${key}: ${inspect(error?.[key])} !== ${inspect(want)}\n`,
          );
      }
    }
  }

  const os = {
    EOL: '\n',
    platform: () => 'linux',
    type: () => 'Linux',
    arch: () => 'wasm32',
    release: () => '0.0.0-quickjs',
    hostname: () => 'sandbox',
    homedir: () => init.env.HOME ?? '/home/user',
    tmpdir: () => '/tmp',
    userInfo: () => ({ username: 'user', uid: 1000, gid: 1000, shell: '/bin/bash', homedir: init.env.HOME }),
    cpus: () => [{ model: 'QuickJS', speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } }],
    availableParallelism: () => 1,
    totalmem: () => init.memoryLimitBytes,
    freemem: () => init.memoryLimitBytes,
    uptime: () => host.now() / 1000,
    loadavg: () => [0, 0, 0],
    networkInterfaces: () => ({}),
    endianness: () => 'LE',
  };

  // ---------------------------------------------------------------- modules (CommonJS)

  const moduleCache = Object.create(null);
  const builtins = {
    fs: () => fs,
    'fs/promises': () => fs.promises,
    path: () => path,
    'path/posix': () => path,
    util: () => util,
    assert: () => assert,
    'assert/strict': () => assert,
    events: () => EventEmitter,
    os: () => os,
    buffer: () => ({ Buffer }),
    timers: () => ({ ...timerGlobals }),
    'timers/promises': () => ({
      setTimeout: (ms, value) => new Promise((resolve) => timerGlobals.setTimeout(() => resolve(value), ms)),
      setImmediate: (value) => new Promise((resolve) => timerGlobals.setImmediate(() => resolve(value))),
    }),
    process: () => process,
    console: () => console,
    module: () => ({
      builtinModules: Object.keys(builtins),
      createRequire: (file) => makeRequire(fakeModule(file)),
    }),
    string_decoder: () => ({
      StringDecoder: class {
        write(b) {
          return decode(b);
        }
        end(b) {
          return b ? decode(b) : '';
        }
      },
    }),
  };
  const UNAVAILABLE = [
    'child_process',
    'cluster',
    'crypto',
    'dgram',
    'dns',
    'http',
    'http2',
    'https',
    'inspector',
    'net',
    'readline',
    'repl',
    'stream',
    'tls',
    'tty',
    'url',
    'v8',
    'vm',
    'worker_threads',
    'zlib',
    'test',
    'sqlite',
  ];

  function fakeModule(filename) {
    const file = path.resolve(String(filename).replace(/^file:\/\//, ''));
    return { id: file, filename: file, path: path.dirname(file), children: [] };
  }

  function builtinName(id) {
    const name = id.startsWith('node:') ? id.slice(5) : id;
    if (hasOwn(builtins, name)) return name;
    if (UNAVAILABLE.includes(name) || UNAVAILABLE.includes(name.split('/')[0])) {
      throw codedError(
        Error,
        'ERR_UNAVAILABLE_IN_SANDBOX',
        `node:${name} is not available in this sandbox: its node is QuickJS with a small standard ` +
          'library (fs, path, util, assert, events, os, buffer, timers).',
      );
    }
    if (id.startsWith('node:'))
      throw codedError(Error, 'ERR_UNKNOWN_BUILTIN_MODULE', `No such built-in module: ${id}`);
    return null;
  }

  const statOf = (file) => fsHost('stat', [file]);

  function tryFile(file) {
    return statOf(file)?.type === 'file' ? file : null;
  }

  function tryExtensions(base) {
    for (const ext of ['', '.js', '.json', '.cjs']) {
      const found = tryFile(base + ext);
      if (found) return found;
    }
    return null;
  }

  function tryDirectory(dir) {
    if (statOf(dir)?.type !== 'directory') return null;
    const pkgFile = tryFile(`${dir}/package.json`);
    if (pkgFile) {
      let pkg;
      try {
        pkg = JSON.parse(fsHost('readText', [pkgFile]));
      } catch (error) {
        throw new Error(`Error parsing ${pkgFile}: ${error.message}`);
      }
      if (typeof pkg.main === 'string') {
        const main = path.resolve(dir, pkg.main);
        const found = tryExtensions(main) ?? tryIndex(main);
        if (found) return found;
      }
    }
    return tryIndex(dir);
  }

  const tryIndex = (dir) => tryFile(`${dir}/index.js`) ?? tryFile(`${dir}/index.json`);

  function resolveFilename(request, parent) {
    if (typeof request !== 'string' || request === '') {
      throw codedError(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'id' must be a non-empty string.");
    }
    // `node -e` code is the module `[eval]`, which lives in the current directory.
    const fromDir = parent ? path.dirname(path.resolve(parent.filename)) : cwd;
    const relative = /^(\.\.?(\/|$)|\/)/.test(request);
    const candidates = [];
    if (relative) candidates.push(path.resolve(fromDir, request));
    else {
      for (let dir = fromDir; ; dir = path.dirname(dir)) {
        if (!dir.endsWith('/node_modules')) candidates.push(path.join(dir, 'node_modules', request));
        if (dir === '/') break;
      }
    }
    for (const base of candidates) {
      const found = tryExtensions(base) ?? tryDirectory(base);
      if (found) return found;
    }
    const stack = [];
    for (let m = parent; m; m = m.parent) stack.push(m.filename);
    const error = codedError(
      Error,
      'MODULE_NOT_FOUND',
      `Cannot find module '${request}'${stack.length ? `\nRequire stack:\n- ${stack.join('\n- ')}` : ''}`,
    );
    error.requireStack = stack;
    throw error;
  }

  const WRAPPER = '(function (exports, require, module, __filename, __dirname) { ';

  function looksLikeEsm(source) {
    return /^\s*(import\s*[\w{*'"]|export\s+(default|const|let|var|function|class|async|\{|\*))/m.test(
      source,
    );
  }

  function esmError(filename) {
    const error = new SyntaxError(
      'Cannot use import statement outside a module\n' +
        `    in ${filename}\n` +
        "This sandbox's node runs QuickJS with CommonJS only: ES modules (import/export, .mjs) are not " +
        'supported. Use require() and module.exports.',
    );
    error.esm = true;
    return error;
  }

  function compileModule(source, filename) {
    let code = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
    if (code.startsWith('#!')) code = `//${code.slice(2)}`;
    const [fn, error] = host.compile(`${WRAPPER}${code}\n})`, filename);
    if (error) {
      if (error instanceof SyntaxError && looksLikeEsm(code)) throw esmError(filename);
      throw error;
    }
    return fn;
  }

  class Module {
    constructor(filename, parent) {
      this.id = filename;
      this.filename = filename;
      this.path = path.dirname(filename);
      this.exports = {};
      this.parent = parent;
      this.loaded = false;
      this.children = [];
      this.paths = [];
      this.require = makeRequire(this);
    }
  }

  function loadModule(request, parent) {
    const builtin = builtinName(request);
    if (builtin) return builtins[builtin]();
    const filename = resolveFilename(request, parent);
    const cached = moduleCache[filename];
    if (cached) return cached.exports;
    if (filename.endsWith('.mjs')) throw esmError(filename);
    const module = new Module(filename, parent);
    parent?.children.push(module);
    moduleCache[filename] = module;
    try {
      const source = fsHost('readText', [filename]);
      if (filename.endsWith('.json')) {
        try {
          module.exports = JSON.parse(source);
        } catch (error) {
          error.message = `${filename}: ${error.message}`;
          throw error;
        }
      } else {
        const fn = compileModule(source, filename);
        fn.call(module.exports, module.exports, module.require, module, filename, module.path);
      }
      module.loaded = true;
    } catch (error) {
      delete moduleCache[filename];
      throw error;
    }
    return module.exports;
  }

  function makeRequire(module) {
    const require = (request) => loadModule(request, module);
    require.resolve = (request) => (builtinName(request) ? request : resolveFilename(request, module));
    require.cache = moduleCache;
    Object.defineProperty(require, 'main', { get: () => mainModule, enumerable: true });
    return require;
  }

  // ---------------------------------------------------------------- errors that end the run

  function sourceContext(error) {
    let file = error.fileName;
    let line = error.lineNumber;
    let column;
    const frame = /\(?((?:\/|\[eval\])[^():]*):(\d+)(?::(\d+))?\)?/.exec(
      (typeof error.stack === 'string' ? error.stack : '')
        .split('\n')
        .find((l) => !l.includes('node:internal/')) ?? '',
    );
    if (frame) {
      file ??= frame[1];
      line ??= Number(frame[2]);
      column = frame[3] ? Number(frame[3]) : undefined;
    }
    if (!file || !line || file === '[eval]') return '';
    let text;
    try {
      text = fsHost('readText', [file]).split('\n')[line - 1];
    } catch {
      return '';
    }
    if (text === undefined) return '';
    if (line === 1 && column !== undefined) column -= WRAPPER.length;
    const caret = column !== undefined && column > 0 ? `${' '.repeat(column - 1)}^\n` : '';
    return `${file}:${line}\n${text}\n${caret}\n`;
  }

  /** Prints an uncaught error as Node does and ends the run with exit code 1. */
  function reportFatal(error) {
    if (error instanceof Error && error.name === 'InternalError' && error.message === 'out of memory') {
      host.outOfMemory();
      hardExit(134);
    }
    let text;
    try {
      if (error?.esm) text = `${error.message}\n`;
      else if (error instanceof Error) {
        text = `${sourceContext(error)}${formatValue(error, 0, [], false)}\n\nNode.js v${VERSION}\n`;
      } else text = `Uncaught ${inspect(error)}\n\nNode.js v${VERSION}\n`;
    } catch {
      text = `${String(error)}\n`;
    }
    host.write(2, text);
    hardExit(1);
  }

  // ---------------------------------------------------------------- globals and entry points

  Object.assign(globalThis, timerGlobals, {
    global: globalThis,
    console,
    process,
    Buffer,
    TextEncoder,
    TextDecoder,
    atob: (text) => String.fromCharCode(...base64ToBytes(String(text))),
    btoa: (text) => bytesToBase64(Uint8Array.from(String(text), (c) => c.charCodeAt(0) & 255)),
    structuredClone: (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value))),
    performance: { now: () => host.now(), timeOrigin: Date.now() - host.now() },
    // Node has fetch, so scripts call it: it fails as Node's does offline, saying why.
    fetch: () =>
      Promise.reject(
        codedError(TypeError, 'ERR_UNAVAILABLE_IN_SANDBOX', 'fetch failed: this sandbox has no network'),
      ),
  });

  return {
    /** Runs `filename` as the main module. */
    runMain(filename) {
      try {
        const resolved = resolveFilename(filename.startsWith('/') ? filename : `./${filename}`, null);
        if (resolved.endsWith('.mjs')) throw esmError(resolved);
        const module = new Module(resolved, null);
        module.id = '.';
        mainModule = module;
        moduleCache[resolved] = module;
        process.argv[1] = resolved;
        const source = fsHost('readText', [resolved]);
        if (resolved.endsWith('.json')) JSON.parse(source);
        else
          compileModule(source, resolved).call(
            module.exports,
            module.exports,
            module.require,
            module,
            resolved,
            module.path,
          );
        module.loaded = true;
      } catch (error) {
        reportFatal(error);
      }
    },
    /** Gives `node -e` code the globals Node gives it: require, module, exports, __filename. */
    prepareEval() {
      const module = new Module(path.join(cwd, '[eval]'), null);
      module.id = '[eval]';
      module.filename = '[eval]';
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
      host.write(1, `${typeof value === 'string' ? value : inspect(value)}\n`);
    },
    fatal(error, source) {
      if (error instanceof SyntaxError && source !== undefined && looksLikeEsm(source))
        reportFatal(esmError('[eval]'));
      reportFatal(error);
    },
    /** Milliseconds until the next timer is due, or -1 when none is left. */
    nextTimer() {
      let first = Infinity;
      for (const timer of timers.values()) first = Math.min(first, timer.at);
      return first === Infinity ? -1 : Math.max(0, first - host.now());
    },
    runTimers() {
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
        return true; // one at a time: the host runs the microtasks it queued before the next
      }
      return false;
    },
    /** The script ran out of work: Node's 'beforeExit' and 'exit', then the exit code. */
    finish() {
      try {
        process.emit('beforeExit', Number(process.exitCode ?? 0));
      } catch (error) {
        reportFatal(error);
      }
      if (timers.size > 0) return -1;
      process.exit();
    },
  };
});
