/**
 * The built playground on a plain static host, as GitHub Pages serves it: under a sub-path
 * (`BASE_PATH=/s04/`), with no COOP/COEP headers and no relay (scripts/serve-static.mjs). Its
 * service worker (src/service-worker/service-worker.ts) makes the page cross-origin isolated, keeps it
 * for offline use, and offers a new deploy without mixing it into the page in use.
 *
 * One build for the file, made here or handed over by scripts/test-all.mjs in S04_E2E_OFFLINE_BUILD
 * (the other specs use `vite preview` of dist/). The server listens on SW_E2E_PORT, or any free
 * port; each test's browser context starts with no worker.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { serveStatic } from '../scripts/serve-static.mjs';
import { COEP } from '../src/sandbox/isolation';
import { expect, PROMPTS, runEnd, runSample, status, test, type Watch } from './fixtures';

const BASE = '/s04/';
const PROMPTS_OF = {
  python: [PROMPTS.framework, PROMPTS.summarisePy, PROMPTS.module],
  typescript: [PROMPTS.framework, PROMPTS.summariseTs, PROMPTS.module],
};

let work: string;
let build: string;
let server: Awaited<ReturnType<typeof serveStatic>>;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  work = mkdtempSync(join(tmpdir(), 's04-offline-'));
  // scripts/test-all.mjs makes this build beside the type check and lint, with the same command.
  build = process.env.S04_E2E_OFFLINE_BUILD ?? join(work, 'build-1');
  if (!process.env.S04_E2E_OFFLINE_BUILD)
    execFileSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', build, '--emptyOutDir'], {
      env: { ...process.env, BASE_PATH: BASE },
      stdio: ['ignore', 'ignore', 'inherit'], // errors only
    });
  server = await serve();
});

const serve = () => serveStatic({ dir: build, base: BASE, port: Number(process.env.SW_E2E_PORT ?? 0) });

test.afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The relay's probe fails on a static host (404) and offline: expected there. */
function allowHostErrors(watch: Watch): void {
  watch.allow(/Failed to load resource: the server responded with a status of 404/);
  watch.allow(/Failed to load resource: net::ERR_INTERNET_DISCONNECTED/);
}

const isolated = (page: Page) => page.evaluate(() => crossOriginIsolated).catch(() => false);
const sandboxReady = (page: Page) =>
  page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);

/** Visits the app and waits for its worker to isolate the page (one reload) and control it. */
async function firstVisit(page: Page, query = 'speed=instant'): Promise<void> {
  await page.goto(`${server.url}?${query}`);
  await expect.poll(() => isolated(page), { timeout: 30_000, intervals: [100] }).toBe(true);
  await expect(status(page)).toHaveText(/^Idle/);
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** Ends the service worker, as a closed browser does: the next load starts it afresh. */
async function stopServiceWorkers(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach();
}

test('without COOP/COEP headers, the service worker isolates the page once; python3 and WebContainer’s boot get it', async ({
  page,
  watch,
}) => {
  allowHostErrors(watch);
  const documents: Array<{ fromWorker: boolean; coep?: string }> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'document' && response.url().startsWith(server.url))
      documents.push({
        fromWorker: response.fromServiceWorker(),
        coep: response.headers()['cross-origin-embedder-policy'],
      });
  });
  await page.goto(`${server.url}?speed=instant`);
  expect(await isolated(page)).toBe(false);
  await expect.poll(() => isolated(page), { timeout: 30_000, intervals: [100] }).toBe(true);
  // The host's page had no header; the worker's copy of it has the one WebContainer boots with.
  expect(documents).toEqual([
    { fromWorker: false, coep: undefined },
    { fromWorker: true, coep: COEP },
  ]);
  await expect(status(page)).toHaveText(/^Idle/);
  await expect(page.getByRole('banner')).not.toContainText('Not cross-origin isolated');
  await expect
    .poll(() => watch.webContainerRequests.length, { timeout: 10_000, intervals: [100] })
    .toBeGreaterThan(0);
  expect(new URL(watch.webContainerRequests[0]).searchParams.get('coep')).toBe(COEP);

  await runSample(page, PROMPTS.module);
  const parentResults = page
    .getByRole('region', { name: 'Parent messages' })
    .locator('[data-block="tool_result"]');
  await expect(parentResults.filter({ hasText: /\b\d+ passed\b/ }).first()).toBeVisible();
});

