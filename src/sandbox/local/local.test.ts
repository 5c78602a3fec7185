import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { create, DEFAULT_WORKDIR, REHEARSAL, type LocalSandbox } from './index';
import { StopCell, watchedSignal } from '../stop-signal';
import { normalizeGrepArgs, normalizeXargsArgs } from '../shell-args';
import { loadSample, SAMPLE_NAMES } from '../samples';
import type { FileChange } from '../sandbox';

const W = DEFAULT_WORKDIR;
const run = (sandbox: LocalSandbox, command: string, agent?: string) =>
  sandbox.exec(command, { timeoutMs: 20_000, agent });

let sandbox: LocalSandbox;
let changes: FileChange[];

beforeEach(async () => {
  sandbox = await create(loadSample('python'));
  changes = [];
  sandbox.onChange((change) => changes.push(change));
});

afterEach(() => sandbox.dispose());

describe('samples', () => {
  it.each(SAMPLE_NAMES)('loads the %s sample with relative paths, no caches', (name) => {
    const files = loadSample(name);
    const paths = Object.keys(files);
    expect(paths.length).toBeGreaterThanOrEqual(6);
    expect(paths.length).toBeLessThanOrEqual(12);
    expect(paths).toContain('README.md');
    for (const path of paths) {
      expect(path).not.toMatch(/^\/|__pycache__|node_modules|\.pytest_cache/);
      expect(files[path].length).toBeGreaterThan(0);
    }
  });

  it('python: each .py starts with a module docstring; pytest is configured', () => {
    const files = loadSample('python');
    const py = Object.keys(files).filter((p) => p.endsWith('.py'));
    expect(py).toEqual(
      expect.arrayContaining(['conftest.py', 'src/main.py', 'src/utils.py', 'tests/test_main.py']),
    );
    for (const path of py) expect(files[path].startsWith('"""'), path).toBe(true);
    expect(files['requirements.txt']).toMatch(/pytest-cov/);
    expect(files['pyproject.toml']).toMatch(/\[tool\.pytest\.ini_options\][\s\S]*testpaths[\s\S]*--cov/);
  });

  it('typescript: each src file opens with a doc comment; vitest is the test runner', () => {
    const files = loadSample('typescript');
    const ts = Object.keys(files).filter((p) => p.startsWith('src/'));
    expect(ts.length).toBeGreaterThanOrEqual(2);
    for (const path of ts) expect(files[path].startsWith('/**'), path).toBe(true);
    const pkg = JSON.parse(files['package.json']);
    expect(pkg.scripts.test).toBe('vitest run');
    expect(pkg.devDependencies.vitest).toBeDefined();
    expect(Object.keys(files).some((p) => /^tests\/.*\.test\.ts$/.test(p))).toBe(true);
  });
});

describe('create', () => {
  it('mounts the project under the default workdir, listed sorted with types and sizes', async () => {
    expect(sandbox.kind).toBe('local');
    expect(sandbox.workdir).toBe('/home/user/project');
    const entries = await sandbox.list();
    const paths = entries.map((e) => e.path);
    expect(paths).toEqual([...paths].sort());
    expect(entries.find((e) => e.path === `${W}/src`)).toEqual({
      path: `${W}/src`,
      type: 'directory',
      size: 0,
    });
    const readme = loadSample('python')['README.md'];
    expect(entries.find((e) => e.path === `${W}/README.md`)).toEqual({
      path: `${W}/README.md`,
      type: 'file',
      size: new TextEncoder().encode(readme).length,
    });
    expect(paths.every((p) => p.startsWith(`${W}/`))).toBe(true);
    expect(paths.filter((p) => entries.find((e) => e.path === p)!.type === 'file')).toHaveLength(
      Object.keys(loadSample('python')).length,
    );
  });

  it('honours a custom workdir and emits nothing for the initial mount', async () => {
    const other = await create({ 'a/b.txt': 'x' }, { workdir: '/work/app/' });
    const seen: FileChange[] = [];
    other.onChange((c) => seen.push(c));
    expect(other.workdir).toBe('/work/app');
    expect((await other.list()).map((e) => e.path)).toEqual(['/work/app/a', '/work/app/a/b.txt']);
    expect((await run(other, 'pwd')).stdout).toBe('/work/app\n');
    expect(seen).toEqual([]);
  });

  it('mounts without collating text: a page’s first localeCompare costs 10-40 ms (patches/)', async () => {
    const collate = vi.spyOn(String.prototype, 'localeCompare');
    try {
      (await create(loadSample('python'))).dispose();
      expect(collate).not.toHaveBeenCalled();
    } finally {
      collate.mockRestore();
    }
    // The shell's option list is still in bash's order.
    expect((await run(sandbox, 'echo $SHELLOPTS')).stdout).toBe('braceexpand:hashall:interactive-comments\n');
    expect((await run(sandbox, 'set -o pipefail -o errexit; echo $SHELLOPTS')).stdout).toBe(
      'braceexpand:errexit:hashall:interactive-comments:pipefail\n',
    );
  });

  it('refuses a sample path that would land outside the workdir', async () => {
    await expect(create({ '../evil.txt': 'x' })).rejects.toThrow(/escapes/);
  });
});

