import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { create, DEFAULT_WORKDIR, type LocalSandbox } from '../local';
import { loadSample } from '../samples';
import type { FileChange } from '../sandbox';
import type { RuntimeProgress } from '.';
import { parseNodeArgs } from './node';

const W = DEFAULT_WORKDIR;
const run = (sandbox: LocalSandbox, command: string, agent = 'subagent-1', timeoutMs = 20_000) =>
  sandbox.exec(command, { timeoutMs, agent });

let sandbox: LocalSandbox;
let changes: FileChange[];

beforeEach(async () => {
  sandbox = await create(loadSample('typescript'));
  changes = [];
  sandbox.onChange((change) => changes.push(change));
});

afterEach(() => sandbox.dispose());

describe('parseNodeArgs', () => {
  it('reads the forms agents use', () => {
    expect(parseNodeArgs(['--version'])).toEqual({ kind: 'version' });
    expect(parseNodeArgs(['-e', 'x', 'a'])).toEqual({ kind: 'eval', code: 'x', print: false, args: ['a'] });
    expect(parseNodeArgs(['-p', '1+1'])).toEqual({ kind: 'eval', code: '1+1', print: true, args: [] });
    expect(parseNodeArgs(['--no-warnings', 'a.js', '-e'])).toEqual({
      kind: 'file',
      path: 'a.js',
      args: ['-e'],
    });
    expect(parseNodeArgs([])).toEqual({ kind: 'stdin', args: [] });
    expect(parseNodeArgs(['--test'])).toMatchObject({ kind: 'error' });
    expect(parseNodeArgs(['-e'])).toMatchObject({ kind: 'error', message: '-e requires an argument' });
  });
});

