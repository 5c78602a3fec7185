/**
 * `python3` on Pyodide: one interpreter, loaded once, that runs each command like a fresh
 * CPython process would, as far as a script can tell.
 *
 *   run(request)
 *     1. the project tree is synced into Pyodide's in-memory FS (only what changed since the
 *        last run is written)
 *     2. the driver below runs the script: argv, sys.path[0], cwd, environment, a fresh
 *        __main__; SystemExit becomes the exit code, an uncaught exception a traceback
 *     3. the FS is read back and diffed against the request's tree: the changes go home
 *     4. modules imported from the project are dropped from sys.modules, so an edited file is
 *        imported afresh next time
 *
 * A runaway script is stopped through Pyodide's interrupt buffer: whoever holds the other end
 * of the SharedArrayBuffer writes SIGINT (2) at the deadline and Python raises KeyboardInterrupt.
 *
 * Scripts are offline: once Pyodide has loaded its own files, the thread's global scope, which
 * Python sees as the `js` module, loses the network, the origin's storage and the page
 * (offline-scope.ts). A script's `js.fetch(...)` then raises an error that says so.
 * This module runs wherever Pyodide runs: a nested worker in the browser, the test process in Node.
 */
import type { PyodideAPI } from 'pyodide';
import { lockDownScope } from './offline-scope';
import { diffTrees, FileTree, type TreeChange, type TreeEntry } from './tree';

export type PythonMode = 'file' | 'code' | 'module' | 'stdin';

export interface PythonRunRequest {
  mode: PythonMode;
  /** The script's path, the -c code, the -m module name, or the code read from stdin. */
  target: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: string;
  roots: string[];
  entries: Map<string, TreeEntry>;
}

export interface PythonRunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** KeyboardInterrupt ended the script: the deadline or a stop. */
  interrupted: boolean;
  changes: TreeChange[];
}

export interface EngineProgress {
  phase: 'loading' | 'ready';
  loaded?: number;
  total?: number;
}

export interface EngineOptions {
  /** Imports pyodide.mjs: from the app's own origin in the browser, node_modules in Node. */
  importPyodide: () => Promise<{ loadPyodide: (config: Record<string, unknown>) => Promise<PyodideAPI> }>;
  /** Where pyodide.asm.wasm, python_stdlib.zip and pyodide-lock.json are; Pyodide's own dir if unset. */
  indexURL?: string;
  /** Int32Array over a SharedArrayBuffer; writing 2 into it interrupts the running script. */
  interruptBuffer?: Int32Array;
  /** Runs once Pyodide has loaded, just before the scope is locked down: the last moment to undo changes to it. */
  beforeLockDown?: () => void;
}

const OUTPUT_LIMIT_CHARS = 8 * 1024 * 1024;

