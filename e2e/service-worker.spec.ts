/**
 * The service worker's first install beside a learner's run: it downloads every file of the build
 * (and Chromium compiles each script it keeps), so it fetches nothing while a run is under way and
 * goes on once the run has ended (src/page/service-worker.svelte.ts, setBusy); nor while the learner
 * moves through a run (a scrub draws a step a frame).
 *
 * And on a host that sends no COOP/COEP headers (GitHub Pages: the same build served by
 * scripts/serve-static.mjs), a first visit is made cross-origin isolated by the worker at once,
 * before the page loads python3 ahead, by one reload made only while nothing of the learner's is
 * on screen.
 */
import type { Page, Request } from '@playwright/test';
import { parentCallsRecord } from '../scripts/records.mjs';
import { serveStatic } from '../scripts/serve-static.mjs';
import {
  expect,
  holdRequests,
  importFile,
  open,
  PROMPTS,
  runtimeDetails,
  status,
  subagentRegion,
  test,
} from './fixtures';

test('the first install fetches no file while a run is under way, and finishes after it', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  // A file only the worker asks for (WebContainer's shell) is held: the install cannot be over
  // before the run starts, however fast this machine is.
  const release = await holdRequests(context, '**/assets/webcontainer-shell-*.js');
  // In the order this test hears of them: each file the worker asks for, and the run's moments.
  const heard: string[] = [];
  context.on('request', (request) => {
    if (request.serviceWorker()) heard.push('file');
  });

  await open(page, 'speed=normal');
  await expect.poll(() => heard.length, { timeout: 30_000, intervals: [50] }).toBeGreaterThan(0); // installing
  await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
  // The page's message reaches the worker within moments, and the files already asked for then
  // finish; no other is asked for until the run is over. From the subagent's start to its return
  // the parent's run is well under way: the first moment leaves time for the message, the second
  // comes before the parent's last answer (and the run's end, which the page knows first).
  await expect(subagentRegion(page, 1)).toBeVisible({ timeout: 30_000 });
  heard.push('subagent started');
  await expect(subagentRegion(page, 1)).toContainText(/discarded/i, { timeout: 30_000 });
  heard.push('subagent returned');
  await expect(status(page)).toHaveText(/^Finished/, { timeout: 30_000 });
  heard.push('finished');
  expect(heard.slice(heard.indexOf('subagent started'), heard.indexOf('subagent returned') + 1)).toEqual([
    'subagent started',
    'subagent returned',
  ]);
  release();
  await runtimeDetails(page);
  await expect(page.getByText(/^Saved for offline use/)).toBeVisible({ timeout: 30_000 });
  expect(heard.slice(heard.indexOf('finished')).filter((e) => e === 'file').length).toBeGreaterThan(0); // it went on after
});

test('the first install waits while the learner moves through a run, and is made once they stop', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  // In the order this test hears of them: each file the worker asks for, and the scrub's end.
  const heard: string[] = [];
  context.on('request', (request) => {
    if (request.serviceWorker()) heard.push('file');
  });
  await open(page);
  await importFile(page, 'calls-40.json', JSON.stringify(parentCallsRecord(40, 200)));
  // The run is read off the page's thread: the scrub starts once it is on screen, at its end.
  await expect(status(page)).toHaveText(/^Finished/);
  const slider = page.getByRole('slider', { name: 'Step' });
  await slider.focus();
  // A learner holding an arrow key, back and forth: each step taken before the next key. Until
  // the page's clock is well past the install's usual moment (5 s after `sandbox:ready`, then an
  // idle moment): the scrub, not a pause, is what the install must wait for.
  const readyAt = await page.evaluate(() => performance.getEntriesByName('sandbox:ready')[0].startTime);
  const pastInstall = () => page.evaluate((readyAt) => performance.now() - readyAt > 10_000, readyAt);
  let at = Number(await slider.inputValue());
  for (let i = 0; !(await pastInstall()); i++) {
    const back = i % 40 < 20;
    await slider.press(back ? 'ArrowLeft' : 'ArrowRight');
    at += back ? -1 : 1;
    await expect(slider).toHaveValue(String(at));
  }
  heard.push('stopped');
  expect(heard).toEqual(['stopped']);
  await runtimeDetails(page);
  await expect(page.getByText(/^Saved for offline use/)).toBeVisible({ timeout: 30_000 });
  expect(heard.slice(heard.indexOf('stopped')).filter((e) => e === 'file').length).toBeGreaterThan(0);
});

test.describe('on a host without COOP/COEP headers', () => {
  let server: Awaited<ReturnType<typeof serveStatic>>;
  test.beforeAll(async () => {
    server = await serveStatic({ dir: 'dist' }); // the build the other tests get from `vite preview`
  });
  test.afterAll(async () => server?.close());

  const isolated = (page: Page) => page.evaluate(() => crossOriginIsolated).catch(() => false);
  /** Each document the page loaded, and each of python3's files asked for, in the order they came. */
  function watchLoads(page: Page): string[] {
    const loads: string[] = [];
    page.context().on('request', (request: Request) => {
      if (!request.url().startsWith(server.url)) return;
      if (request.resourceType() === 'document' && !request.serviceWorker()) loads.push('document');
      else if (new URL(request.url()).pathname.startsWith('/pyodide/')) loads.push('pyodide');
    });
    return loads;
  }

  test('a first visit is isolated by one reload before python3 is loaded ahead, which the isolated page then loads', async ({
    page,
    watch,
  }) => {
    watch.allow(/Failed to load resource: the server responded with a status of 404/); // the relay's probe
    const loads = watchLoads(page);
    await page.goto(`${server.url}?speed=instant`); // the python sample, which loads python3 ahead
    expect(await isolated(page)).toBe(false);
    await expect.poll(() => isolated(page), { timeout: 30_000, intervals: [100] }).toBe(true);
    // The worker registered at once: the host's page loaded nothing of python3 before the reload.
    expect(loads).toEqual(['document', 'document']);
    await expect(status(page)).toHaveText(/^Idle/);
    // python3 is loaded ahead by the isolated page, served through the worker.
    await expect.poll(() => loads.includes('pyodide'), { timeout: 60_000, intervals: [200] }).toBe(true);
    expect(loads.slice(0, 2)).toEqual(['document', 'document']);
  });

  test('with a prompt typed before the worker is ready, the page is not reloaded: the reload is offered', async ({
    page,
    context,
    watch,
  }) => {
    watch.allow(/Failed to load resource: the server responded with a status of 404/);
    const loads = watchLoads(page);
    // The install is held until the learner has typed: the worker cannot be ready before.
    const release = await holdRequests(context, '**/assets/webcontainer-shell-*.js');
    await page.goto(`${server.url}?speed=instant`);
    await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
    await page.getByRole('textbox', { name: 'Prompt' }).fill('My own question');
    release();
    await runtimeDetails(page);
    await expect(page.getByText(/^Reload once to make this page cross-origin isolated/)).toBeVisible({
      timeout: 30_000,
    });
    expect(loads.filter((load) => load === 'document')).toEqual(['document']);
    await expect(page.getByRole('textbox', { name: 'Prompt' })).toHaveValue('My own question');
    expect(await isolated(page)).toBe(false);
  });
});