describe('exec', () => {
  it('runs in the workdir with HOME=/home/user and a writable /tmp', async () => {
    const result = await run(sandbox, 'pwd; echo $HOME; echo temp > /tmp/t.txt && cat /tmp/t.txt');
    expect(result).toEqual({ stdout: `${W}\n/home/user\ntemp\n`, stderr: '', exitCode: 0, timedOut: false });
  });

  it('starts every command in the workdir (a cd does not carry over)', async () => {
    await run(sandbox, 'cd /tmp');
    expect((await run(sandbox, 'pwd')).stdout).toBe(`${W}\n`);
  });

  it('reports exit codes and stderr', async () => {
    expect(await run(sandbox, 'echo oops >&2; exit 3')).toEqual({
      stdout: '',
      stderr: 'oops\n',
      exitCode: 3,
      timedOut: false,
    });
    const missing = await run(sandbox, 'cat nope.txt');
    expect(missing.exitCode).not.toBe(0);
    expect(missing.stderr).toMatch(/nope\.txt: No such file or directory/);
  });

  it('offers the browser build’s commands only: the Node-only ones say so in Node too', async () => {
    for (const name of ['sqlite3', 'tar', 'yq', 'xan']) {
      const result = await run(sandbox, `${name} --help`);
      expect(result.exitCode, name).toBe(127);
      expect(result.stderr, name).toContain(`${name}: command not available in browser environments`);
    }
    expect(await run(sandbox, 'echo \'{"a":[1,2]}\' | jq -c .a')).toMatchObject({
      stdout: '[1,2]\n',
      exitCode: 0,
    });
  });

  it('warms up the common commands without changing a file', async () => {
    const before = await sandbox.list();
    expect(await sandbox.warmUp()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50)); // change events are batched
    expect(changes).toEqual([]);
    expect(await sandbox.list()).toEqual(before);
    expect(await run(sandbox, 'ls /dev/null')).toMatchObject({ stdout: '/dev/null\n', exitCode: 0 });
  });

  it('warms up the first runs’ commands all at once, each in its own shell, rehearses a first look, then the others', async () => {
    // The first six do not wait for the regular-expression engine (`execNow`); the others do (`exec`).
    const commands: string[] = [];
    let settled = 0;
    let sixAsked = () => {};
    const allSix = new Promise<void>((resolve) => (sixAsked = resolve));
    const answer = async (command: string) => {
      commands.push(command);
      if (commands.length >= 6) sixAsked();
      // Each answers only once all of the first six were asked for: one after another, this would hang.
      await allSix;
      settled++;
      return { stdout: '', stderr: '', exitCode: 0, timedOut: false };
    };
    const exec = vi.spyOn(sandbox, 'exec').mockImplementation(answer);
    const execNow = vi.spyOn(sandbox, 'execNow').mockImplementation(answer);
    expect(await sandbox.warmUp()).toBe(true);
    expect(execNow).toHaveBeenCalledTimes(8);
    expect(exec).toHaveBeenCalledTimes(1);
    expect(commands.slice(0, 6).map((command) => command.split(' ')[0])).toEqual([
      'ls',
      'cat',
      'find',
      'sort',
      'grep',
      'head',
    ]);
    // Then an agent's first look at the project, rehearsed: a sorted listing, a regular expression.
    expect(commands[6]).toMatch(/^find \. -type f .*\| sort/);
    expect(commands[7]).toMatch(/^grep -rn -E /);
    expect(commands).toHaveLength(9); // the others, in one shell, one after another
    expect(commands[8]).toMatch(/^for c in tail wc sed .* dirname; do/);
    expect(settled).toBe(9);
  });

  it.each(SAMPLE_NAMES)(
    'rehearses a first look that finds files in the %s sample (its output, at most 3 lines)',
    async (name) => {
      const other = await create(loadSample(name));
      try {
        for (const command of REHEARSAL) {
          const result = await run(other, command);
          expect(result, command).toMatchObject({ exitCode: 0, stderr: '' });
          const lines = result.stdout.split('\n').filter(Boolean);
          expect(lines.length, command).toBeGreaterThan(0);
          expect(lines.length, command).toBeLessThanOrEqual(3);
        }
      } finally {
        other.dispose();
      }
    },
  );

  it('stops warming up when its signal aborts, as when an agent connects', async () => {
    const controller = new AbortController();
    const warming = sandbox.warmUp(controller.signal);
    controller.abort(); // once it has started
    expect(await warming).toBe(false);
    const aborted = new AbortController();
    aborted.abort();
    expect(await sandbox.warmUp(aborted.signal)).toBe(false);
    expect(await run(sandbox, 'echo still here')).toMatchObject({ stdout: 'still here\n', exitCode: 0 });
  });

  it('treats /dev/null as a null device', async () => {
    const result = await run(
      sandbox,
      'echo hi 2>/dev/null; echo gone >/dev/null; echo x &>/dev/null; cat /dev/null; echo end',
    );
    expect(result.stdout).toBe('hi\nend\n');
    expect(await sandbox.readFile('/dev/null')).toBe('');
    expect((await run(sandbox, 'ls nope 2>/dev/null; echo rc=$?')).stdout).toBe('rc=2\n');
    expect((await run(sandbox, 'echo a | tee /dev/null')).stdout).toBe('a\n');
    expect((await run(sandbox, 'wc -c < /dev/null')).stdout.trim()).toBe('0');
    expect(changes).toEqual([]);
  });

  it('shares files between commands, readFile and writeFile', async () => {
    await run(sandbox, 'mkdir -p notes && echo "from bash" > notes/a.txt');
    expect(await sandbox.readFile(`${W}/notes/a.txt`)).toBe('from bash\n');
    await sandbox.writeFile(`${W}/notes/b.txt`, 'from writeFile');
    expect((await run(sandbox, 'cat notes/b.txt')).stdout).toBe('from writeFile');
    expect(await sandbox.exists(`${W}/notes/b.txt`)).toBe(true);
    expect(await sandbox.exists(`${W}/notes/c.txt`)).toBe(false);
  });

  it('finds the test framework with grep over the sample', async () => {
    const { stdout } = await run(sandbox, 'grep -rn pytest .');
    expect(stdout).toMatch(/^(\.\/)?pyproject\.toml:\d+:\[tool\.pytest\.ini_options\]$/m);
    expect(stdout).toMatch(/^(\.\/)?requirements\.txt:1:pytest/m);
  });

  it('searches the current directory on grep -r without a path, as GNU grep does', async () => {
    expect((await run(sandbox, 'grep -rl pytest-cov')).stdout).toBe('requirements.txt\n');
    expect((await run(sandbox, 'grep -r --include=*.txt -e pytest-cov')).stdout).toBe(
      'requirements.txt:pytest-cov>=4.0\n',
    );
    expect((await run(sandbox, 'echo "a pytest b" | grep -o pytest')).stdout).toBe('pytest\n');
  });

  it('runs long loops and big outputs in full (seq 1 200000)', async () => {
    expect((await run(sandbox, 'seq 1 200000 | wc -l')).stdout.trim()).toBe('200000');
    const { stdout, exitCode } = await run(sandbox, 'seq 1 200000');
    expect(exitCode).toBe(0);
    expect(stdout.length).toBe(1_288_895);
    expect(stdout.endsWith('\n199999\n200000\n')).toBe(true);
  });

  it('stops a tight loop at the timeout and stays usable', async () => {
    const result = await sandbox.exec('while true; do :; done', { timeoutMs: 1000 });
    expect(result.timedOut).toBe(true);
    expect(await run(sandbox, 'echo still here')).toMatchObject({ stdout: 'still here\n', timedOut: false });
  });

  it('stops a sleeping command at the timeout', async () => {
    const result = await sandbox.exec('sleep 10; echo late', { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.stdout).not.toContain('late');
  });

  it("does not mistake the shell's own `timeout` command for a sandbox timeout", async () => {
    const result = await run(sandbox, 'timeout 0.1 sleep 3');
    expect(result).toMatchObject({ exitCode: 124, timedOut: false });
  });

  it('stops on an abort signal with exit code 130, not as a timeout', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await sandbox.exec('sleep 10; echo late > late.txt', {
      timeoutMs: 10_000,
      signal: controller.signal,
    });
    // Ended by the signal: not timed out, and the command after the sleep never ran.
    expect(result).toMatchObject({ exitCode: 130, timedOut: false });
    expect(await sandbox.exists(`${W}/late.txt`)).toBe(false);
  });

  // The page's Stop comes from another thread while this one runs the loop: a timer here, or a
  // message, would only be seen at the deadline, since neither loop gives the thread back.
  it.each([
    ['bash', 'while true; do :; done'],
    ['node', `node -e 'while (true) {}'`],
  ])(
    'ends a runaway %s loop when another thread raises its stop, and answers the next command',
    async (_, command) => {
      await run(sandbox, 'node -e 1'); // QuickJS loaded before the clock starts
      const stop = new StopCell();
      const watched = watchedSignal([stop]);
      raiseFromAnotherThread(stop, 200);
      // The loop never ends by itself, and its deadline is 30 s away: exit 130, not a timeout,
      // is the stop reaching it (how soon: npm run bench, "Stop a runaway").
      const result = await sandbox.exec(command, { timeoutMs: 30_000, signal: watched.signal });
      watched.dispose();
      expect(result).toMatchObject({ exitCode: 130, timedOut: false });
      expect((await run(sandbox, 'echo next')).stdout).toBe('next\n');
    },
  );

  it('does not run a command whose signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await sandbox.exec('echo x > ran.txt', { timeoutMs: 10_000, signal: controller.signal });
    expect(result).toEqual({ stdout: '', stderr: '', exitCode: 130, timedOut: false });
    expect(await sandbox.exists(`${W}/ran.txt`)).toBe(false);
  });

  it('accepts the xargs spellings models use (-I{}, -n1, -L 1)', async () => {
    const replace = await run(sandbox, 'ls src/*.py | xargs -I{} echo file:{}');
    expect(replace.stdout).toBe('file:src/main.py\nfile:src/stats.py\nfile:src/utils.py\n');
    expect((await run(sandbox, 'printf "a b c" | xargs -n1 echo')).stdout).toBe('a\nb\nc\n');
    expect((await run(sandbox, 'ls tests/*.py | xargs -L 1 wc -l')).exitCode).toBe(0);
    expect((await run(sandbox, 'printf "a\\nb\\n" | xargs echo')).stdout).toBe('a b\n');
  });
});

