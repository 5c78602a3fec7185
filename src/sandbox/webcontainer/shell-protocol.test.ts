/**
 * The WebContainer shell's boundary: the worker checks what the page sends it and what the
 * page's host answers; the page checks each call the worker makes on its host, and the outcome.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  checkedHostAnswers,
  checkedShellHost,
  checkShellOutcome,
  servedShellWorker,
  type ShellHost,
} from './shell-protocol';

const request = { command: 'ls', cwd: '/home/user/project', home: '/home/user', timeoutMs: 1000 };
const outcome = { stdout: 'a\n', stderr: '', exitCode: 0 };

function fakeHost() {
  return {
    fs: vi.fn(async () => ({ ok: true as const, value: 'text' })),
    describeFs: vi.fn(async () => ({ methods: ['readFile' as const], paths: ['/'] })),
    spawn: vi.fn(async () => outcome),
    cancel: vi.fn(),
  } satisfies ShellHost;
}

describe('shell worker ← page', () => {
  it('refuses a malformed run or abort, naming the field, and runs nothing', async () => {
    const api = { run: vi.fn(async () => outcome), abort: vi.fn() };
    const served = servedShellWorker(api);
    await expect(served.run(1, { ...request, command: ['ls'] } as never, fakeHost())).rejects.toThrow(
      'run: request: command',
    );
    await expect(served.run(1, { ...request, timeoutMs: 0 }, fakeHost())).rejects.toThrow(
      'run: request: timeoutMs',
    );
    await expect(served.run('1' as never, request, fakeHost())).rejects.toThrow('run: id');
    await expect(served.run(1, request, null as never)).rejects.toThrow('run: host');
    expect(() => served.abort({} as never)).toThrow('abort: id');
    expect(api.run).not.toHaveBeenCalled();
    expect(api.abort).not.toHaveBeenCalled();
    await expect(served.run(1, request, fakeHost())).resolves.toEqual(outcome);
  });
});

describe('page ← shell worker', () => {
  it("refuses a malformed call on the page's host, and the host does nothing", async () => {
    const host = fakeHost();
    const checked = checkedShellHost(host);
    await expect(checked.fs('unlinkEverything' as never, ['/'])).rejects.toThrow('fs: method');
    await expect(checked.fs('readFile', '/etc/passwd' as never)).rejects.toThrow('fs: args');
    await expect(checked.spawn(1, 'rm', ['-rf', '/'], '/', {})).rejects.toThrow('spawn: name');
    await expect(checked.spawn(1, 'node', [1] as never, '/', {})).rejects.toThrow('spawn: args');
    await expect(checked.spawn(1, 'node', [], '/', { PATH: 1 } as never)).rejects.toThrow('spawn: env');
    expect(() => checked.cancel(Number.NaN)).toThrow('cancel: id');
    expect(host.fs).not.toHaveBeenCalled();
    expect(host.spawn).not.toHaveBeenCalled();
    expect(host.cancel).not.toHaveBeenCalled();
    await expect(checked.spawn(1, 'node', ['-v'], '/', { HOME: '/home/user' })).resolves.toEqual(outcome);
  });

  it('refuses a malformed outcome', () => {
    expect(checkShellOutcome(outcome)).toEqual(outcome);
    expect(() => checkShellOutcome({ stdout: 'a', stderr: '', exitCode: null })).toThrow(
      'shell outcome: exitCode',
    );
  });
});

describe("shell worker ← page's host (its answers)", () => {
  it('refuses malformed replies to fs, describeFs and spawn', async () => {
    const host = checkedHostAnswers({
      fs: async () => ({ ok: false, reason: 'ENOENT' }) as never,
      describeFs: async () => ({ methods: ['eval'], paths: [] }) as never,
      spawn: async () => ({ stdout: 1, stderr: '', exitCode: 0 }) as never,
      cancel: () => {},
    });
    await expect(host.fs('readFile', ['/a'])).rejects.toThrow('fs readFile reply: message');
    await expect(host.describeFs()).rejects.toThrow('describeFs reply: methods.0');
    await expect(host.spawn(1, 'node', [], '/', {})).rejects.toThrow('shell outcome: stdout');
  });
});