describe('node on QuickJS', () => {
  it('prints an honest version without loading anything', async () => {
    expect(await run(sandbox, 'node --version')).toEqual({
      stdout: 'v0.0.0-quickjs (QuickJS in the browser sandbox)\n',
      stderr: '',
      exitCode: 0,
      timedOut: false,
    });
  });

  it('runs node -e and node -p, with argv, console.error to stderr and progress reported', async () => {
    const progress: RuntimeProgress[] = [];
    sandbox.onRuntimeProgress((p) => progress.push(p));
    const result = await run(
      sandbox,
      `node -e "console.log(1 + 1, {a: [1, 'x']}, process.argv.slice(1)); console.error('oops')" a b`,
    );
    expect(result).toEqual({
      stdout: "2 { a: [ 1, 'x' ] } [ 'a', 'b' ]\n",
      stderr: 'oops\n',
      exitCode: 0,
      timedOut: false,
    });
    expect((await run(sandbox, 'node -p "[1, 2, 3].map((x) => x * 2)"')).stdout).toBe('[ 2, 4, 6 ]\n');
    expect((await run(sandbox, `node -p "'plain string'"`)).stdout).toBe('plain string\n');
    // QuickJS may already be loaded by an earlier test in this file: then no progress is due.
    for (const p of progress) expect(p.runtime).toBe('node');
  });

  it('runs a CommonJS file that requires a sibling module and JSON, with __dirname and __filename', async () => {
    await sandbox.writeFile(`${W}/js/lib.js`, 'exports.twice = (x) => x * 2;\n');
    await sandbox.writeFile(`${W}/js/data.json`, '{ "n": 21 }\n');
    await sandbox.writeFile(
      `${W}/js/main.js`,
      [
        "const { twice } = require('./lib');",
        "const data = require('./data.json');",
        "const path = require('node:path');",
        'console.log(twice(data.n), __filename, path.basename(__dirname), require.main === module);',
        "console.log(path.join('a', '..', 'b', 'c.txt'), path.extname('x.test.js'), path.resolve('rel'));",
        'console.log(JSON.stringify(process.argv.slice(1)), process.cwd());',
      ].join('\n'),
    );
    const result = await run(sandbox, 'node js/main.js --flag');
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      `42 ${W}/js/main.js js true\nb/c.txt .js ${W}/rel\n["${W}/js/main.js","--flag"] ${W}\n`,
    );
  });

  it('writes through fs into the shared tree, attributed to the calling agent', async () => {
    const script = [
      "const fs = require('fs');",
      "fs.mkdirSync('out/deep', { recursive: true });",
      "fs.writeFileSync('out/deep/a.txt', 'from node\\n');",
      "fs.appendFileSync('out/deep/a.txt', 'more\\n');",
      "fs.writeFileSync('README.md', fs.readFileSync('README.md', 'utf8').toUpperCase());",
      "fs.unlinkSync('tsconfig.json');",
      "console.log(fs.existsSync('out/deep/a.txt'), fs.readdirSync('out'), fs.statSync('out').isDirectory());",
    ].join('\n');
    await sandbox.writeFile(`${W}/write.js`, script, 'parent');
    changes.length = 0;
    const result = await run(sandbox, 'node write.js && cat out/deep/a.txt', 'subagent-2');
    expect(result).toMatchObject({ stdout: "true [ 'deep' ] true\nfrom node\nmore\n", exitCode: 0 });
    expect(changes).toEqual([
      { path: `${W}/tsconfig.json`, kind: 'delete', agent: 'subagent-2' },
      { path: `${W}/out`, kind: 'create', agent: 'subagent-2' },
      { path: `${W}/out/deep`, kind: 'create', agent: 'subagent-2' },
      { path: `${W}/README.md`, kind: 'modify', agent: 'subagent-2' },
      { path: `${W}/out/deep/a.txt`, kind: 'create', agent: 'subagent-2' },
    ]);
    expect(await sandbox.readFile(`${W}/README.md`)).toMatch(/^# [A-Z]/);
  });

  it('fails like Node on a missing file and a missing module', async () => {
    const missing = await run(sandbox, 'node nope.js');
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/Cannot find module '\.\/nope\.js'/);
    const fsError = await run(sandbox, `node -e "require('fs').readFileSync('gone.txt')"`);
    expect(fsError.stderr).toMatch(/ENOENT: no such file or directory, open '.*\/gone\.txt'/);
    const module = await run(sandbox, `node -e "require('left-pad')"`);
    expect(module.stderr).toMatch(/Cannot find module 'left-pad'/);
    const builtin = await run(sandbox, `node -e "require('child_process')"`);
    expect(builtin.stderr).toMatch(/node:child_process is not available in this sandbox/);
  });

  it('exits with process.exit(code), past a try/catch, and runs exit listeners', async () => {
    const result = await run(
      sandbox,
      `node -e "process.on('exit', (c) => console.log('exit', c)); try { process.exit(3) } catch { console.log('caught') }"; echo rc=$?`,
    );
    expect(result.stdout).toBe('exit 3\nrc=3\n');
    expect((await run(sandbox, `node -e "process.exitCode = 4"; echo rc=$?`)).stdout).toBe('rc=4\n');
  });

  it('reports a syntax error and an uncaught exception on stderr with exit code 1', async () => {
    await sandbox.writeFile(`${W}/bad.js`, 'const x = 1;\nfoo(;\n');
    const syntax = await run(sandbox, 'node bad.js');
    expect(syntax.exitCode).toBe(1);
    expect(syntax.stdout).toBe('');
    expect(syntax.stderr).toMatch(new RegExp(`^${W}/bad\\.js:2\\nfoo\\(;\\n[\\s\\S]*SyntaxError: `));
    const thrown = await run(sandbox, `node -e "function f() { throw new TypeError('bad thing') } f()"`);
    expect(thrown.exitCode).toBe(1);
    expect(thrown.stderr).toMatch(/^TypeError: bad thing\n {4}at f \(\[eval\]/);
  });

  it('says clearly that ES modules are not supported', async () => {
    await sandbox.writeFile(`${W}/esm.js`, "import fs from 'fs';\nexport const x = 1;\n");
    const result = await run(sandbox, 'node esm.js');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/Cannot use import statement outside a module/);
    expect(result.stderr).toMatch(/CommonJS only: ES modules \(import\/export, \.mjs\) are not supported/);
  });

  it('runs timers, promises and reads stdin', async () => {
    const timers = await run(
      sandbox,
      `node -e "setTimeout(() => console.log('later'), 50); Promise.resolve().then(() => console.log('micro')); (async () => { await new Promise((r) => setTimeout(r, 10)); console.log('awaited') })(); console.log('now')"`,
    );
    expect(timers.stdout).toBe('now\nmicro\nawaited\nlater\n');
    const stdin = await run(
      sandbox,
      `printf 'hé\\n' | node -e "process.stdout.write(require('fs').readFileSync(0, 'utf8').toUpperCase())"`,
    );
    expect(stdin.stdout).toBe('HÉ\n');
  });

  it('stops a runaway loop at the timeout, reported as timedOut, and stays usable', async () => {
    const result = await run(sandbox, 'node -e "while (true) {}"', 'parent', 500);
    expect(result.timedOut).toBe(true);
    const timer = await run(sandbox, 'node -e "setInterval(() => {}, 10)"', 'parent', 300);
    expect(timer.timedOut).toBe(true);
    expect(await run(sandbox, 'node -p 6*7')).toMatchObject({ stdout: '42\n', timedOut: false });
  });

  it('ends a script that allocates without bound at the 64 MB memory limit', async () => {
    const result = await run(
      sandbox,
      'node -e "const a = []; while (true) a.push({ i: a.length })"',
      'parent',
      30_000,
    );
    expect(result).toMatchObject({ exitCode: 134, timedOut: false });
    expect(result.stderr).toMatch(/JavaScript heap out of memory .*limited to 64 MB/);
    expect((await run(sandbox, 'node -p "1 + 1"')).stdout).toBe('2\n');
  }, 60_000); // filling 64 MB takes seconds on a busy machine

  it('survives unbounded recursion', async () => {
    const result = await run(sandbox, 'node -e "function f() { return f() + 1 } f()"');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/stack overflow|Maximum call stack size exceeded/);
    expect(result.stderr.split('\n').length).toBeLessThan(20);
    expect((await run(sandbox, 'node -p "2 + 2"')).stdout).toBe('4\n');
  });
});