/** The driver: runs one command's script with CPython's conventions. Receives and returns JSON. */
const DRIVER = String.raw`
import builtins, errno, importlib, json, os, runpy, sys, time, traceback, types

sys.executable = '/usr/bin/python3'
_real_sleep = time.sleep


def _sleep(seconds):
    # Pyodide's sleep does not wake for an interrupt: sleep in slices, between which it lands.
    if seconds < 0:
        raise ValueError('sleep length must be non-negative')
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        _real_sleep(min(left, 0.05))


time.sleep = _sleep
sys.dont_write_bytecode = True
_BASE_PATH = [p for p in sys.path if p not in ('', '.')]
_INTERNAL = ('<frozen runpy>', runpy.__file__, '<s04-driver>')
# Emscripten numbers errors its own way (ENOENT is 44): say what CPython on Linux says.
_LINUX_ERRNO = {errno.ENOENT: 2, errno.EACCES: 13, errno.ENOTDIR: 20, errno.EISDIR: 21}


def _exit_code(exc):
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _print_exception(exc):
    tb = exc.__traceback__
    while tb is not None and (tb.tb_frame.f_code.co_filename in _INTERNAL):
        tb = tb.tb_next
    traceback.print_exception(type(exc), exc, tb)


def _under(roots, path):
    return bool(path) and any(path == r or path.startswith(r.rstrip('/') + '/') for r in roots)


def _forget_project_modules(roots):
    for name, module in list(sys.modules.items()):
        paths = [getattr(module, '__file__', None) or '']
        paths += list(getattr(module, '__path__', None) or [])
        if any(_under(roots, str(p)) for p in paths):
            del sys.modules[name]


def _fresh_main():
    main = types.ModuleType('__main__')
    main.__builtins__ = builtins
    sys.modules['__main__'] = main
    return main


def _run(request_json):
    request = json.loads(request_json)
    mode, target, args, roots = request['mode'], request['target'], request['args'], request['roots']
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    sys.path[:] = _BASE_PATH
    os.environ.clear()
    os.environ.update(request['env'])
    main_before = sys.modules.get('__main__')
    code, interrupted = 0, False
    try:
        os.chdir(request['cwd'])
        importlib.invalidate_caches()
        if mode == 'file':
            path = os.path.abspath(target)
            try:
                with open(path, 'rb') as file:
                    source = file.read()
            except OSError as exc:
                number = _LINUX_ERRNO.get(exc.errno, exc.errno)
                print(f"{sys.executable}: can't open file {path!r}: [Errno {number}] {exc.strerror}", file=sys.stderr)
                return json.dumps([2, False])
            sys.argv = [target, *args]
            sys.path.insert(0, os.path.dirname(path))
            main = _fresh_main()
            main.__file__ = path
            exec(compile(source, path, 'exec'), main.__dict__)
        elif mode == 'module':
            sys.argv = ['-m', *args]
            sys.path.insert(0, os.getcwd())
            runpy._run_module_as_main(target, alter_argv=True)
        else:
            filename = '<string>' if mode == 'code' else '<stdin>'
            sys.argv = ['-c' if mode == 'code' else '-', *args]
            sys.path.insert(0, '')
            exec(compile(target, filename, 'exec'), _fresh_main().__dict__)
    except SystemExit as exc:
        code = _exit_code(exc)
    except KeyboardInterrupt as exc:
        interrupted, code = True, 130
        _print_exception(exc)
    except BaseException as exc:
        code = 1
        _print_exception(exc)
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        if main_before is not None:
            sys.modules['__main__'] = main_before
        _forget_project_modules(roots)
        try:
            os.chdir('/')
        except OSError:
            pass
    return json.dumps([code, interrupted])
`;

/** What the FS held after the last run, so the next one only writes what changed. */
interface Mirror {
  tree: FileTree;
  mtimes: Map<string, number>;
}

/** A loaded Pyodide with the driver installed. */
export class PythonEngine {
  readonly #pyodide: PyodideAPI;
  readonly #driver: (json: string) => string;
  readonly #interrupt: Int32Array | undefined;
  #mirror: Mirror | undefined;
  #out: string[] = [];
  #err: string[] = [];
  #sizes = [0, 0];
  #stdin = '';

  private constructor(pyodide: PyodideAPI, interrupt: Int32Array | undefined) {
    this.#pyodide = pyodide;
    this.#interrupt = interrupt;
    const namespace = pyodide.toPy({});
    pyodide.runPython(DRIVER, { globals: namespace, filename: '<s04-driver>' });
    this.#driver = namespace.get('_run');
    namespace.destroy();
    if (interrupt) pyodide.setInterruptBuffer(interrupt);
    const decoders = [new TextDecoder(), new TextDecoder()];
    const writer = (stream: 0 | 1) => ({
      write: (bytes: Uint8Array) => {
        this.#collect(stream, decoders[stream].decode(bytes, { stream: true }));
        return bytes.length;
      },
      isatty: false,
    });
    pyodide.setStdout(writer(0));
    pyodide.setStderr(writer(1));
    pyodide.setStdin({
      stdin: () => {
        const text = this.#stdin;
        this.#stdin = '';
        return text === '' ? null : text;
      },
    });
  }

  /**
   * Loads Pyodide (wasm, standard library: a big download), takes the network, storage and page
   * away from this thread's global scope for good, and installs the driver.
   */
  static async load(options: EngineOptions): Promise<PythonEngine> {
    const { loadPyodide } = await options.importPyodide();
    const pyodide = await loadPyodide({
      ...(options.indexURL ? { indexURL: options.indexURL } : {}),
      env: { HOME: '/home/user' },
      stdout: () => {},
      stderr: () => {},
    });
    options.beforeLockDown?.();
    lockDownScope(globalThis);
    return new PythonEngine(pyodide, options.interruptBuffer);
  }

  get version(): string {
    return this.#pyodide.runPython('import sys; sys.version.split()[0]') as string;
  }

