/**
 * The WebContainer backend over a fake of WebContainer's API (test/webcontainer-fake.ts, typed with the
 * real client's types): booting and its failures, the mount, file errors, just-bash over wc.fs,
 * programs handed to spawn (output cleaned, killed at the deadline), and the watch-based feed.
 * The tool semantics both backends share are in test/sandbox-contract.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSample } from '../samples';
import type { FileChange } from '../sandbox';
import { create, PROCESS_OUTPUT_CAP, stripAnsi, toFileSystemTree, type WebContainerSandbox } from './index';
import { bootWebContainer, WebContainerUnavailableError } from './boot';
import { FakeWebContainer, hang, type FakeProgram } from '../../../test/webcontainer-fake';

const W = '/home/project';
const page = { page: true, isolated: true };

/** `node`: `-e <code>` prints a coloured 2 for `console.log(1+1)`; scripts by name. */
const node: FakeProgram = async ({ args, write, fs, cwd, env, killed }) => {
  if (args[0] === '-e' && args[1] === 'console.log(1+1)') {
    write('\x1b[33m2\x1b[39m\r\n');
    return 0;
  }
  if (args[0] === '-e' && args[1] === 'process.exit(3)') return 3;
  switch (args[0]) {
    case 'hang.js':
      write('started\r\n');
      return hang({ args, write, fs, cwd, env, killed, command: 'node' });
    case 'write.js':
      await fs.writeFile(`${cwd === '/' ? '' : cwd}/out.txt`, 'made by node\n');
      return 0;
    case 'env.js':
      write(`FOO=${String(env.FOO)} cwd=${cwd}\r\n`);
      return 0;
    case 'flood.js':
      for (let i = 0; i < 30; i++) write('x'.repeat(100_000));
      return 0;
    default:
      write(`\x1b[31mError: Cannot find module '${args[0]}'\x1b[39m\r\n`);
      return 1;
  }
};

const python3: FakeProgram = async ({ args, write }) => {
  write(args[0] === '-c' ? `${args[1].replace(/^print\('(.*)'\)$/, '$1')}\r\n` : 'Python 3.12\r\n');
  return 0;
};

let sandbox: WebContainerSandbox | undefined;
let wc: FakeWebContainer;
let changes: FileChange[];

async function setUp(files = loadSample('python')) {
  wc = new FakeWebContainer({ node, python3 });
  sandbox = await create(files, { webContainer: wc });
  changes = [];
  sandbox.onChange((change) => changes.push(change));
  return sandbox;
}

/** Lets watch events arrive and be turned into changes. */
async function settle() {
  await new Promise((resolve) => setTimeout(resolve, 20));
  await sandbox!.settled();
}

const run = (command: string, agent = 'parent', timeoutMs = 10_000) =>
  sandbox!.exec(command, { timeoutMs, agent });

afterEach(() => {
  sandbox?.dispose();
  sandbox = undefined;
  vi.useRealTimers();
});

