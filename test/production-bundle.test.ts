/**
 * The shipped app holds nothing for tests (issue 24, point 5): a production build has no
 * `window.__s04` and none of the getters kept for the specs (they are in a test build only,
 * `vite build --mode test`), and no chunk of the Node-only Python host (python-inprocess.ts).
 *
 * The build is made here, into a temporary folder: dist/ may be the e2e specs' test build.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const outDir = mkdtempSync(join(tmpdir(), 's04-production-'));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

let scripts: Array<{ path: string; text: string }> = [];

beforeAll(() => {
  // As `npm run build` does it, in a process of its own: none of the test runner's environment
  // (NODE_ENV=test, VITEST) reaches the build.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST')),
  );
  const built = spawnSync(
    'npx',
    ['vite', 'build', '--logLevel', 'error', '--outDir', outDir, '--emptyOutDir'],
    {
      env,
      encoding: 'utf8',
    },
  );
  if (built.status !== 0) throw new Error(`vite build failed: ${built.stderr}`);
  scripts = files(outDir)
    .filter((path) => path.endsWith('.js'))
    .map((path) => ({ path: path.slice(outDir.length + 1), text: readFileSync(path, 'utf8') }));
}, 600_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the production bundle', () => {
  it('was built, with the app and its workers', () => {
    expect(scripts.some((s) => /^assets\/index-[\w-]+\.js$/.test(s.path))).toBe(true);
    expect(scripts.some((s) => /^assets\/subagent[-.][\w-]*\.js$/.test(s.path))).toBe(true);
  });

  it('holds no test hook', () => {
    // (__s04EarlySandbox is the early sandbox's handoff at boot, not a hook for tests.)
    for (const hook of [/__s04(?!EarlySandbox)/, /spareWorker/, /liveWorkers/, /exposeForTests/]) {
      expect(
        scripts.filter((s) => hook.test(s.text)).map((s) => s.path),
        String(hook),
      ).toEqual([]);
    }
  });

  it('holds no Node-only chunk', () => {
    expect(scripts.map((s) => s.path).filter((p) => /inprocess/i.test(p))).toEqual([]);
    expect(scripts.filter((s) => s.text.includes('InProcessPythonHost')).map((s) => s.path)).toEqual([]);
  });
});