describe('normalizeGrepArgs', () => {
  it('adds . only to a recursive search without a path', () => {
    expect(normalizeGrepArgs(['-rn', 'pytest'])).toEqual(['-rn', 'pytest', '.']);
    expect(normalizeGrepArgs(['-r', '-e', 'x', '--include', '*.py'])).toEqual([
      '-r',
      '-e',
      'x',
      '--include',
      '*.py',
      '.',
    ]);
    expect(normalizeGrepArgs(['-rA', '2', 'x'])).toEqual(['-rA', '2', 'x', '.']);
    expect(normalizeGrepArgs(['-rn', 'pytest', 'src'])).toEqual(['-rn', 'pytest', 'src']);
    expect(normalizeGrepArgs(['-n', 'pytest'])).toEqual(['-n', 'pytest']);
    expect(normalizeGrepArgs(['-R', '--', '-x-'])).toEqual(['-R', '--', '-x-', '.']);
  });
});

describe('normalizeXargsArgs', () => {
  it('splits joined option values and stops at the command', () => {
    expect(normalizeXargsArgs(['-I{}', 'mv', '{}', '-n1'])).toEqual(['-I', '{}', 'mv', '{}', '-n1']);
    expect(normalizeXargsArgs(['-0', '-n1', '-P4', 'echo'])).toEqual(['-0', '-n', '1', '-P', '4', 'echo']);
    expect(normalizeXargsArgs(['-i', 'echo', '{}'])).toEqual(['-I', '{}', 'echo', '{}']);
    expect(normalizeXargsArgs(['-L', '2', '--max-args=3', 'wc'])).toEqual(['-n', '2', '-n', '3', 'wc']);
    expect(normalizeXargsArgs(['-I', 'X', '-r', 'echo', 'X'])).toEqual(['-I', 'X', '-r', 'echo', 'X']);
  });
});