describe('boot', () => {
  it('refuses outside a browser page, and on a page that is not cross-origin isolated', async () => {
    await expect(bootWebContainer({ environment: { page: false, isolated: false } })).rejects.toThrow(
      /^WebContainer cannot start here: it runs only on the main thread of a browser page/,
    );
    const error = await bootWebContainer({ environment: { page: true, isolated: false } }).catch((e) => e);
    expect(error).toBeInstanceOf(WebContainerUnavailableError);
    expect(error.message).toMatch(/^WebContainer cannot start here: the page is not cross-origin isolated/);
    expect(error.reason).toMatch(/^cannot start here: /);
  });

  it('does not try the real boot where it cannot work (Node has no page)', async () => {
    await expect(bootWebContainer()).rejects.toThrow(/main thread of a browser page/);
  });

  it('gives up after 15 s by default, with a sentence saying why (boot never settles offline)', async () => {
    vi.useFakeTimers();
    const boot = vi.fn(() => new Promise<never>(() => {}));
    const result = bootWebContainer({ environment: page, boot }).catch((e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(boot).toHaveBeenCalledWith({ coep: 'require-corp', workdirName: 'project' });
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toBe(
      'WebContainer did not start within 15 s: its runtime loads from StackBlitz, which needs internet',
    );
  });

  it('honours a shorter timeout and names it', async () => {
    // The boot never settles: only the 50 ms race can end the wait (the sentence names it).
    await expect(
      bootWebContainer({ environment: page, timeoutMs: 50, boot: () => new Promise(() => {}) }),
    ).rejects.toThrow('WebContainer did not start within 0.05 s: its runtime loads from StackBlitz');
  });

  it('reports a boot that fails, and returns one that succeeds', async () => {
    await expect(
      bootWebContainer({ environment: page, boot: () => Promise.reject(new Error('iframe blocked')) }),
    ).rejects.toThrow('WebContainer did not start: iframe blocked');
    const fake = new FakeWebContainer();
    expect(
      await bootWebContainer({ environment: page, boot: async () => fake, coep: 'credentialless' }),
    ).toBe(fake);
  });

  it('checks the sample before booting anything', async () => {
    const boot = vi.fn(async () => new FakeWebContainer());
    await expect(create({ '../evil.txt': 'x' }, { boot })).rejects.toThrow(/escapes the project/);
    expect(boot).not.toHaveBeenCalled();
  });
});

describe('mount', () => {
  it('turns a sample project into a FileSystemTree', () => {
    expect(toFileSystemTree({ 'README.md': 'r', 'src/a/b.py': 'b', 'src/c.py': 'c' })).toEqual({
      'README.md': { file: { contents: 'r' } },
      src: {
        directory: {
          a: { directory: { 'b.py': { file: { contents: 'b' } } } },
          'c.py': { file: { contents: 'c' } },
        },
      },
    });
  });

  it('mounts the sample at /home/project, listed sorted with types and byte sizes', async () => {
    await setUp();
    expect(sandbox!.kind).toBe('webcontainer');
    expect(sandbox!.workdir).toBe(W);
    const entries = await sandbox!.list();
    const paths = entries.map((e) => e.path);
    expect(paths).toEqual([...paths].sort());
    expect(entries.find((e) => e.path === `${W}/src`)).toEqual({
      path: `${W}/src`,
      type: 'directory',
      size: 0,
    });
    const readme = loadSample('python')['README.md'];
    expect(entries.find((e) => e.path === `${W}/README.md`)?.size).toBe(
      new TextEncoder().encode(readme).length,
    );
    expect(entries.filter((e) => e.type === 'file')).toHaveLength(Object.keys(loadSample('python')).length);
    expect(new TextDecoder().decode(await wc.fs.readFile('/src/main.py'))).toBe(
      loadSample('python')['src/main.py'],
    );
  });

  it('replaces whatever the project held on a second mount (the switch resets the files)', async () => {
    await setUp();
    await run('echo left > leftover.txt');
    sandbox!.dispose();
    sandbox = await create({ 'only.txt': 'x' }, { webContainer: wc });
    expect((await sandbox.list()).map((e) => e.path)).toEqual([`${W}/only.txt`]);
  });

  it('does not descend into node_modules', async () => {
    await setUp({ 'package.json': '{}', 'node_modules/dep/index.js': 'x' });
    expect((await sandbox!.list()).map((e) => e.path)).toEqual([`${W}/node_modules`, `${W}/package.json`]);
  });
});

describe('files', () => {
  it('fails to read a missing file or a folder with the messages the local backend gives', async () => {
    await setUp();
    await expect(sandbox!.readFile(`${W}/nope.txt`)).rejects.toThrow(
      `[Errno 2] No such file or directory: '${W}/nope.txt'`,
    );
    await expect(sandbox!.readFile(`${W}/src`)).rejects.toThrow(`[Errno 21] Is a directory: '${W}/src'`);
  });

  it('creates parent folders on write, and refuses a file in the way', async () => {
    await setUp();
    await sandbox!.writeFile(`${W}/a/b/c.txt`, 'deep', 'subagent-1');
    expect(wc.fs.nodes.get('/a/b')).toEqual({ kind: 'dir' });
    expect(await sandbox!.readFile(`${W}/a/b/c.txt`)).toBe('deep');
    await expect(sandbox!.writeFile(`${W}/README.md/x.txt`, 'x')).rejects.toThrow(
      `[Errno 17] File exists: '${W}/README.md'`,
    );
    await expect(sandbox!.writeFile(`${W}/src`, 'x')).rejects.toThrow(`[Errno 21] Is a directory`);
    expect(await sandbox!.exists(`${W}/a/b/c.txt`)).toBe(true);
    expect(await sandbox!.exists(`${W}/a/b/d.txt`)).toBe(false);
  });
});

describe('exec: just-bash over the WebContainer files', () => {
  it('runs grep and find (which jsh lacks) over wc.fs', async () => {
    await setUp();
    expect((await run('grep -rl pytest . | sort')).stdout).toBe(
      'conftest.py\npyproject.toml\nREADME.md\nrequirements.txt\n',
    );
    expect((await run('find src -name "*.py" | sort')).stdout).toBe(
      'src/main.py\nsrc/stats.py\nsrc/utils.py\n',
    );
    expect(wc.spawned).toEqual([]);
  });

  it('writes through to WebContainer: redirections, sed -i, mkdir -p, mv, rm', async () => {
    await setUp();
    await run('mkdir -p notes && echo "héllo 🎉" > notes/a.txt && sed -i s/héllo/bye/ notes/a.txt');
    expect(new TextDecoder().decode(await wc.fs.readFile('/notes/a.txt'))).toBe('bye 🎉\n');
    await run('mv notes/a.txt notes/b.txt && rm -r src');
    expect([...wc.fs.nodes.keys()].filter((p) => p.startsWith('/notes') || p.startsWith('/src'))).toEqual([
      '/notes',
      '/notes/b.txt',
    ]);
  });

  it('keeps /tmp and /dev/null on the shell side', async () => {
    await setUp();
    expect(
      (await run('echo t > /tmp/t.txt; cat /tmp/t.txt; echo gone > /dev/null; cat /dev/null; echo end'))
        .stdout,
    ).toBe('t\nend\n');
    expect([...wc.fs.nodes.keys()].some((p) => p.includes('tmp') || p.includes('null'))).toBe(false);
  });
});

describe('exec: programs handed to WebContainer', () => {
  it('forwards node -e to spawn and returns its output with ANSI stripped', async () => {
    await setUp();
    expect(await run("node -e 'console.log(1+1)'")).toEqual({
      stdout: '2\n',
      stderr: '',
      exitCode: 0,
      timedOut: false,
    });
    expect(wc.spawned).toEqual([
      { command: 'node', args: ['-e', 'console.log(1+1)'], cwd: '.', env: {}, killed: false },
    ]);
  });

  it('passes exit codes, the current folder and exported variables; pipes into just-bash', async () => {
    await setUp();
    expect((await run("node -e 'process.exit(3)'")).exitCode).toBe(3);
    expect((await run('export FOO=bar; cd src && node env.js')).stdout).toBe('FOO=bar cwd=/src\n');
    expect(wc.spawned.at(-1)?.cwd).toBe('src');
    expect((await run("node -e 'console.log(1+1)' | grep -c 2")).stdout).toBe('1\n');
    expect((await run('python3 -c "print(\'hi\')"')).stdout).toBe('hi\n');
    expect((await run('node missing.js; echo rc=$?')).stdout).toBe(
      "Error: Cannot find module 'missing.js'\nrc=1\n",
    );
  });

  it('kills a program at the deadline and reports a timeout; the sandbox stays usable', async () => {
    await setUp();
    const result = await run('node hang.js', 'parent', 300);
    expect(result.timedOut).toBe(true);
    expect(wc.spawned[0]).toMatchObject({ command: 'node', args: ['hang.js'], killed: true });
    expect(await run("node -e 'console.log(1+1)'")).toMatchObject({ stdout: '2\n', timedOut: false });
  });

  it('kills a program when the run is stopped, without calling it a timeout', async () => {
    await setUp();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await sandbox!.exec('node hang.js', { timeoutMs: 10_000, signal: controller.signal });
    expect(result).toMatchObject({ exitCode: 130, timedOut: false });
    expect(wc.spawned[0].killed).toBe(true);
  });

  it('caps what it keeps of a flood of output', async () => {
    await setUp();
    const { stdout } = await run('node flood.js');
    expect(stdout.length).toBeLessThanOrEqual(PROCESS_OUTPUT_CAP + 100_000);
    expect(stdout.length).toBeGreaterThanOrEqual(PROCESS_OUTPUT_CAP);
  });

  it('strips colours, titles and redrawn progress lines', () => {
    expect(stripAnsi('\x1b[1m\x1b[32mok\x1b[0m\r\n')).toBe('ok\n');
    expect(stripAnsi('\x1b]0;npm install\x07added 1 package\r\n')).toBe('added 1 package\n');
    expect(stripAnsi('10%\r50%\r100%\r\ndone')).toBe('100%\ndone');
    expect(stripAnsi('\x1b[2K\x1b[1Gline')).toBe('line');
  });
});

describe('change feed (wc.fs.watch)', () => {
  it('credits a file written by a spawned program to the agent whose command ran it', async () => {
    await setUp();
    await run('node write.js', 'subagent-1');
    await settle();
    expect(changes).toEqual([{ path: `${W}/out.txt`, kind: 'create', agent: 'subagent-1' }]);
  });

  it('credits a change nobody made through the sandbox to the user', async () => {
    await setUp();
    await new Promise((resolve) => setTimeout(resolve, 1100)); // past the last command's grace
    await wc.fs.writeFile('/by-hand.txt', 'x');
    await settle();
    expect(changes).toEqual([{ path: `${W}/by-hand.txt`, kind: 'create', agent: 'user' }]);
  });

  it('reports a moved folder as its contents gone and come, parents first', async () => {
    await setUp();
    await run('mv tests checks', 'subagent-2');
    await settle();
    const created = changes.filter((c) => c.kind === 'create').map((c) => c.path);
    const deleted = changes.filter((c) => c.kind === 'delete').map((c) => c.path);
    expect(created[0]).toBe(`${W}/checks`);
    expect(created).toContain(`${W}/checks/test_main.py`);
    expect(deleted.at(-1)).toBe(`${W}/tests`);
    expect(deleted).toContain(`${W}/tests/test_main.py`);
    expect(changes.every((c) => c.agent === 'subagent-2')).toBe(true);
  });

  it('reports a file written twice by one command once', async () => {
    await setUp();
    await run('echo a > f.txt; echo b >> f.txt; echo c >> README.md; echo d >> README.md');
    await settle();
    expect(changes).toEqual([
      { path: `${W}/f.txt`, kind: 'create', agent: 'parent' },
      { path: `${W}/README.md`, kind: 'modify', agent: 'parent' },
    ]);
  });

  it('leaves node_modules out', async () => {
    await setUp();
    await wc.fs.mkdir('/node_modules/dep', { recursive: true });
    await wc.fs.writeFile('/node_modules/dep/index.js', 'x');
    await settle();
    expect(changes.filter((c) => c.path.includes('node_modules/'))).toEqual([]);
  });

  it('stops watching when disposed', async () => {
    await setUp();
    expect(wc.watchers).toBe(1);
    sandbox!.dispose();
    expect(wc.watchers).toBe(0);
    await expect(run('true')).rejects.toThrow('disposed');
  });
});
