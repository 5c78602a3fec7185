/**
 * What a first visit fetches, and in which order, so that a slow network (1.6 Mbps, 150 ms a round
 * trip) carries only what the first run needs before it: the agents' one script, fetched ahead
 * while the screen is built; the commands' code once the page's own script is in; what can wait
 * (the other languages, the dialogs, the Markdown renderer, the chart library) after them.
 * Durations are the bench's (`npm run bench -- release <ref> 5 slow`); these check the order.
 */
import type { Page, Worker } from '@playwright/test';
import { expect, holdRequests, PAGE_SCRIPT, PROMPTS, runSample, status, test } from './fixtures';

/** The page's resource timing entries: path, start and end (ms after navigation). */
function resources(page: Page) {
  return page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({
      path: new URL(entry.name).pathname,
      initiator: entry.initiatorType,
      start: entry.startTime,
      end: entry.responseEnd,
    })),
  );
}

/** The app's sandbox worker, once it exists. */
async function sandboxWorker(page: Page): Promise<Worker> {
  const find = () => page.workers().find((worker) => /\/assets\/sandbox-[\w-]+\.js$/.test(worker.url()));
  await expect.poll(() => find() !== undefined).toBe(true);
  return find()!;
}

/** The first commands' chunks a worker has loaded (`ls-R5CQLZQM-<hash>.js` is `ls`), with their times. */
const commandsLoaded = (worker: Worker) =>
  worker.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .map((entry) => ({
        file: new URL(entry.name).pathname.split('/').pop()!,
        start: entry.startTime,
        end: entry.responseEnd,
      }))
      .filter(({ file }) => /^(ls|cat|find|sort|grep|head)-[A-Z0-9]{8}-/.test(file))
      .map(({ file, start, end }) => ({ name: file.split('-')[0], start, end })),
  );

test('the parent and its subagents run one script, fetched once ahead, before any agent’s worker starts', async ({
  page,
}) => {
  // Each worker's name, script and creation time, as the page creates them.
  await page.addInitScript(() => {
    const created: Array<{ name: string; url: string; at: number }> = [];
    (window as unknown as { __created: typeof created }).__created = created;
    const Original = window.Worker;
    window.Worker = class extends Original {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        created.push({
          name: options?.name ?? '',
          url: new URL(url, location.href).pathname,
          at: performance.now(),
        });
      }
    };
  });
  await page.goto('/?speed=instant');
  await expect(status(page)).toHaveText(/^Idle/);
  await runSample(page, PROMPTS.framework);
  const created = await page.evaluate(
    () => (window as unknown as { __created: Array<{ name: string; url: string; at: number }> }).__created,
  );
  const agents = created.filter((worker) => worker.name === 'parent' || worker.name.startsWith('subagent-'));
  expect(agents.map((agent) => agent.name)).toContain('parent');
  expect(agents.map((agent) => agent.name)).toContain('subagent-1');
  const urls = new Set(agents.map((agent) => agent.url));
  expect([...urls]).toEqual([expect.stringMatching(/^\/assets\/agent-[\w-]+\.js$/)]);
  // Fetched once, before the first of them was created: by the page's first script as soon as the
  // page's own script was in (not beside it), and taken over by the app (vite-plugins/early-sandbox.ts).
  const loaded = await resources(page);
  const fetched = loaded.filter((entry) => urls.has(entry.path) && entry.initiator === 'fetch');
  expect(fetched).toHaveLength(1);
  expect(fetched[0].start).toBeLessThan(Math.min(...agents.map((agent) => agent.at)));
  const pageScript = loaded.find((entry) => PAGE_SCRIPT.test(entry.path));
  expect(fetched[0].start).toBeGreaterThanOrEqual(pageScript!.end);
  expect(await page.evaluate(() => '__s04EarlyAgentScript' in window)).toBe(true);
});

test('the sandbox loads no command’s code before the page’s own script is in, and the first ones at once after', async ({
  page,
}) => {
  const release = await holdRequests(page, PAGE_SCRIPT);
  await page.goto('/?speed=instant', { waitUntil: 'commit' });
  const sandbox = await sandboxWorker(page);
  // Mounted: ICU's data is loaded right after the mount, where the warm-up used to start too.
  await expect
    .poll(() => sandbox.evaluate(() => performance.getEntriesByName('sandbox:icu-data').length), {
      timeout: 15_000,
    })
    .toBe(1);
  // Given time to go on, it fetches no command's code while the page's script is still coming.
  await page.waitForTimeout(1000);
  expect(await commandsLoaded(sandbox)).toEqual([]);

  release();
  await expect(status(page)).toHaveText(/^Idle/);
  // Then the commands the sample prompts' first runs call, all at once (not one per round trip):
  // each was asked for before any had come.
  await expect
    .poll(async () => (await commandsLoaded(sandbox)).map((c) => c.name).sort(), { timeout: 15_000 })
    .toEqual(['cat', 'find', 'grep', 'head', 'ls', 'sort']);
  const loaded = await commandsLoaded(sandbox);
  expect(Math.max(...loaded.map((c) => c.start))).toBeLessThan(Math.min(...loaded.map((c) => c.end)));
});

test('a first run clicked at once shares the network with nothing for later: the other languages and dialogs come after it', async ({
  page,
}) => {
  await page.addInitScript(() =>
    addEventListener(
      'pointerdown',
      () => ((window as unknown as { clickedAt?: number }).clickedAt ??= performance.now()),
      { capture: true },
    ),
  );
  await page.goto('/?speed=instant', { waitUntil: 'commit' });
  // Clicked as soon as it can be, as the bench does.
  await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
  await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });
  const { ready, clicked, finished } = await page.evaluate(() => ({
    ready: performance.getEntriesByName('sandbox:ready')[0].startTime,
    clicked: (window as unknown as { clickedAt: number }).clickedAt,
    finished: performance.getEntriesByName('run:finished')[0].startTime,
  }));
  const entries = await resources(page);
  const later = /^\/assets\/(zh|ja|SettingsDialog|ShareDialog|ModelCallDialog)-[\w-]+\.js$/;
  // Nothing of it in the first 3 s after the sandbox is ready (Warmup's AHEAD_AFTER_MS), nor
  // during the run, however slow this machine makes the first screen.
  const laterEntries = entries.filter((entry) => later.test(entry.path));
  expect(laterEntries.filter((entry) => entry.start < ready + 3000)).toEqual([]);
  expect(laterEntries.filter((entry) => entry.start >= clicked && entry.start <= finished)).toEqual([]);
  // The Markdown renderer and the chart library are asked for once the agents' script is in.
  const agent = entries.find(
    (entry) => /^\/assets\/agent-[\w-]+\.js$/.test(entry.path) && entry.initiator === 'fetch',
  );
  expect(agent).toBeDefined();
  for (const name of ['markdown-render', 'uPlot.esm']) {
    const entry = entries.find((e) => e.path.startsWith(`/assets/${name}-`));
    expect(entry, name).toBeDefined();
    expect(entry!.start, name).toBeGreaterThanOrEqual(agent!.end);
  }
  // What waited is still fetched once the page is quiet: a language switch then waits for no fetch.
  await expect
    .poll(
      async () => (await resources(page)).filter((entry) => /^\/assets\/(zh|ja)-/.test(entry.path)).length,
      {
        timeout: 15_000,
      },
    )
    .toBe(2);
});