describe('readFile', () => {
  it('rejects a missing path like Python: [Errno 2]', async () => {
    await expect(sandbox.readFile(`${W}/missing.txt`)).rejects.toThrow(
      `[Errno 2] No such file or directory: '${W}/missing.txt'`,
    );
  });

  it('rejects a directory like Python: [Errno 21]', async () => {
    await expect(sandbox.readFile(`${W}/src`)).rejects.toThrow(`[Errno 21] Is a directory: '${W}/src'`);
  });

  it('returns UTF-8 text unchanged', async () => {
    await run(sandbox, "printf 'héllo 🎉\\n' > u.txt");
    expect(await sandbox.readFile(`${W}/u.txt`)).toBe('héllo 🎉\n');
    expect((await run(sandbox, 'cat u.txt')).stdout).toBe('héllo 🎉\n');
  });
});

describe('writeFile', () => {
  it('creates missing parents and reports them, attributed to the agent', async () => {
    await sandbox.writeFile(`${W}/pkg/sub/mod.py`, 'x = 1\n', 'subagent-2');
    expect(changes).toEqual([
      { path: `${W}/pkg`, kind: 'create', agent: 'subagent-2' },
      { path: `${W}/pkg/sub`, kind: 'create', agent: 'subagent-2' },
      { path: `${W}/pkg/sub/mod.py`, kind: 'create', agent: 'subagent-2' },
    ]);
    expect(await sandbox.readFile(`${W}/pkg/sub/mod.py`)).toBe('x = 1\n');
  });

  it('reports an overwrite as modify and defaults the agent to user', async () => {
    await sandbox.writeFile(`${W}/README.md`, 'new');
    expect(changes).toEqual([{ path: `${W}/README.md`, kind: 'modify', agent: 'user' }]);
  });

  it('fails like Python on a directory or under a file', async () => {
    await expect(sandbox.writeFile(`${W}/src`, 'x')).rejects.toThrow(`[Errno 21] Is a directory: '${W}/src'`);
    await expect(sandbox.writeFile(`${W}/README.md/x.txt`, 'x')).rejects.toThrow(
      `[Errno 17] File exists: '${W}/README.md'`,
    );
    await expect(sandbox.writeFile(`${W}/README.md/a/x.txt`, 'x')).rejects.toThrow(
      `[Errno 20] Not a directory: '${W}/README.md/a'`,
    );
    expect(changes).toEqual([]);
  });
});