describe('node is offline', () => {
  it('fails fetch as Node does without a network, saying why', async () => {
    const result = await run(
      sandbox,
      `node -e "fetch('http://127.0.0.1:9/').then(() => console.log('ALLOWED'), (e) => console.log(e.name, e.code, e.message))"`,
    );
    expect(result).toEqual({
      stdout: 'TypeError ERR_UNAVAILABLE_IN_SANDBOX fetch failed: this sandbox has no network\n',
      stderr: '',
      exitCode: 0,
      timedOut: false,
    });
  });

  it("refuses Node's network modules", async () => {
    for (const name of ['http', 'https', 'node:net', 'http2', 'dgram', 'child_process', 'worker_threads']) {
      const result = await run(sandbox, `node -e "require('${name}')"`);
      expect(result.exitCode, name).toBe(1);
      expect(result.stderr, name).toMatch(/ERR_UNAVAILABLE_IN_SANDBOX|is not available in this sandbox/);
    }
  });

  it("sees none of the worker's globals: QuickJS only has what the prelude gives it", async () => {
    const names = [
      'XMLHttpRequest',
      'WebSocket',
      'EventSource',
      'importScripts',
      'indexedDB',
      'caches',
      'postMessage',
      'BroadcastChannel',
      'Worker',
      'SharedWorker',
      'navigator',
      'location',
      'self',
      'window',
    ];
    const result = await run(
      sandbox,
      `node -p "JSON.stringify(${JSON.stringify(names).replace(/"/g, "'")}.filter((n) => typeof globalThis[n] !== 'undefined'))"`,
    );
    expect(result).toMatchObject({ stdout: '[]\n', exitCode: 0 });
  });
});

