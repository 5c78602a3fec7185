/**
 * The python worker's boundary: it checks what the sandbox worker sends it; the sandbox worker
 * checks the result and the progress that come back.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PythonRunRequest } from './pyodide';
import { acceptEngineProgress, checkPythonResult, servedPythonWorker } from './python-protocol';

const request: PythonRunRequest = {
  mode: 'code',
  target: 'print(1)',
  args: [],
  cwd: '/home/user/project',
  env: { HOME: '/home/user' },
  stdin: '',
  roots: ['/home/user/project'],
  entries: new Map([['/home/user/project/a.py', { type: 'file', data: new Uint8Array(1), mtimeMs: 1 }]]),
};
const result = { stdout: '1\n', stderr: '', exitCode: 0, interrupted: false, changes: [] };

afterEach(() => vi.restoreAllMocks());

describe('python worker ← sandbox worker', () => {
  it('refuses a malformed run request, naming the field, and runs nothing', () => {
    const api = { load: vi.fn(async () => {}), run: vi.fn(() => result) };
    const served = servedPythonWorker(api);
    expect(() => served.run({ ...request, mode: 'shell' } as never)).toThrow('run: request: mode');
    expect(() => served.run({ ...request, entries: {} } as never)).toThrow('run: request: entries');
    expect(() =>
      served.run({
        ...request,
        entries: new Map([['/a', { type: 'file', data: 'x', mtimeMs: 1 }]]),
      } as never),
    ).toThrow('run: request: entries');
    expect(() => served.run({ ...request, args: [1] } as never)).toThrow('run: request: args.0');
    expect(api.run).not.toHaveBeenCalled();
    expect(served.run(request)).toEqual(result);
  });

  it('refuses a malformed load', async () => {
    const api = { load: vi.fn(async () => {}), run: vi.fn(() => result) };
    const served = servedPythonWorker(api);
    await expect(served.load('not a url', undefined, () => {})).rejects.toThrow('load: indexURL');
    await expect(served.load('http://x/pyodide/', new Int32Array(1), () => {})).rejects.toThrow(
      'load: interrupt',
    );
    await expect(served.load('http://x/pyodide/', undefined, 'progress' as never)).rejects.toThrow(
      'load: onProgress',
    );
    expect(api.load).not.toHaveBeenCalled();
  });
});

describe('sandbox worker ← python worker', () => {
  it('refuses a malformed result', () => {
    expect(checkPythonResult(result)).toEqual(result);
    expect(() => checkPythonResult({ ...result, changes: [{ kind: 'chmod', path: '/a' }] })).toThrow(
      'python result: changes.0.kind',
    );
    expect(() =>
      checkPythonResult({ ...result, changes: [{ kind: 'write', path: '/a', data: 'text' }] }),
    ).toThrow('python result: changes.0.data');
    expect(() => checkPythonResult({ ...result, interrupted: 'no' })).toThrow('python result: interrupted');
  });

  it('drops malformed progress with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(acceptEngineProgress({ phase: 'loading', loaded: -5 })).toBeUndefined();
    expect(warn.mock.calls[0][0]).toContain('python progress: loaded');
    expect(acceptEngineProgress({ phase: 'ready' })).toEqual({ phase: 'ready' });
  });
});
