/**
 * The sandbox's boundaries: each request is checked by the side that serves it, each answer by
 * the side that asked, and nothing malformed reaches the sandbox, the agent or the screen.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxRemote, SandboxWorkerApi } from './protocol';
import {
  checkedListeners,
  checkedSandbox,
  sandboxAnswers,
  servedSandbox,
  servedSandboxWorker,
} from './protocol';

const result = { stdout: 'hi\n', stderr: '', exitCode: 0, timedOut: false };

function fakeRemote() {
  return {
    exec: vi.fn(async () => result),
    cancel: vi.fn(),
    readFile: vi.fn(async () => 'text'),
    writeFile: vi.fn(async () => {}),
    exists: vi.fn(async () => true),
    list: vi.fn(async () => [{ path: '/p/a.py', type: 'file' as const, size: 3 }]),
  } satisfies SandboxRemote;
}

function fakeWorker() {
  return {
    ...fakeRemote(),
    boot: vi.fn(async () => ({ workdir: '/p', readyAtEpoch: 1 })),
    connect: vi.fn(),
    disconnect: vi.fn(),
    watch: vi.fn(),
    watchRuntimes: vi.fn(),
    watchCommands: vi.fn(),
    readBytes: vi.fn(async () => ({ size: 1, bytes: new Uint8Array(1) })),
    preloadRuntime: vi.fn(async () => {}),
    cancelPreload: vi.fn(),
  } satisfies SandboxWorkerApi;
}

afterEach(() => vi.restoreAllMocks());

describe('sandbox ← agent worker (served on its port)', () => {
  it('passes well-formed requests through', async () => {
    const sandbox = fakeRemote();
    const served = servedSandbox(sandbox);
    await served.writeFile('/p/a.txt', 'x', 'subagent-1');
    expect(await served.exists('/p/a.txt')).toBe(true);
    served.cancel(3);
    expect(sandbox.writeFile).toHaveBeenCalledWith('/p/a.txt', 'x', 'subagent-1');
    expect(sandbox.cancel).toHaveBeenCalledWith(3);
  });

  it('refuses malformed requests, naming the field, and the sandbox does nothing', async () => {
    const sandbox = fakeRemote();
    const served = servedSandbox(sandbox);
    await expect(served.exec({ id: 1, command: 'rm -rf /', timeoutMs: -1, agent: 'parent' })).rejects.toThrow(
      "exec: 'timeoutMs' must be a positive number",
    );
    expect(() => served.cancel('1' as never)).toThrow('cancel: id');
    await expect(served.readFile(42 as never)).rejects.toThrow('readFile: path');
    await expect(served.writeFile('/p/a.txt', { text: 'x' } as never, 'parent')).rejects.toThrow(
      'writeFile: content',
    );
    await expect(served.writeFile('a.txt', 'x', 'parent')).rejects.toThrow(
      'writeFile: path: an absolute path',
    );
    await expect(served.exists(null as never)).rejects.toThrow('exists: path');
    for (const method of ['exec', 'cancel', 'readFile', 'writeFile', 'exists'] as const) {
      expect(sandbox[method]).not.toHaveBeenCalled();
    }
  });
});

describe('agent worker ← sandbox (its answers)', () => {
  it('refuses a malformed exec result, file text, existence or listing', async () => {
    const bad = {
      exec: async () => ({ stdout: 'x', stderr: '', exitCode: '0', timedOut: false }),
      cancel: async () => {},
      readFile: async () => new Uint8Array(2),
      writeFile: async () => {},
      exists: async () => 'yes',
      list: async () => [{ path: '/p/a', type: 'socket', size: 0 }],
    };
    const sandbox = checkedSandbox(bad);
    await expect(sandbox.exec({ id: 1, command: 'ls', timeoutMs: 1, agent: 'parent' })).rejects.toThrow(
      'exec result: exitCode',
    );
    await expect(sandbox.readFile('/p/a')).rejects.toThrow('readFile result');
    await expect(sandbox.exists('/p/a')).rejects.toThrow('exists result');
    await expect(sandbox.list()).rejects.toThrow('list result: 0.type');
  });

  it('passes well-formed answers', async () => {
    const sandbox = checkedSandbox(fakeRemote());
    expect(await sandbox.exec({ id: 1, command: 'ls', timeoutMs: 1, agent: 'parent' })).toEqual(result);
    expect(await sandbox.exists('/p')).toBe(true);
  });
});

describe('sandbox worker ← page', () => {
  it('refuses malformed calls, naming the field, and the worker does nothing', async () => {
    const worker = fakeWorker();
    const served = servedSandboxWorker(worker);
    await expect(served.boot('ruby' as never)).rejects.toThrow('boot: sample');
    await expect(served.boot('python', 'off' as never)).rejects.toThrow('boot: ahead');
    const { port1 } = new MessageChannel();
    expect(() => served.connect(port1, 1.5)).toThrow('connect: id');
    expect(() => served.connect({} as MessagePort, 1)).toThrow('connect: port');
    expect(() => served.connect(port1, 1, new Int32Array(1))).toThrow('connect: stop');
    expect(() => served.disconnect('1' as never)).toThrow('disconnect: id');
    expect(() => served.watch('listener' as never)).toThrow('watch: listener');
    expect(() => served.watchRuntimes(undefined as never)).toThrow('watchRuntimes: listener');
    expect(() => served.watchCommands(null as never)).toThrow('watchCommands: listener');
    await expect(served.readBytes('/p/a', -1, 10)).rejects.toThrow('readBytes: offset');
    await expect(served.readBytes('/p/a', 0, Number.NaN)).rejects.toThrow('readBytes: length');
    await expect(served.readFile(7 as never)).rejects.toThrow('readFile: path');
    await expect(served.preloadRuntime('ruby' as never)).rejects.toThrow('preloadRuntime: runtime');
    for (const method of [
      'boot',
      'connect',
      'disconnect',
      'watch',
      'watchRuntimes',
      'watchCommands',
      'readBytes',
      'readFile',
      'preloadRuntime',
    ] as const)
      expect(worker[method]).not.toHaveBeenCalled();
    port1.close();
  });

  it('passes well-formed calls', async () => {
    const worker = fakeWorker();
    const served = servedSandboxWorker(worker);
    expect(await served.boot('typescript')).toEqual({ workdir: '/p', readyAtEpoch: 1 });
    await served.boot('python', false);
    expect(worker.boot).toHaveBeenLastCalledWith('python', false);
    const { port1 } = new MessageChannel();
    served.connect(port1, 2, new Int32Array(new SharedArrayBuffer(4)));
    expect(worker.connect).toHaveBeenCalledOnce();
    await served.preloadRuntime('python');
    expect(worker.preloadRuntime).toHaveBeenCalledWith('python');
    port1.close();
  });
});

describe('page ← sandbox worker', () => {
  it('drops a malformed batch of file changes with a warning; the files are not touched', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const changes = vi.fn();
    const listeners = checkedListeners({ changes });
    listeners.changes([{ path: '/p/a.py', kind: 'rename', agent: 'parent' }]);
    listeners.changes({ path: '/p/a.py', kind: 'create', agent: 'parent' });
    expect(changes).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[0][0]).toContain('file changes: 0.kind');
    const good = [{ path: '/p/a.py', kind: 'create', agent: 'subagent-1' }];
    listeners.changes(good);
    expect(changes).toHaveBeenCalledWith(good);
  });

  it('drops malformed runtime progress with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const progress = vi.fn();
    checkedListeners({ progress }).progress({ runtime: 'ruby', phase: 'loading' });
    expect(progress).not.toHaveBeenCalled();
    expect(warn.mock.calls[0][0]).toContain('runtime progress: runtime');
    checkedListeners({ progress }).progress({ runtime: 'python', phase: 'loading', loaded: 10, total: 20 });
    expect(progress).toHaveBeenCalledOnce();
  });

  it('drops a malformed command start with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const commands = vi.fn();
    checkedListeners({ commands }).commands({ agent: 'parent', command: 'ls', atEpoch: 'now' });
    expect(commands).not.toHaveBeenCalled();
    expect(warn.mock.calls[0][0]).toContain('command start: atEpoch');
    const good = { agent: 'subagent-1', command: 'ls', atEpoch: 1 };
    checkedListeners({ commands }).commands(good);
    expect(commands).toHaveBeenCalledWith(good);
  });

  it('refuses malformed answers to boot, list, readFile and readBytes', () => {
    expect(() => sandboxAnswers.boot({ workdir: 5 })).toThrow('boot result: workdir');
    expect(sandboxAnswers.boot({ workdir: '/home/user/project', readyAtEpoch: 2 }).workdir).toBe(
      '/home/user/project',
    );
    expect(() => sandboxAnswers.list([{ path: '/p/a', type: 'file', size: -1 }])).toThrow(
      'list result: 0.size',
    );
    expect(() => sandboxAnswers.readFile(null)).toThrow('readFile result');
    expect(() => sandboxAnswers.readBytes({ size: 3, bytes: [1, 2, 3] })).toThrow('readBytes result: bytes');
    expect(sandboxAnswers.readBytes({ size: 3, bytes: new Uint8Array(3) }).size).toBe(3);
  });
});
