/**
 * Hand-written: CommonJS `require` over the sandbox's shared filesystem, as Node resolves it
 * (relative paths, extensions, index files, package.json "main", node_modules up the tree), the
 * module wrapper, the cache, and Node's errors (MODULE_NOT_FOUND with the require stack, ES
 * modules explained). The files live in the host's tree; no package resolves or loads from there.
 */
import { fsHost, host } from './host.js';
import { codedError } from './errors.js';
import { path } from './path.js';

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

/** The module `node file.js` runs; `require.main`. */
let mainModule;

const moduleCache = Object.create(null);
let builtins = Object.create(null);

/** Node's built-in modules, by name: functions returning each module. */
export function registerBuiltins(table) {
  builtins = table;
}

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

export function fakeModule(filename) {
  const file = path.resolve(String(filename).replace(/^file:\/\//, ''));
  return { id: file, filename: file, path: path.dirname(file), children: [] };
}

/** The built-in `id` names, or null for a file; throws for Node's modules this sandbox lacks. */
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
  const fromDir = parent ? path.dirname(path.resolve(parent.filename)) : path.resolve();
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

export const WRAPPER = '(function (exports, require, module, __filename, __dirname) { ';

export function looksLikeEsm(source) {
  return /^\s*(import\s*[\w{*'"]|export\s+(default|const|let|var|function|class|async|\{|\*))/m.test(source);
}

export function esmError(filename) {
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

export function makeRequire(module) {
  const require = (request) => loadModule(request, module);
  require.resolve = (request) => (builtinName(request) ? request : resolveFilename(request, module));
  require.cache = moduleCache;
  Object.defineProperty(require, 'main', { get: () => mainModule, enumerable: true });
  return require;
}

/** The file `node <file>` names, resolved as Node does (`node a` finds a.js). */
export function resolveMain(filename) {
  const resolved = resolveFilename(filename.startsWith('/') ? filename : `./${filename}`, null);
  if (resolved.endsWith('.mjs')) throw esmError(resolved);
  return resolved;
}

/** Runs `filename` (resolved) as the main module. */
export function runMain(filename) {
  const module = new Module(filename, null);
  module.id = '.';
  mainModule = module;
  moduleCache[filename] = module;
  const source = fsHost('readText', [filename]);
  if (filename.endsWith('.json')) JSON.parse(source);
  else {
    const fn = compileModule(source, filename);
    fn.call(module.exports, module.exports, module.require, module, filename, module.path);
  }
  module.loaded = true;
}

/** The module `node -e` code runs as: `[eval]`, in the current directory. */
export function evalModule() {
  const module = new Module(path.resolve('[eval]'), null);
  module.id = '[eval]';
  module.filename = '[eval]';
  return module;
}
