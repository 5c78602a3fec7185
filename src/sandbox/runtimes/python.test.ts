/**
 * python3 on Pyodide, in this process (Node has no Web Worker): Pyodide is loaded from
 * node_modules once for the file, and the deadline interrupt comes from a watchdog thread
 * through the same SharedArrayBuffer path the browser's nested worker uses.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { create, DEFAULT_WORKDIR, type LocalSandbox } from '../local';
import { loadSample } from '../samples';
import type { FileChange } from '../sandbox';
import { StopCell, watchedSignal } from '../stop-signal';
import type { RuntimeProgress } from '.';
import { parsePythonArgs, PYTHON_VERSION } from './python';

const W = DEFAULT_WORKDIR;
const run = (sandbox: LocalSandbox, command: string, agent = 'subagent-1', timeoutMs = 20_000) =>
  sandbox.exec(command, { timeoutMs, agent });

let sandbox: LocalSandbox;
let changes: FileChange[];
let firstUse: { stderr: string; progress: RuntimeProgress[] };

beforeAll(async () => {
  // The first use loads Pyodide (seconds): once for the whole file, and it is what we check first.
  const first = await create(loadSample('python'));
  const progress: RuntimeProgress[] = [];
  first.onRuntimeProgress((p) => progress.push(p));
  const result = await run(first, 'python3 -c "print(6 * 7)"');
  firstUse = { stderr: result.stderr, progress };
  expect(result.stdout).toBe('42\n');
  first.dispose();
}, 60_000);

beforeEach(async () => {
  sandbox = await create(loadSample('python'));
  changes = [];
  sandbox.onChange((change) => changes.push(change));
});

afterEach(() => sandbox.dispose());

describe('parsePythonArgs', () => {
  it('reads -c, -m, files, clustered and ignored flags', () => {
    expect(parsePythonArgs(['-c', 'print(1)', 'a'])).toEqual({
      kind: 'run',
      mode: 'code',
      target: 'print(1)',
      args: ['a'],
    });
    expect(parsePythonArgs(['-u', '-m', 'unittest', '-v'])).toEqual({
      kind: 'run',
      mode: 'module',
      target: 'unittest',
      args: ['-v'],
    });
    expect(parsePythonArgs(['-Bc', 'x'])).toMatchObject({ mode: 'code', target: 'x' });
    expect(parsePythonArgs(['-W', 'ignore', 'x.py', '-c'])).toMatchObject({
      mode: 'file',
      target: 'x.py',
      args: ['-c'],
    });
    expect(parsePythonArgs(['-V'])).toEqual({ kind: 'version' });
    expect(parsePythonArgs(['-Z'])).toEqual({ kind: 'error', message: 'unknown option -Z' });
  });

  it('names the CPython version the pinned Pyodide ships', () => {
    const lockPath = createRequire(import.meta.url).resolve('pyodide/pyodide-lock.json');
    const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as { info: { python: string } };
    expect(PYTHON_VERSION).toBe(lock.info.python);
  });
});

describe('python3 on Pyodide', () => {
  it('tells on first use that Pyodide is loading, and reports progress', () => {
    expect(firstUse.stderr).toMatch(/^\[python3: loading Pyodide \(first use\)… ready in \d+\.\d s\]\n$/);
    expect(firstUse.progress[0]).toEqual({ runtime: 'python', phase: 'loading' });
    expect(firstUse.progress.at(-1)).toMatchObject({ runtime: 'python', phase: 'ready' });
  });

  it('runs -c with argv, and the version without a note once loaded', async () => {
    const result = await run(sandbox, 'python3 -c "import sys; print(sys.argv, sys.path[0] == \'\')" a b');
    expect(result).toEqual({ stdout: "['-c', 'a', 'b'] True\n", stderr: '', exitCode: 0, timedOut: false });
    expect((await run(sandbox, 'python --version')).stdout).toBe(`Python ${PYTHON_VERSION}\n`);
  });

  it("runs a script that imports a sibling module, from the script's directory and cwd", async () => {
    await sandbox.writeFile(`${W}/tools/helper.py`, 'def shout(s):\n    return s.upper() + "!"\n');
    await sandbox.writeFile(
      `${W}/tools/run.py`,
      'import os, sys\nfrom helper import shout\nprint(shout("hi"), os.getcwd(), sys.argv)\n',
    );
    const result = await run(sandbox, 'python3 tools/run.py x');
    expect(result).toMatchObject({ stdout: `HI! ${W} ['tools/run.py', 'x']\n`, stderr: '', exitCode: 0 });
    // The sample's own entry point, with its imports from src/.
    const sample = await run(sandbox, 'printf "a b a\\n" > t.txt && python3 src/main.py t.txt');
    expect(sample.exitCode).toBe(0);
    expect(sample.stdout).toMatch(/3 words/);
  });

  it('imports an edited module afresh on the next run', async () => {
    await sandbox.writeFile(`${W}/mod.py`, 'VALUE = 1\n');
    expect((await run(sandbox, 'python3 -c "import mod; print(mod.VALUE)"')).stdout).toBe('1\n');
    await run(sandbox, "sed -i 's/1/2/' mod.py");
    expect((await run(sandbox, 'python3 -c "import mod; print(mod.VALUE)"')).stdout).toBe('2\n');
  });

  it('writes files that cat then sees, reported in the change feed with the agent', async () => {
    const script = [
      'import os, pathlib',
      "os.makedirs('out', exist_ok=True)",
      "pathlib.Path('out/result.txt').write_text('from python\\n')",
      "os.remove('requirements.txt')",
      "with open('README.md', 'a') as f: f.write('appended\\n')",
    ].join('\n');
    await sandbox.writeFile(`${W}/write.py`, script, 'parent');
    changes.length = 0;
    const result = await run(
      sandbox,
      'python3 write.py && cat out/result.txt && tail -n 1 README.md',
      'subagent-2',
    );
    expect(result).toMatchObject({ stdout: 'from python\nappended\n', exitCode: 0 });
    expect(changes).toEqual([
      { path: `${W}/requirements.txt`, kind: 'delete', agent: 'subagent-2' },
      { path: `${W}/out`, kind: 'create', agent: 'subagent-2' },
      { path: `${W}/README.md`, kind: 'modify', agent: 'subagent-2' },
      { path: `${W}/out/result.txt`, kind: 'create', agent: 'subagent-2' },
    ]);
    // No __pycache__ from the imports: the project only changes where the script wrote.
    await run(sandbox, 'python3 src/main.py --help');
    expect(changes.some((c) => c.path.includes('__pycache__'))).toBe(false);
  });

  it('reports exceptions as tracebacks, sys.exit codes, and a missing script as CPython does', async () => {
    const error = await run(sandbox, 'python3 -c "1/0"');
    expect(error).toMatchObject({
      stdout: '',
      stderr:
        'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nZeroDivisionError: division by zero\n',
      exitCode: 1,
    });
    expect((await run(sandbox, 'python3 -c "import sys; sys.exit(4)"; echo rc=$?')).stdout).toBe('rc=4\n');
    expect((await run(sandbox, `python3 -c "raise SystemExit('bye')"`)).stderr).toBe('bye\n');
    const missing = await run(sandbox, 'python3 nope.py');
    expect(missing).toMatchObject({ exitCode: 2 });
    expect(missing.stderr).toBe(
      `/usr/bin/python3: can't open file '${W}/nope.py': [Errno 2] No such file or directory\n`,
    );
  });

  it('reads stdin: input() and a script piped in', async () => {
    expect((await run(sandbox, 'echo héllo | python3 -c "print(input().upper())"')).stdout).toBe('HÉLLO\n');
    expect((await run(sandbox, 'echo "print(2 ** 10)" | python3')).stdout).toBe('1024\n');
  });

  it('runs unittest: a passing and a failing TestCase, with exit codes', async () => {
    await sandbox.writeFile(
      `${W}/test_numbers.py`,
      [
        'import unittest',
        '',
        'class Numbers(unittest.TestCase):',
        '    def test_add(self):',
        '        self.assertEqual(1 + 1, 2)',
        '',
        '    def test_mul(self):',
        '        self.assertEqual(2 * 3, 6)',
        '',
      ].join('\n'),
    );
    const pass = await run(sandbox, 'python3 -m unittest test_numbers -v');
    expect(pass.exitCode).toBe(0);
    expect(pass.stderr).toMatch(/test_add \(test_numbers\.Numbers\.test_add\) \.\.\. ok/);
    expect(pass.stderr).toMatch(/Ran 2 tests in [\d.]+s\n\nOK\n$/);

    await run(sandbox, "sed -i 's/2 \\* 3, 6/2 * 3, 7/' test_numbers.py");
    const fail = await run(sandbox, 'python3 -m unittest');
    expect(fail.exitCode).toBe(1);
    expect(fail.stderr).toMatch(/FAIL: test_mul \(test_numbers\.Numbers\.test_mul\)/);
    expect(fail.stderr).toMatch(/AssertionError: 6 != 7/);
    expect(fail.stderr).toMatch(/FAILED \(failures=1\)\n$/);
  });

  it("reports honestly on the sample's pytest-style tests, and that pytest is missing", async () => {
    const discover = await run(sandbox, 'python3 -m unittest discover -s tests');
    expect(discover.exitCode).toBe(1);
    expect(discover.stderr).toMatch(/Ran 3 tests/);
    expect(discover.stderr).toMatch(/ModuleNotFoundError: No module named 'utils'/);
    const none = await run(sandbox, 'python3 -m unittest');
    expect(none.exitCode).toBe(5);
    expect(none.stderr).toMatch(/NO TESTS RAN/);
    expect(await run(sandbox, 'python3 -m pytest')).toEqual({
      stdout: '',
      stderr: '/usr/bin/python3: No module named pytest\n',
      exitCode: 1,
      timedOut: false,
    });
  });

  it('stops a runaway loop and a long sleep at the timeout, and stays usable', async () => {
    // Timed out, not finished: the loop never ends, and the sleep lasts 30 s.
    const loop = await run(sandbox, 'python3 -c "while True: pass"', 'parent', 1000);
    expect(loop.timedOut).toBe(true);
    const sleep = await run(sandbox, 'python3 -c "import time; time.sleep(30)"', 'parent', 800);
    expect(sleep.timedOut).toBe(true);
    expect(await run(sandbox, 'python3 -c "print(\'still here\')"')).toMatchObject({
      stdout: 'still here\n',
      timedOut: false,
    });
  });
  // Python holds this thread while it runs: Stop comes from another one (the page, in the browser).
  it('ends a runaway loop when another thread raises its stop, as stopped, not timed out', async () => {
    const stop = new StopCell();
    const watched = watchedSignal([stop]);
    raiseFromAnotherThread(stop, 200);
    const result = await sandbox.exec('python3 -c "while True: pass"', {
      timeoutMs: 30_000,
      agent: 'parent',
      signal: watched.signal,
    });
    watched.dispose();
    expect(result).toMatchObject({ exitCode: 130, timedOut: false });
    expect(await run(sandbox, 'python3 -c "print(\'next\')"')).toMatchObject({ stdout: 'next\n' });
  });
});

/**
 * Each way out a script could try through Pyodide's `js` module, one per line of output:
 * `name: ALLOWED` if it got through, else the error it met.
 */
