/**
 * Hand-written: the bridge to the sandbox's shared filesystem. A script's fs calls go to the
 * host's FileTree (quickjs.ts), so what it writes is in the project as soon as it ends,
 * attributed to the agent that ran it; an in-QuickJS filesystem (memfs) would hold a copy of the
 * project to load on every run and to diff back, and would weigh far more.
 * Errors carry Node's codes and messages ("ENOENT: no such file or directory, open '…'").
 */
import { fsHost, host, init, lazy, utf8Decode } from './host.js';
import { assertString, codedError } from './errors.js';
import { path } from './path.js';

const buffer = () => lazy('buffer').Buffer;
const queueMicrotask = (callback) => Promise.resolve().then(callback);

const FS_ERRORS = {
  ENOENT: [-2, 'no such file or directory'],
  EEXIST: [-17, 'file already exists'],
  ENOTDIR: [-20, 'not a directory'],
  EISDIR: [-21, 'illegal operation on a directory'],
  ENOTEMPTY: [-39, 'directory not empty'],
  EINVAL: [-22, 'invalid argument'],
  EBADF: [-9, 'bad file descriptor'],
};

/** A failed call as Node's fs reports it: code, errno, syscall and path. */
export function fsError(code, syscall, target, dest) {
  const [errno, text] = FS_ERRORS[code] ?? [-1, code];
  const where = dest === undefined ? `'${target}'` : `'${target}' -> '${dest}'`;
  const error = new Error(`${code}: ${text}, ${syscall} ${where}`);
  Object.assign(error, { errno, code, syscall, path: target });
  if (dest !== undefined) error.dest = dest;
  return error;
}

/** Calls the host's tree; a failure becomes Node's error for `syscall`. */
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
  if (p instanceof Uint8Array) p = utf8Decode(p);
  assertString(p, name);
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
  host.write(fd, typeof data === 'string' ? data : utf8Decode(data));
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
      : host.writeBytes(target, copyBuffer(buffer().from(text, encoding)), appending);
  } else {
    error = host.writeBytes(target, copyBuffer(data), appending);
  }
  if (error) throw fsError(error, 'open', target);
}

const copyBuffer = (view) => view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);

export const fs = {
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
      return encoding ? init.stdin : buffer().from(init.stdin);
    }
    const target = toPath(file);
    if (encoding && /^utf-?8$/i.test(encoding)) return fsCall('readText', [target], 'open', target);
    const bytes = host.readBytes(target);
    if (typeof bytes === 'string') throw fsError(bytes, 'open', target);
    const data = buffer().from(bytes);
    return encoding ? data.toString(encoding) : data;
  },
  writeFileSync(file, data, options) {
    writeData(file, data, options, false);
  },
  appendFileSync(file, data, options) {
    writeData(file, data, options, true);
  },
  writeSync(fd, data) {
    writeFd(fd, data);
    return typeof data === 'string' ? buffer().byteLength(data) : data.length;
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
      throw codedError(Error, 'ERR_FS_EISDIR', `Recursive option is required to copy a directory: ${source}`);
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
    queueMicrotask(() => callback(failure, result));
  };
}
fs.exists = (file, callback) => queueMicrotask(() => callback(fs.existsSync(file)));
fs.promises.constants = fs.constants;
