#!/usr/bin/env node
/**
 * This tree against an earlier commit, in one run: fresh pages of both builds, interleaved, so that
 * the machine's speed of the moment weighs on both alike. For each page: `sandbox:ready` (ms after
 * navigation) and the first click on prompt 1 to `run:finished` (`speed=instant`). Prints each
 * build's medians and the ratio this/earlier.
 *
 * Usage: node scripts/ab-cold.mjs <commit> [pages per build = 8]
 * The commit is built in a temporary worktree (its own `npm ci`); both builds are
 * served as a static host does, with the isolation headers, on loopback.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright';
import { chromiumLaunchOptions } from './built-app.mjs';
import { serveStatic } from './serve-static.mjs';
import { median } from './stats.mjs';

const [commit, pagesArg] = process.argv.slice(2);
if (!commit) throw new Error('usage: node scripts/ab-cold.mjs <commit> [pages per build]');
const PAGES = Number(pagesArg ?? 8);
const PROMPT = 'Use a subtask to find what testing framework this project uses';
const root = resolve(import.meta.dirname, '..');

/** Builds the tree at `cwd` into `outDir`, as `npm run build` does. */
function build(cwd, outDir) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  execFileSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', outDir, '--emptyOutDir'], {
    cwd,
    env: { ...env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
}

/** One fresh page: sandbox:ready after navigation, and prompt 1's click to run:finished (ms). */
async function coldPage(browser, url) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  await page.goto(`${url}?speed=instant`);
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0, null, {
    timeout: 60_000,
  });
  const ready = await page.evaluate(() => performance.getEntriesByName('sandbox:ready')[0].startTime);
  await page.evaluate(() =>
    addEventListener('pointerdown', () => (window.__clickedAt = performance.now()), {
      once: true,
      capture: true,
    }),
  );
  await page.getByRole('button', { name: PROMPT, exact: true }).click();
  await page.waitForFunction(() => performance.getEntriesByName('run:finished').length > 0, null, {
    timeout: 60_000,
  });
  const run = await page.evaluate(
    () => performance.getEntriesByName('run:finished')[0].startTime - window.__clickedAt,
  );
  await context.close();
  return { ready, run };
}

const scratch = mkdtempSync(join(tmpdir(), 's04-ab-'));
const oldTree = join(scratch, 'tree');
try {
  execFileSync('git', ['worktree', 'add', '--detach', oldTree, commit], { cwd: root, stdio: 'ignore' });
  // Its own node_modules: the build's plugins find their packages by real path, which a link to
  // this tree's folder would not give.
  execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: oldTree,
    stdio: 'ignore',
  });
  build(oldTree, join(scratch, 'old'));
  build(root, join(scratch, 'new'));
  const servers = {
    old: await serveStatic({ dir: join(scratch, 'old'), isolation: true }),
    new: await serveStatic({ dir: join(scratch, 'new'), isolation: true }),
  };
  const browser = await chromium.launch(await chromiumLaunchOptions(['--no-sandbox', '--disable-gpu']));
  const figures = { old: { ready: [], run: [] }, new: { ready: [], run: [] } };
  for (let i = 0; i < PAGES; i++) {
    // Interleaved, the order alternating: neither build always goes first.
    for (const which of i % 2 ? ['new', 'old'] : ['old', 'new']) {
      const { ready, run } = await coldPage(browser, servers[which].url);
      figures[which].ready.push(ready);
      figures[which].run.push(run);
    }
  }
  await browser.close();
  for (const server of Object.values(servers)) await server.close();
  const row = (name, key) => {
    const o = median(figures.old[key]);
    const n = median(figures.new[key]);
    return `  ${name}: ${commit} ${o.toFixed(0)} ms, this tree ${n.toFixed(0)} ms, ratio ${(n / o).toFixed(2)}`;
  };
  console.log(`Fresh pages, ${PAGES} per build, interleaved (medians):`);
  console.log(row('sandbox:ready after navigation', 'ready'));
  console.log(row('prompt 1, click to run:finished', 'run'));
} finally {
  execFileSync('git', ['worktree', 'remove', '--force', oldTree], { cwd: root, stdio: 'ignore' });
  rmSync(scratch, { recursive: true, force: true });
}