  /** Runs one command's script to completion (or interruption). Synchronous: it holds the thread. */
  run(request: PythonRunRequest): PythonRunResult {
    const before = new FileTree(request.roots, request.entries);
    this.#out = [];
    this.#err = [];
    this.#sizes = [0, 0];
    this.#stdin = request.stdin;
    if (this.#interrupt) Atomics.store(this.#interrupt, 0, 0);

    this.#sync(before);
    let exitCode = 1;
    let interrupted = false;
    try {
      [exitCode, interrupted] = JSON.parse(
        this.#driver(
          JSON.stringify({
            mode: request.mode,
            target: request.target,
            args: request.args,
            cwd: request.cwd,
            env: request.env,
            roots: request.roots,
          }),
        ),
      ) as [number, boolean];
    } catch (error) {
      // The interrupt landed in the driver's own bookkeeping, or Python itself failed.
      interrupted = /KeyboardInterrupt/.test(String(error));
      if (!interrupted) this.#collect(1, `python3: internal error: ${error}\n`);
      exitCode = interrupted ? 130 : 1;
    }
    const after = this.#readBack(before);
    return {
      stdout: this.#out.join(''),
      stderr: this.#err.join(''),
      exitCode,
      interrupted,
      changes: diffTrees(before, after),
    };
  }

  #collect(stream: 0 | 1, text: string): void {
    if (!text || this.#sizes[stream] >= OUTPUT_LIMIT_CHARS) return;
    const parts = stream === 0 ? this.#out : this.#err;
    parts.push(text);
    this.#sizes[stream] += text.length;
    if (this.#sizes[stream] >= OUTPUT_LIMIT_CHARS) parts.push('\n[python3: output cut at 8 MB]\n');
  }

  /** Makes the FS below the roots equal `tree`, writing only what differs from the last run. */
  #sync(tree: FileTree): void {
    const FS = this.#pyodide.FS;
    if (!this.#mirror || this.#mirror.tree.roots.join() !== tree.roots.join()) {
      for (const root of tree.roots) {
        if (FS.analyzePath(root).exists) this.#removeTree(root, false);
        FS.mkdirTree(root);
      }
      this.#mirror = { tree: new FileTree(tree.roots), mtimes: new Map() };
    }
    const mtimes = this.#mirror.mtimes;
    for (const change of diffTrees(this.#mirror.tree, tree)) {
      if (change.kind === 'delete') this.#removeTree(change.path, true);
      else if (change.kind === 'mkdir') FS.mkdirTree(change.path);
      else {
        FS.writeFile(change.path, change.data);
        mtimes.set(change.path, FS.stat(change.path).mtime.getTime());
      }
    }
  }

  /** The FS below the roots, as a tree; files whose mtime did not move are taken from `before`. */
  #readBack(before: FileTree): FileTree {
    const FS = this.#pyodide.FS;
    const entries: [string, TreeEntry][] = [];
    const mtimes = new Map<string, number>();
    const walk = (dir: string) => {
      for (const name of FS.readdir(dir) as string[]) {
        if (name === '.' || name === '..') continue;
        const path = dir === '/' ? `/${name}` : `${dir}/${name}`;
        const stat = FS.stat(path);
        if (FS.isDir(stat.mode)) {
          entries.push([path, { type: 'directory' }]);
          walk(path);
        } else if (FS.isFile(stat.mode)) {
          const mtime = stat.mtime.getTime();
          const known = before.entries.get(path);
          const unchanged =
            known?.type === 'file' &&
            known.data.length === stat.size &&
            this.#mirror?.mtimes.get(path) === mtime;
          entries.push([
            path,
            {
              type: 'file',
              data: unchanged ? known.data : (FS.readFile(path) as Uint8Array),
              mtimeMs: mtime,
            },
          ]);
          mtimes.set(path, mtime);
        }
      }
    };
    for (const root of before.roots) if (FS.analyzePath(root).exists) walk(root);
    const after = new FileTree(before.roots, entries);
    this.#mirror = { tree: after, mtimes };
    return after;
  }

  #removeTree(path: string, self: boolean): void {
    const FS = this.#pyodide.FS;
    const stat = FS.lstat(path);
    if (FS.isDir(stat.mode)) {
      for (const name of FS.readdir(path) as string[]) {
        if (name !== '.' && name !== '..') this.#removeTree(`${path}/${name}`, true);
      }
      if (self) FS.rmdir(path);
    } else if (self) {
      FS.unlink(path);
    }
  }
}