describe('change feed', () => {
  it('attributes what a command writes to the agent that ran it: create, modify, delete', async () => {
    await run(sandbox, 'echo a > new.txt', 'subagent-1');
    await run(sandbox, 'echo b >> new.txt', 'subagent-1');
    await run(sandbox, 'sed -i s/textstats/wordstats/ README.md', 'parent');
    await run(sandbox, 'rm new.txt', 'subagent-1');
    expect(changes).toEqual([
      { path: `${W}/new.txt`, kind: 'create', agent: 'subagent-1' },
      { path: `${W}/new.txt`, kind: 'modify', agent: 'subagent-1' },
      { path: `${W}/README.md`, kind: 'modify', agent: 'parent' },
      { path: `${W}/new.txt`, kind: 'delete', agent: 'subagent-1' },
    ]);
  });

  it('defaults an exec without an agent to user', async () => {
    await run(sandbox, 'touch t.txt');
    expect(changes).toEqual([{ path: `${W}/t.txt`, kind: 'create', agent: 'user' }]);
  });

  it('reports directories: mkdir -p parents first, rm -r deepest first', async () => {
    await run(sandbox, 'mkdir -p a/b && touch a/b/c.txt', 'parent');
    await run(sandbox, 'rm -r a', 'parent');
    expect(changes.map((c) => `${c.kind} ${c.path.slice(W.length + 1)}`)).toEqual([
      'create a',
      'create a/b',
      'create a/b/c.txt',
      'delete a/b/c.txt',
      'delete a/b',
      'delete a',
    ]);
  });

  it('reports mv as delete + create and cp onto a file as modify', async () => {
    await run(sandbox, 'mv src/stats.py src/counting.py', 'subagent-1');
    await run(sandbox, 'cp src/utils.py src/main.py', 'subagent-1');
    expect(changes).toEqual([
      { path: `${W}/src/stats.py`, kind: 'delete', agent: 'subagent-1' },
      { path: `${W}/src/counting.py`, kind: 'create', agent: 'subagent-1' },
      { path: `${W}/src/main.py`, kind: 'modify', agent: 'subagent-1' },
    ]);
  });

  it('reports a file that one command writes again and again once', async () => {
    await run(sandbox, 'for i in 1 2 3; do echo $i >> log.txt; done', 'parent');
    await run(sandbox, 'for i in 1 2 3; do echo $i >> log.txt; done', 'parent');
    expect(changes).toEqual([
      { path: `${W}/log.txt`, kind: 'create', agent: 'parent' },
      { path: `${W}/log.txt`, kind: 'modify', agent: 'parent' },
    ]);
    expect(await sandbox.readFile(`${W}/log.txt`)).toBe('1\n2\n3\n1\n2\n3\n');
  });

  it('keeps concurrent commands from different agents apart', async () => {
    const script = (tag: string) =>
      `for i in 1 2 3 4 5; do echo ${tag}$i > ${tag}-$i.txt; sleep 0.01; echo more >> README.md; done`;
    await Promise.all([
      run(sandbox, script('p'), 'parent'),
      run(sandbox, script('s'), 'subagent-1'),
      run(sandbox, script('t'), 'subagent-2'),
    ]);
    const owner: Record<string, string> = { p: 'parent', s: 'subagent-1', t: 'subagent-2' };
    const created = changes.filter((c) => c.kind === 'create');
    expect(created).toHaveLength(15);
    for (const change of created) {
      expect(change.agent, change.path).toBe(owner[change.path.slice(W.length + 1, W.length + 2)]);
    }
    // The README is appended to by all three, interleaved: each agent's appends show as its own.
    const readme = changes.filter((c) => c.path === `${W}/README.md`);
    expect(new Set(readme.map((c) => c.agent))).toEqual(new Set(['parent', 'subagent-1', 'subagent-2']));
    expect(readme.every((c) => c.kind === 'modify')).toBe(true);
    expect((await sandbox.readFile(`${W}/README.md`)).match(/^more$/gm)).toHaveLength(15);
  });

  it('stops reporting after unsubscribe and after dispose', async () => {
    const seen: FileChange[] = [];
    const unsubscribe = sandbox.onChange((c) => seen.push(c));
    await run(sandbox, 'touch one.txt');
    unsubscribe();
    await run(sandbox, 'touch two.txt');
    expect(seen.map((c) => c.path)).toEqual([`${W}/one.txt`]);
    sandbox.dispose();
    await expect(run(sandbox, 'true')).rejects.toThrow(/disposed/);
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
