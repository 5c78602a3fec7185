/**
 * A deploy during a first visit: the page of one build is open, its service worker not yet
 * registered (it waits for a quiet moment after the sandbox is ready), and the host starts
 * serving the next build. The worker the page then registers is the next build's; it must not take
 * over the page (src/service-worker/service-worker.ts, CLAIM): the page loads only its own build's files
 * and offers the next build as "Update available". Its own chunks are gone from the host, so a
 * part loaded on demand (the example) is said to be missing, with the reload offered. And a
 * deploy landing while the first build's worker installs must not leave that worker with the next
 * build's index.html, kept as its own.
 *
 * Served by scripts/serve-static.mjs with the isolation headers (so the page does not reload to
 * become isolated): first dist/ (playwright.config.ts builds it), then a second build made here
 * (e2e/mixed-deploy.config.ts: one line more in the page's entry), or handed over by
 * scripts/test-all.mjs in S04_E2E_SECOND_BUILD.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { serveStatic } from '../scripts/serve-static.mjs';
import { expect, runtimeDetails, status, test } from './fixtures';

const FIRST = 'dist';
let work: string;
let second: string;
let server: Awaited<ReturnType<typeof serveStatic>>;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  work = mkdtempSync(join(tmpdir(), 's04-mixed-deploy-'));
  // scripts/test-all.mjs makes this build beside the type check and lint, with the same command.
  second = process.env.S04_E2E_SECOND_BUILD ?? join(work, 'second');
  if (!process.env.S04_E2E_SECOND_BUILD)
    execFileSync(
      'npx',
      ['vite', 'build', '--config', 'e2e/mixed-deploy.config.ts', '--logLevel', 'error', '--outDir', second],
      { stdio: ['ignore', 'ignore', 'inherit'] }, // errors only
    );
  server = await serveStatic({ dir: FIRST, isolation: true });
});

test.afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The hashed file of a part a build's page loads on demand (the example). */
function exampleChunk(build: string): string {
  const file = readdirSync(join(build, 'assets')).find((name) => /^example-[\w-]+\.js$/.test(name));
  if (!file) throw new Error(`no example chunk in ${build}/assets`);
  return `assets/${file}`;
}

const activeWorker = (page: Page) =>
  page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? 'none');
const controlled = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller !== null);
const build = (page: Page) => page.evaluate(() => document.documentElement.dataset.s04Build ?? 'first');

test('a build deployed before the first visit’s worker installed is offered as an update, never mixed into the page', async ({
  page,
  watch,
}) => {
  test.setTimeout(120_000);
  // The relay's probe (a static host has none) and the first build's chunk, gone with the deploy.
  watch.allow(/Failed to load resource: the server responded with a status of 404/);
  // The next build's file names differ: the first build's example is not on the host any more.
  expect(existsSync(join(second, exampleChunk(FIRST)))).toBe(false);

  await page.goto(`${server.url}?speed=instant`);
  await expect(status(page)).toHaveText(/^Idle/);
  expect(await activeWorker(page)).toBe('none'); // registered only a while after the sandbox is ready
  server.serve(second); // deployed

  // The worker the page registers now is the next build's: it installs, and takes nothing over.
  await expect.poll(() => activeWorker(page), { timeout: 60_000, intervals: [100] }).toBe('activated');
  const notice = page.getByRole('region', { name: 'Update available' });
  // (Its text may already say that a part could not be loaded: the page loads some on its own.)
  await expect(notice).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(/^Saved for offline use/)).toHaveCount(0);
  expect(await controlled(page)).toBe(false);
  expect(await build(page)).toBe('first');
  await expect(status(page)).toHaveText(/^Idle/);

  // A part the first build loads on demand is gone: one sentence, not the browser's error.
  const missing =
    'A part of the playground could not be loaded (a newer version was published since this page opened, or the network is off): reload the page to get it.';
  await page.getByRole('button', { name: 'History' }).click();
  const dialog = page.getByRole('dialog', { name: 'History' });
  await dialog.getByRole('button', { name: 'Open the example' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(missing);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(notice).toContainText(missing);
  expect(await build(page)).toBe('first');

  // Reload: the next build, whole, from its worker; the example opens.
  await notice.getByRole('button', { name: 'Reload' }).click();
  await expect.poll(() => build(page), { timeout: 20_000, intervals: [100] }).toBe('second');
  await expect(status(page)).toHaveText(/^Idle/);
  expect(await controlled(page)).toBe(true);
  await expect(page.getByRole('region', { name: 'Update available' })).toHaveCount(0);
  await page.getByRole('button', { name: 'History' }).click();
  await dialog.getByRole('button', { name: 'Open the example' }).click();
  await expect(page.getByRole('note')).toContainText('the example');
  await expect(status(page)).toHaveText(/^Finished/);
});

test('a deploy landing while the first worker installs: it does not keep the next build’s page as its own', async ({
  page,
  context,
  watch,
}) => {
  test.setTimeout(150_000);
  watch.allow(/Failed to load resource: the server responded with a status of 404/);
  // A host that keeps the files of earlier deploys: only index.html tells the builds apart.
  const union = join(work, 'union');
  cpSync(second, union, { recursive: true });
  cpSync(join(FIRST, 'assets'), join(union, 'assets'), { recursive: true, force: false });
  server.serve(FIRST);
  // The installing worker's fetch of index.html is held until the deploy has landed.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await context.route('**/index.html', async (route) => {
    if (route.request().serviceWorker()) {
      asked = true;
      await held;
    }
    await route.continue();
  });

  await page.goto(`${server.url}?speed=instant`);
  await expect(status(page)).toHaveText(/^Idle/);
  await expect.poll(() => asked, { timeout: 60_000, intervals: [100] }).toBe(true);
  server.serve(union); // deployed
  release();
  await runtimeDetails(page);
  await expect(
    page.getByText(
      'Offline use is off: the service worker could not start (its files could not all be saved). The playground runs from the network.',
    ),
  ).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(/^Saved for offline use/)).toHaveCount(0);
  expect(await activeWorker(page)).toBe('none');
  expect(await build(page)).toBe('first');

  // The next load is the next build, and its own worker keeps it.
  await context.unrouteAll();
  await page.reload();
  await expect.poll(() => build(page), { timeout: 20_000, intervals: [100] }).toBe('second');
  await runtimeDetails(page);
  await expect(page.getByText(/^Saved for offline use/)).toBeVisible({ timeout: 60_000 });
  expect(await controlled(page)).toBe(true);
});
