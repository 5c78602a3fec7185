/**
 * The contract every Sandbox backend keeps: the four base tools give the model the same results
 * on it (docs/protocol.md, "The tools"), with the sample projects loaded.
 *
 *   sandboxContract('local', (files) => local.create(files))            local.contract.test.ts
 *   sandboxContract('WebContainer adapter', (files) => …fake…)          webcontainer.contract.test.ts
 *   sandboxContract('WebContainer', (files) => webcontainer.create(…))  there too, where it can boot
 *
 * Tools are called through the loop's runTool, so a thrown error shows as the `Error: <message>`
 * string the model would get. Paths are built from the backend's own `workdir`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTool } from '../src/core/loop';
import type { AgentId } from '../src/core/messages';
import { baseToolHandlers, DANGEROUS_COMMANDS, type ToolHandler, type ToolOptions } from '../src/core/tools';
import { loadSample, type SampleName } from '../src/sandbox/samples';
import type { FileChange, ProjectFiles, Sandbox } from '../src/sandbox/sandbox';

export type SandboxFactory = (files: ProjectFiles) => Promise<Sandbox>;

/** Waits until the backend has reported every change it will report (a watch-based feed lags). */
async function settle(sandbox: Sandbox): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 20));
  await (sandbox as { settled?: () => Promise<void> }).settled?.();
}

