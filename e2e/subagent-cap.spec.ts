/**
 * At most 8 subagents at once (the default): a model that delegates four tasks at every level,
 * three levels deep (340 subagents in all), never has more than 8 subagent workers alive; the
 * tasks beyond wait their turn, shown as queued in the Workers timeline; Stop ends it all, and no
 * worker starts after it.
 */
import type { Page } from '@playwright/test';
import { expect, openOnEndpoint, status, test } from './fixtures';

/**
 * Counts the subagent workers alive (Playwright's own worker events), and the most at once. The
 * parent and every subagent run one script (assets/agent-<hash>.js); a worker's name tells which.
 */
function countSubagentWorkers(page: Page) {
  const count = { alive: 0, max: 0, created: 0 };
  page.on('worker', (worker) => {
    if (!/\/agent[-.][^/]*$/.test(new URL(worker.url()).pathname)) return;
    let closed = false;
    let counted = false;
    worker.on('close', () => {
      closed = true;
      if (counted) count.alive--;
    });
    worker
      .evaluate(() => self.name)
      .then((name) => {
        if (!name.startsWith('subagent-') || closed) return;
        counted = true;
        count.created++;
        count.alive++;
        count.max = Math.max(count.max, count.alive);
      })
      .catch(() => {}); // closed before it answered: gone, whichever it was
  });
  return count;
}

test('runs at most 8 subagents at once, shows the others queued, and stops at once', async ({
  page,
  watch,
}) => {
  test.setTimeout(90_000);
  const count = countSubagentWorkers(page);
  await openOnEndpoint(page, 'mock-fanout', { query: 'depth=3' });
  await page.getByRole('textbox', { name: 'Prompt' }).fill('Look at every part of the project.');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page)).toHaveText(/^Running/);

  // The timeline shows tasks waiting for their turn.
  const timeline = page.getByRole('region', { name: 'Workers timeline' });
  await expect(timeline.getByText(/\(queued, waiting for its turn\)/).first()).toBeVisible({
    timeout: 30_000,
  });
  // Well into the run: more subagents than 8 have come and gone.
  await expect.poll(() => count.created, { timeout: 60_000, intervals: [100] }).toBeGreaterThan(12);
  expect(count.max).toBeLessThanOrEqual(8);
  expect(count.alive).toBeGreaterThan(0);

  const clicked = Date.now();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status(page)).toHaveText(/^Stopped/);
  test.info().annotations.push({
    type: 'stop',
    description: `status Stopped ${Date.now() - clicked} ms after the click`,
  });
  await expect.poll(() => count.alive).toBe(0);
  expect(await watch.open('subagent-')).toEqual([]);
  // Nor does one start afterwards: the page's next idle moment (when a spare for the next task
  // would be started ahead) comes, and still no subagent worker is alive.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 3000 })));
  expect(await watch.open('subagent-')).toEqual([]);
  expect(count.alive).toBe(0);
  // Nothing waits any more: no row says queued.
  await expect(timeline.getByText(/\(queued, waiting for its turn\)/)).toHaveCount(0);
  expect(count.max).toBeLessThanOrEqual(8);
});
