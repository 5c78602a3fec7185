/**
 * The agents' script is fetched ahead once (src/page/agent-workers.ts, prefetchAgentScript), and
 * no agent's worker starts while that fetch is still under way: started beside it, each worker
 * fetched the script a second time, and on a slow network (1.6 Mbps) the parent's and the spare's
 * took 2 x 39 KB of the link before a first run. The agents' script is held back here, so that the
 * sandbox is ready long before it is in.
 */
import type { Page } from '@playwright/test';
import { expect, holdRequests, PROMPTS, runSample, status, test } from './fixtures';

const AGENT_SCRIPT = /\/assets\/agent-[\w-]+\.js$/;

/** Records each worker's name and creation time (ms after navigation), as the page creates them. */
async function recordWorkers(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const created: Array<{ name: string; at: number }> = [];
    (window as unknown as { __created: typeof created }).__created = created;
    const Original = window.Worker;
    window.Worker = class extends Original {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        created.push({ name: options?.name ?? '', at: performance.now() });
      }
    };
  });
}

/** The agents' workers created so far, with their times. */
const agents = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __created: Array<{ name: string; at: number }> }).__created.filter(
      (worker) => worker.name === 'parent' || worker.name.startsWith('subagent-'),
    ),
  );

/** When the page's fetch ahead of the agents' script ended (ms after navigation). */
const fetchedAt = (page: Page) =>
  page.evaluate(() => {
    const entry = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find(
      (e) => /\/assets\/agent-[\w-]+\.js$/.test(e.name) && e.initiatorType === 'fetch',
    );
    return entry?.responseEnd;
  });

test('the agents’ workers started ahead wait for their script’s fetch ahead to end', async ({ page }) => {
  await recordWorkers(page);
  const release = await holdRequests(page.context(), AGENT_SCRIPT);
  await page.goto('/?speed=instant');
  await expect(status(page)).toHaveText(/^Idle/); // the sandbox is ready
  expect(await agents(page)).toEqual([]);
  release();
  await expect
    .poll(async () => (await agents(page)).map((worker) => worker.name))
    .toEqual(['parent', 'subagent-1']);
  const end = await fetchedAt(page);
  expect(end).toBeDefined();
  for (const worker of await agents(page)) expect(worker.at, worker.name).toBeGreaterThanOrEqual(end!);
  await runSample(page, PROMPTS.framework);
});

test('a run clicked before the agents’ script is in starts its parent once the fetch ahead ends', async ({
  page,
}) => {
  await recordWorkers(page);
  const release = await holdRequests(page.context(), AGENT_SCRIPT);
  await page.goto('/?speed=instant');
  await expect(status(page)).toHaveText(/^Idle/);
  await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
  await expect(status(page)).not.toHaveText(/^Idle/);
  expect(await agents(page)).toEqual([]);
  release();
  await expect(status(page)).toHaveText(/^Finished/, { timeout: 30_000 });
  const end = await fetchedAt(page);
  const parent = (await agents(page)).find((worker) => worker.name === 'parent');
  expect(parent).toBeDefined();
  expect(parent!.at).toBeGreaterThanOrEqual(end!);
});