describe("node's modules from npm packages", () => {
  it('prints values, Buffers, promises and errors as Node does', async () => {
    const values = await run(
      sandbox,
      `node -e "console.log(new Map([[1, { a: [1, 2] }]]), new Set(['x']), Buffer.from('hi'), Promise.resolve(42), [undefined, null], -0)"`,
    );
    expect(values.stdout).toBe(
      "Map(1) { 1 => { a: [ 1, 2 ] } } Set(1) { 'x' } <Buffer 68 69> Promise { 42 } [ undefined, null ] -0\n",
    );
    const caught = await run(
      sandbox,
      `node -e "const e = new Error('boom'); e.code = 'E_BOOM'; console.log(e)"`,
    );
    expect(caught.stdout).toMatch(/^Error: boom\n {4}at .*\[eval\][^\n]* \{\n {2}code: 'E_BOOM'\n\}\n$/);
  });

  it("fails with assert's and path's messages and codes, as Node's", async () => {
    const assertion = await run(sandbox, `node -e "require('assert').strictEqual(1, 2)"`);
    expect(assertion.exitCode).toBe(1);
    expect(assertion.stderr).toMatch(
      /^AssertionError \[ERR_ASSERTION\]: Expected values to be strictly equal:\n\n1 !== 2\n\n {4}at /,
    );
    expect(assertion.stderr).toMatch(/operator: 'strictEqual'\n\}\n\nNode\.js v/);
    const path = await run(sandbox, `node -e "require('path').join('a', 1)"`);
    expect(path.stderr).toMatch(
      /^TypeError \[ERR_INVALID_ARG_TYPE\]: The "path" argument must be of type string\. Received type number \(1\)\n/,
    );
  });

  it('has util, events, buffer and string_decoder', async () => {
    const script = [
      "const util = require('util');",
      "const { once, EventEmitter } = require('events');",
      "const { StringDecoder } = require('string_decoder');",
      'const e = new EventEmitter();',
      "once(e, 'ready').then(([v]) => console.log('ready', v));",
      "e.emit('ready', 7);",
      "util.promisify((x, cb) => cb(null, x * 2))(21).then((v) => console.log('promisified', v));",
      "const d = new StringDecoder('utf8'); const b = Buffer.from('é');",
      "console.log(d.write(b.subarray(0, 1)) + d.write(b.subarray(1)), Buffer.from('aGk=', 'base64').toString('hex'), btoa('hi'));",
      "console.log(util.isDeepStrictEqual({ a: [1] }, { a: [1] }), util.format('%s=%d %j', 'n', 4, { x: 1 }));",
    ].join('\n');
    await sandbox.writeFile(`${W}/mods.js`, script);
    expect(await run(sandbox, 'node mods.js')).toMatchObject({
      stdout: 'é 6869 aGk=\ntrue n=4 {"x":1}\nready 7\npromisified 42\n',
      stderr: '',
      exitCode: 0,
    });
  });

  it("lays out long arrays and circular objects as Node's inspect does, and reads files as Buffers", async () => {
    const script = [
      "const fs = require('fs');",
      'console.log([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);',
      "const o = { name: 'o' }; o.self = o; console.log(o);",
      "fs.writeFileSync('b.bin', 'hi'); console.log(fs.readFileSync('b.bin'));",
    ].join('\n');
    await sandbox.writeFile(`${W}/layout.js`, script);
    expect(await run(sandbox, 'node layout.js')).toMatchObject({
      stdout:
        '[\n  1, 2, 3, 4,  5,\n  6, 7, 8, 9, 10\n]\n' +
        "<ref *1> { name: 'o', self: [Circular *1] }\n<Buffer 68 69>\n",
      stderr: '',
      exitCode: 0,
    });
  });
});