const ESCAPES = String.raw`
import js
from pyodide.code import run_js
from pyodide.ffi import to_js

tries = {
    'fetch': lambda: js.fetch('http://127.0.0.1:9/'),
    'XMLHttpRequest': lambda: js.XMLHttpRequest.new(),
    'WebSocket': lambda: js.WebSocket.new('ws://127.0.0.1:9/'),
    'EventSource': lambda: js.EventSource.new('http://127.0.0.1:9/'),
    'indexedDB': lambda: js.indexedDB.open('s04'),
    'caches': lambda: js.caches.open('s04'),
    'postMessage': lambda: js.postMessage('hi'),
    'BroadcastChannel': lambda: js.BroadcastChannel.new('s04'),
    'importScripts': lambda: js.importScripts('http://127.0.0.1:9/x.js'),
    'Worker': lambda: js.Worker.new('http://127.0.0.1:9/x.js'),
    'eval': lambda: js.eval('1'),
    'Function': lambda: js.Function('return 1')(),
    'constructor': lambda: to_js({}).constructor.constructor('return 1')(),
    'run_js': lambda: run_js('1'),
    'setTimeout string': lambda: js.setTimeout('1', 0),
}
for name, attempt in tries.items():
    try:
        attempt()
        print(f'{name}: ALLOWED')
    except Exception as error:
        print(f'{name}: {type(error).__name__}: {str(error).splitlines()[0]}')
`;