/** Retries an assertion until it holds, or until a loaded machine would long have made it hold. */
async function eventually(check: () => void): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** Registers the contract's tests for one backend. */
export function sandboxContract(name: string, createSandbox: SandboxFactory): void {
  describe(`Sandbox contract: ${name}`, () => {
    let sandbox: Sandbox;
    let handlers: Record<string, ToolHandler>;
    let changes: FileChange[];
    let W: string;
    let ids = 0;

    /** One tool call as the loop makes it: the result string the model sees. */
    function call(name: string, input: unknown, agent: AgentId = 'parent', signal?: AbortSignal) {
      return runTool(handlers, { type: 'tool_use', id: `toolu_${++ids}`, name, input }, agent, signal);
    }

    /**
     * A command's time limit in these tests: long enough for the slowest command here on a loaded
     * machine; the runaway loop's test sets a short one of its own.
     */
    async function setUp(sample: SampleName, options: ToolOptions = { bashTimeoutMs: 20_000 }) {
      sandbox = await createSandbox(loadSample(sample));
      W = sandbox.workdir;
      handlers = baseToolHandlers(sandbox, options);
      changes = [];
      sandbox.onChange((change) => changes.push(change));
    }

    beforeEach(() => setUp('python'));
    afterEach(() => sandbox.dispose());

    describe('paths', () => {
      it.each([
        ['read_file', { path: '../../etc/passwd' }, '../../etc/passwd'],
        ['read_file', { path: '/etc/passwd' }, '/etc/passwd'],
        ['read_file', { path: 'src/../../project-other/x' }, 'src/../../project-other/x'],
        ['write_file', { path: '../outside.txt', content: 'x' }, '../outside.txt'],
        ['edit_file', { path: '../.bashrc', old_text: 'a', new_text: 'b' }, '../.bashrc'],
      ])('%s refuses %j', async (name, input, path) => {
        expect(await call(name, input)).toBe(`Error: Path escapes workspace: ${path}`);
      });

      it('does not write outside the workdir when refusing', async () => {
        await call('write_file', { path: '../outside.txt', content: 'x' });
        expect(await sandbox.exists(`${W.slice(0, W.lastIndexOf('/'))}/outside.txt`)).toBe(false);
        await settle(sandbox);
        expect(changes).toEqual([]);
      });

      it('accepts absolute paths inside the workdir and paths that come back into it', async () => {
        const requirements = 'pytest>=7.0\npytest-cov>=4.0';
        expect(await call('read_file', { path: `${W}/requirements.txt` })).toBe(requirements);
        expect(await call('read_file', { path: 'src/../requirements.txt' })).toBe(requirements);
        expect(await call('read_file', { path: './requirements.txt' })).toBe(requirements);
      });
    });

    describe('bash', () => {
      it.each([
        'rm -rf /',
        'sudo ls',
        'shutdown -h now',
        'reboot',
        'echo hi > /dev/null',
        'ls; rm -rf / --no-preserve-root',
      ])('blocks %j', async (command) => {
        expect(await call('bash', { command })).toBe('Error: Dangerous command blocked');
      });

      it('blocks before running anything, and checks every listed pattern', async () => {
        expect(await call('bash', { command: 'touch ran.txt; sudo true' })).toBe(
          'Error: Dangerous command blocked',
        );
        expect(await sandbox.exists(`${W}/ran.txt`)).toBe(false);
        for (const pattern of DANGEROUS_COMMANDS) {
          expect(await call('bash', { command: `echo ${pattern}` })).toBe('Error: Dangerous command blocked');
        }
      });

      it('lets harmless look-alikes through (2>/dev/null, rm -rf ./build)', async () => {
        expect(await call('bash', { command: 'ls nope 2>/dev/null; echo ok' })).toBe('ok');
        expect(await call('bash', { command: 'mkdir -p build && rm -rf ./build && echo gone' })).toBe('gone');
      });

      it('answers (no output) for a silent command', async () => {
        expect(await call('bash', { command: 'true' })).toBe('(no output)');
        expect(await call('bash', { command: 'echo "   "' })).toBe('(no output)');
      });

      it('returns stdout then stderr, trimmed, whatever the exit code', async () => {
        expect(await call('bash', { command: 'echo err >&2; echo "  out"; exit 1' })).toBe('out\nerr');
        expect(await call('bash', { command: 'cat missing.txt' })).toMatch(
          /^cat: missing\.txt: No such file or directory$/,
        );
      });

      it('runs in the workdir and finds the test framework (grep -rn pytest .)', async () => {
        expect(await call('bash', { command: 'pwd' })).toBe(W);
        const found = await call('bash', { command: 'grep -rn pytest .' });
        expect(found).toMatch(/pyproject\.toml:\d+:\[tool\.pytest\.ini_options\]/);
        expect(found).toMatch(/requirements\.txt:1:pytest>=7\.0/);
        expect(found).toMatch(/conftest\.py:/);
      });

      it('times out a runaway loop with the reference message, then works again', async () => {
        sandbox.dispose();
        await setUp('python', { bashTimeoutMs: 1500 });
        expect(await call('bash', { command: 'while true; do :; done' })).toBe('Error: Timeout (2s)');
        expect(await call('bash', { command: 'echo alive' })).toBe('alive');
      });

      it('cuts a 1 MB output to exactly its first 50,000 characters', async () => {
        let expected = '';
        for (let i = 1; i <= 200_000; i++) expected += `${i}\n`;
        const result = await call('bash', { command: 'seq 1 200000' });
        expect(result).toHaveLength(50_000);
        expect(result).toBe(expected.slice(0, 50_000));
      });

      it('cuts a big file printed with cat the same way', async () => {
        const line = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(2) + '\n';
        const big = line.repeat(Math.ceil(1_000_000 / line.length));
        await sandbox.writeFile(`${W}/big.txt`, big);
        expect(await call('bash', { command: 'cat big.txt' })).toBe(big.slice(0, 50_000));
      });

      it('honours a smaller outputChars option', async () => {
        handlers = baseToolHandlers(sandbox, { outputChars: 10 });
        expect(await call('bash', { command: 'seq 1 100' })).toBe('1\n2\n3\n4\n5\n');
      });
    });

    describe('read_file', () => {
      const readme = () => loadSample('python')['README.md'];

      it('returns the lines of a file, without the trailing newline', async () => {
        expect(await call('read_file', { path: 'README.md' })).toBe(readme().replace(/\n$/, ''));
      });

      it('with limit: the first N lines, then "... (k more)"', async () => {
        const lines = readme().replace(/\n$/, '').split('\n');
        expect(await call('read_file', { path: 'README.md', limit: 3 })).toBe(
          [...lines.slice(0, 3), `... (${lines.length - 3} more)`].join('\n'),
        );
      });

      it('ignores a limit that is not smaller than the line count, or zero', async () => {
        const whole = readme().replace(/\n$/, '');
        const count = whole.split('\n').length;
        expect(await call('read_file', { path: 'README.md', limit: count })).toBe(whole);
        expect(await call('read_file', { path: 'README.md', limit: count + 5 })).toBe(whole);
        expect(await call('read_file', { path: 'README.md', limit: 0 })).toBe(whole);
      });

      it('cuts a big file to 50,000 characters', async () => {
        const big = 'x'.repeat(99) + '\n';
        await sandbox.writeFile(`${W}/big.txt`, big.repeat(10_000));
        const result = await call('read_file', { path: 'big.txt' });
        expect(result).toHaveLength(50_000);
        expect(result).toBe(big.repeat(10_000).slice(0, 50_000));
      });

      it('reports a missing file or a directory as Python does', async () => {
        expect(await call('read_file', { path: 'missing.txt' })).toBe(
          `Error: [Errno 2] No such file or directory: '${W}/missing.txt'`,
        );
        expect(await call('read_file', { path: 'src' })).toBe(`Error: [Errno 21] Is a directory: '${W}/src'`);
      });

      it('reads what bash wrote', async () => {
        await call('bash', { command: 'printf "one\\ntwo\\n" > made.txt' }, 'subagent-1');
        expect(await call('read_file', { path: 'made.txt' })).toBe('one\ntwo');
      });
    });

    describe('write_file', () => {
      it('creates parent directories and counts characters like len() (code points)', async () => {
        const content = 'print("hi 🎉")\n';
        expect(content.length).toBe(15); // UTF-16 units; Python's len() is 14
        expect(await call('write_file', { path: 'pkg/deep/mod.py', content })).toBe('Wrote 14 bytes');
        expect(await sandbox.readFile(`${W}/pkg/deep/mod.py`)).toBe(content);
        expect(await call('bash', { command: 'cat pkg/deep/mod.py' })).toBe('print("hi 🎉")');
      });

      it('overwrites an existing file and accepts empty content', async () => {
        expect(await call('write_file', { path: 'README.md', content: '' })).toBe('Wrote 0 bytes');
        expect(await sandbox.readFile(`${W}/README.md`)).toBe('');
      });

      it('fails on a directory with a Python message', async () => {
        expect(await call('write_file', { path: 'src', content: 'x' })).toBe(
          `Error: [Errno 21] Is a directory: '${W}/src'`,
        );
      });
    });

    describe('edit_file', () => {
      it('replaces only the first occurrence and answers Edited <path>', async () => {
        await sandbox.writeFile(`${W}/t.txt`, 'cat cat cat\n');
        expect(await call('edit_file', { path: 't.txt', old_text: 'cat', new_text: 'dog' })).toBe(
          'Edited t.txt',
        );
        expect(await sandbox.readFile(`${W}/t.txt`)).toBe('dog cat cat\n');
      });

      it('edits a sample file given by absolute path', async () => {
        const path = `${W}/src/utils.py`;
        expect(await call('edit_file', { path, old_text: 'import re', new_text: 'import re  # regex' })).toBe(
          `Edited ${path}`,
        );
        expect(await sandbox.readFile(path)).toMatch(/^import re {2}# regex$/m);
      });

      it('answers Text not found without touching the file', async () => {
        const before = await sandbox.readFile(`${W}/src/main.py`);
        expect(
          await call('edit_file', { path: 'src/main.py', old_text: 'no such text', new_text: 'x' }),
        ).toBe('Error: Text not found in src/main.py');
        expect(await sandbox.readFile(`${W}/src/main.py`)).toBe(before);
        await settle(sandbox);
        expect(changes).toEqual([]);
      });

      it('reports a missing file as Python does', async () => {
        expect(await call('edit_file', { path: 'nope.py', old_text: 'a', new_text: 'b' })).toBe(
          `Error: [Errno 2] No such file or directory: '${W}/nope.py'`,
        );
      });
    });

    describe('attribution', () => {
      it('reports each change with the agent whose tool call made it', async () => {
        await call('bash', { command: 'echo x > from-bash.txt' }, 'subagent-1');
        await call('write_file', { path: 'from-write.txt', content: 'y' }, 'parent');
        await call('edit_file', { path: 'from-bash.txt', old_text: 'x', new_text: 'z' }, 'subagent-2');
        await call('bash', { command: 'rm from-write.txt' }, 'subagent-1');
        await eventually(() =>
          expect(changes).toEqual([
            { path: `${W}/from-bash.txt`, kind: 'create', agent: 'subagent-1' },
            { path: `${W}/from-write.txt`, kind: 'create', agent: 'parent' },
            { path: `${W}/from-bash.txt`, kind: 'modify', agent: 'subagent-2' },
            { path: `${W}/from-write.txt`, kind: 'delete', agent: 'subagent-1' },
          ]),
        );
      });

      it('lets a subagent write what the parent then reads (one shared filesystem)', async () => {
        await call('write_file', { path: 'src/report.py', content: '"""Report."""\n' }, 'subagent-1');
        expect(await call('read_file', { path: 'src/report.py' }, 'parent')).toBe('"""Report."""');
        expect(await call('bash', { command: 'ls src' }, 'parent')).toBe(
          'main.py\nreport.py\nstats.py\nutils.py',
        );
      });

      it('reports nothing for the mounted sample project itself', async () => {
        await settle(sandbox);
        expect(changes).toEqual([]);
      });
    });

    describe('stop', () => {
      it('a bash call stopped by the signal does not report a timeout', async () => {
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 50);
        const result = await call('bash', { command: 'sleep 5' }, 'parent', controller.signal).catch(
          (e: Error) => `threw ${e.name}`,
        );
        expect(result).not.toMatch(/Timeout/);
      });
    });

    describe('typescript sample', () => {
      beforeEach(async () => {
        sandbox.dispose();
        await setUp('typescript');
      });

      it('finds vitest as the test framework', async () => {
        const found = await call('bash', { command: 'grep -rn vitest . | grep -v node_modules' });
        expect(found).toMatch(/package\.json:\d+:.*"test": "vitest run"/);
        expect(found).toMatch(/vitest\.config\.ts/);
      });

      it('lists every .ts file with find', async () => {
        expect(await call('bash', { command: 'find . -name "*.ts" | sort' })).toBe(
          [
            './src/main.ts',
            './src/stats.ts',
            './src/utils.ts',
            './tests/main.test.ts',
            './tests/stats.test.ts',
            './tests/utils.test.ts',
            './vitest.config.ts',
          ].join('\n'),
        );
      });
    });
  });
}
