/**
 * Loading python3 ahead of its first use (the page does it in idle time on the python sample):
 * the load is reported as the first command's would be, and that command then starts at once,
 * with no load note on its stderr.
 */
import { describe, expect, it } from 'vitest';
import type { RuntimeProgress } from '.';
import type { PythonHost } from './python-host';
import { create } from '../local';
import { loadSample } from '../samples';

describe('preloadRuntime', () => {
  it('a load stopped for a run is reported stopped, not failed', async () => {
    // A host that loads until it is stopped, as the browser's does (its worker is terminated).
    const host: PythonHost = {
      loaded: false,
      load: (onProgress, signal) =>
        new Promise((_, reject) => {
          onProgress({ phase: 'loading' });
          signal?.addEventListener('abort', () => reject(new Error('the Python worker was terminated')));
        }),
      run: () => Promise.reject(new Error('not loaded')),
      dispose: () => {},
    };
    const sandbox = await create(loadSample('python'), { python: async () => host });
    const progress: RuntimeProgress[] = [];
    sandbox.onRuntimeProgress((p) => progress.push(p));
    const controller = new AbortController();
    const preload = sandbox.preloadRuntime('python', controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await preload;
    expect(progress.map((p) => p.phase)).toEqual(['loading', 'stopped']);
    sandbox.dispose();
  });

  it('loads Pyodide before any command needs it; the first python3 then prints no load note', async () => {
    const sandbox = await create(loadSample('python'));
    const progress: RuntimeProgress[] = [];
    sandbox.onRuntimeProgress((p) => progress.push(p));
    await sandbox.preloadRuntime('python');
    expect(progress.map((p) => p.phase)).toContain('loading');
    expect(progress.at(-1)).toMatchObject({ runtime: 'python', phase: 'ready' });
    const seen = progress.length;

    const result = await sandbox.exec('python3 -c "print(6 * 7)"', { timeoutMs: 20_000, agent: 'parent' });
    expect(result.stdout).toBe('42\n');
    expect(result.stderr).not.toContain('loading Pyodide');
    expect(progress.length).toBe(seen);
    // Asked again, it has nothing left to do.
    await sandbox.preloadRuntime('python');
    expect(progress.length).toBe(seen);
    sandbox.dispose();
  }, 60_000);
});
