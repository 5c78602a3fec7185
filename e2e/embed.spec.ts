/**
 * `embed=1`: a shared run inside an iframe of another origin, at 640x360: the arrays at the
 * linked step, the step bar and a link to the whole playground; no settings, no prompt, and no
 * sandbox, worker or service worker started for it.
 */
import type { Page } from '@playwright/test';
import { expect, open, PROMPTS, runSample, subagentRegion, test, slideHost } from './fixtures';

/** The slide holding the embed, on another origin of this machine. */
const slide = slideHost();

/** The parent's messages on screen, as text. */
const parentTexts = (page: Page) =>
  page.getByRole('region', { name: 'Parent messages' }).getByRole('listitem').allTextContents();

test('a shared run plays inside an iframe of another origin at 640x360, with nothing started for it', async ({
  page,
  browser,
}) => {
  test.slow(); // a run, then a second browser
  await open(page);
  await runSample(page, PROMPTS.framework);
  const slider = page.getByRole('slider', { name: 'Step' });
  const step = Math.floor(Number(await slider.getAttribute('max')) / 2);
  await slider.fill(String(step));
  const shown = await parentTexts(page);
  const { host, watch, context: fresh, link } = await slide.embed(browser, page);
  let workers = 0;
  host.on('worker', () => workers++);
  const asked: string[] = [];
  host.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await host.goto(`${slide.origin()}/`);
  const frame = host.frameLocator('iframe');
  const run = frame.getByRole('main', { name: 'A run of the s04 subagent playground, read-only' });
  await expect(run).toBeVisible();
  await expect(frame.getByRole('slider', { name: 'Step' })).toHaveValue(String(step));
  // Under 1000 px wide the arrays take turns (as on a phone): the subagent at work is shown first.
  await expect(subagentRegion(frame as unknown as Page, 1)).toBeVisible();
  const switcher = frame.getByRole('radiogroup', { name: 'Array shown' });
  await switcher.getByText('Parent', { exact: true }).click();
  await expect(switcher.getByRole('radio', { name: 'Parent' })).toBeChecked();
  await expect.poll(() => parentTexts(frame as unknown as Page)).toEqual(shown);

  // Only the run: no settings, no prompt, no History, no import.
  for (const name of ['Settings', 'Run', 'History', 'Import run', 'Copy link']) {
    await expect(frame.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(frame.getByRole('textbox', { name: 'Prompt' })).toHaveCount(0);
  const full = frame.getByRole('link', { name: 'Open in the playground' });
  await expect(full).toHaveAttribute('href', link);
  await expect(full).toHaveAttribute('target', '_blank');

  // It fits the iframe: the link and the step bar are inside its 640x360.
  const box = (await host.locator('iframe').boundingBox())!;
  expect(box.width).toBe(640);
  expect(box.height).toBe(360);
  for (const part of [full, frame.getByRole('slider', { name: 'Step' })]) {
    const inner = (await part.boundingBox())!;
    expect(inner.y + inner.height).toBeLessThanOrEqual(box.y + box.height + 0.5);
    expect(inner.x + inner.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
  }

  // The step bar steps it.
  await frame.getByRole('button', { name: 'Next step' }).click();
  await expect(frame.getByRole('slider', { name: 'Step' })).toHaveValue(String(step + 1));

  // Nothing was started for a recorded run: no worker, no service worker.
  const inside = host.frames().find((f) => f.url().includes('embed=1'))!;
  expect(
    await inside.evaluate(() => (window as unknown as { __workerLog: unknown[] }).__workerLog.length),
  ).toBe(0);
  expect(await inside.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(
    0,
  );
  expect(workers).toBe(0);
  // Nor anything asked of the server but the page and its files (no relay probe, no worker script).
  expect(asked.filter((path) => !/^\/(assets\/[\w.-]+\.(js|css)|favicon\.svg)?$/.test(path))).toEqual([]);
  expect(watch.unexpectedErrors()).toEqual([]);
  expect(watch.externalRequests).toEqual([]);
  await fresh.close();
});

test('an embed that names no run, or a damaged one, says so in one sentence', async ({ page }) => {
  await page.setViewportSize({ width: 640, height: 360 });
  await page.goto('/?embed=1');
  await expect(page.getByRole('alert')).toHaveText(
    'This page shows a run for an iframe, but its address names none: paste a link made by Copy link, with embed=1 added.',
  );
  await page.goto('/?embed=1&step=2#run=AAAA');
  await expect(page.getByRole('alert')).toHaveText(
    'Cannot open the shared link: the run in this link is damaged or cut short (it cannot be unpacked); ask for the link again.',
  );
  await expect(page.getByRole('region', { name: 'Parent messages' }).getByRole('listitem')).toHaveCount(0);
});