describe('python3 is offline', () => {
  it('cannot reach the network, storage or page through the js module', async () => {
    await sandbox.writeFile(`${W}/escape.py`, ESCAPES);
    const result = await run(sandbox, 'python3 escape.py');
    expect(result).toMatchObject({ stderr: '', exitCode: 0 });
    const lines = Object.fromEntries(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/: (.*)/s).slice(0, 2) as [string, string]),
    );
    // What Node's scope has is taken, with a reason; what it never had stays missing.
    const taken = [
      'fetch',
      'BroadcastChannel',
      'eval',
      'Function',
      'constructor',
      'run_js',
      'setTimeout string',
    ];
    for (const name of taken)
      expect(lines[name], name).toMatch(/is not available: code in this sandbox is offline/);
    expect(Object.entries(lines).filter(([, outcome]) => outcome === 'ALLOWED')).toEqual([]);
    expect(Object.keys(lines)).toHaveLength(15);
  });

  it('says why, in the traceback of a script that fetches', async () => {
    const result = await run(sandbox, `python3 -c "import js; js.fetch('http://127.0.0.1:9/')"`);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /Error: fetch is not available: code in this sandbox is offline \(no network, no storage, no page access\)\n$/,
    );
  });

  it('still runs what scripts need: timers with functions, to_js, the standard library', async () => {
    const result = await run(
      sandbox,
      `python3 -c "import js, json; from pyodide.ffi import to_js, create_proxy; js.clearTimeout(js.setTimeout(create_proxy(lambda: None), 10)); print(to_js([1, 2]).length, json.dumps({'a': 1}), js.Math.max(3, 4))"`,
    );
    expect(result).toMatchObject({ stdout: '2 {"a": 1} 4\n', stderr: '', exitCode: 0 });
  });
});
/** Raises `stop` from a thread of its own after `ms`, as the page does when the learner presses Stop. */
function raiseFromAnotherThread(stop: StopCell, ms: number): void {
  const code = `
    const { workerData } = require('node:worker_threads');
    const cell = new Int32Array(workerData);
    Atomics.wait(cell, 0, 0, ${ms});
    Atomics.store(cell, 0, 1);
  `;
  new Worker(code, { eval: true, workerData: stop.cell.buffer }).unref();
}