test('offline after one visit: the three prompts on both samples; a cached file replaced by other bytes is fetched again', async ({
  page,
  context,
  watch,
}) => {
  test.setTimeout(150_000);
  allowHostErrors(watch);
  await firstVisit(page);
  await runSample(page, PROMPTS.module); // python3 loads Pyodide once; the worker keeps it

  // A cached file that is not what the worker fetched and checked (other bytes put under its key)
  // is not served: the worker fetches it again, checked against its hash, and keeps that.
  const sandboxScript = await page.evaluate(
    () => /"([^"]*\/assets\/sandbox-[\w-]+\.js)"/.exec(document.head.innerHTML)![1],
  );
  const cachedLength = (url: string) =>
    page.evaluate(async (url) => {
      const hit = await caches.match(new URL(url, location.href).href);
      return hit ? (await hit.arrayBuffer()).byteLength : 0;
    }, url);
  const length = await cachedLength(sandboxScript);
  await page.evaluate(async (url) => {
    const key = new URL(url, location.href).href;
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      if (await cache.match(key))
        await cache.put(
          key,
          new Response('throw new Error("damaged")', { headers: { 'Content-Type': 'text/javascript' } }),
        );
    }
  }, sandboxScript);
  expect(await cachedLength(sandboxScript)).toBeLessThan(100);
  await page.reload();
  await sandboxReady(page);
  expect(await cachedLength(sandboxScript)).toBe(length);

  // Offline for real: the server is gone, and the browser says it has no network.
  await server.close();
  await context.setOffline(true);
  await stopServiceWorkers(context, page);
  try {
    for (const sample of ['python', 'typescript'] as const) {
      for (const prompt of PROMPTS_OF[sample]) {
        await page.goto(`${server.url}?speed=instant&sample=${sample}`);
        await sandboxReady(page);
        expect(await isolated(page)).toBe(true);
        const ended = await runEnd(page, 40_000);
        await page.getByRole('button', { name: prompt, exact: true }).click();
        await ended();
        await expect(status(page)).toHaveText(/^Finished/, { timeout: 40_000 });
      }
    }
  } finally {
    await context.setOffline(false);
    server = await serve();
  }
});

test('a new deploy offers "Update available"; the page keeps its build until Reload', async ({
  page,
  watch,
}) => {
  allowHostErrors(watch);
  const next = join(work, 'build-2');
  cpSync(build, next, { recursive: true });
  // The new build changes index.html, so its worker's manifest names a new revision of it.
  const page1 = readFileSync(join(build, 'index.html'), 'utf8');
  const page2 = page1.replace('<title>', '<meta name="s04-build" content="2" />\n    <title>');
  writeFileSync(join(next, 'index.html'), page2);
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  const worker = readFileSync(join(build, 'service-worker.js'), 'utf8');
  expect(worker).toContain(md5(page1));
  writeFileSync(join(next, 'service-worker.js'), worker.replace(md5(page1), md5(page2)));

  await firstVisit(page);
  const notice = page.getByRole('region', { name: 'Update available' });
  await expect(notice).toHaveCount(0);
  server.serve(next); // deployed
  await page.reload(); // the browser looks for a new worker on each load
  await expect(notice).toBeVisible({ timeout: 20_000 });
  // Still the first build: the old worker serves the page it started with.
  await expect(page.locator('meta[name="s04-build"]')).toHaveCount(0);
  await expect(status(page)).toHaveText(/^Idle/);

  await notice.getByRole('button', { name: 'Reload' }).click();
  await expect(page.locator('meta[name="s04-build"]')).toHaveCount(1, { timeout: 20_000 });
  await expect(notice).toHaveCount(0);
  await expect(status(page)).toHaveText(/^Idle/);
  expect(await isolated(page)).toBe(true);
  server.serve(build);
});

test('without service workers and without headers: the app runs from the network and says what is off', async ({
  page,
  watch,
}) => {
  allowHostErrors(watch);
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'serviceWorker', { get: () => undefined });
  });
  let loads = 0;
  page.on('load', () => loads++);
  await page.goto(`${server.url}?speed=instant`);
  const header = page.getByRole('banner');
  await expect(header).toContainText(
    'Offline use is off: this browser has no service workers (or they are turned off, as in some private windows). The playground runs from the network.',
  );
  await expect(header).toContainText(
    'Not cross-origin isolated: the host sends no COOP/COEP headers, and no service worker can add them here. So WebContainer is off, and Stop cannot end a bash or node command stuck in a loop (the sandbox waits for its time limit); everything else works, python3 included.',
  );
  await runSample(page, PROMPTS.framework);
  expect(loads).toBe(1);
  expect(await isolated(page)).toBe(false);
});
