/**
 * `embed=1`: a shared run inside an iframe of another origin, at 640x360: the arrays at the
 * linked step, the step bar and a link to the whole playground; no settings, no prompt, and no
 * sandbox, agent or service worker started for it (only the worker that reads the link, ended once
 * it has).
 */
import type { Page } from '@playwright/test';
import { expect, open, PROMPTS, runSample, subagentRegion, test, slideHost } from './fixtures';

/** The slide holding the embed, on another origin of this machine. */
const slide = slideHost();

/** Whether any of `items` has its top lines inside `frame` (a box on the host page). */
async function oneInView(
  items: import('@playwright/test').Locator,
  frame: { x: number; y: number; width: number; height: number },
): Promise<boolean> {
  for (const box of await items.evaluateAll((elements) =>
    elements.map((e) => e.getBoundingClientRect().toJSON() as DOMRect),
  )) {
    // Inside the iframe's own viewport (these boxes are in its coordinates).
    if (box.height > 0 && box.top >= 0 && box.top + Math.min(box.height, 30) <= frame.height) return true;
  }
  return false;
}

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

  // Made for a slide: the step bar is one line, and a message of the array shown is in view.
  const bar = (await frame.getByRole('group', { name: 'Step through the run' }).boundingBox())!;
  expect(bar.height).toBeLessThanOrEqual(48);
  const parentItems = frame.getByRole('region', { name: 'Parent messages' }).getByRole('listitem');
  await expect.poll(() => oneInView(parentItems, box)).toBe(true);

  // The step bar steps it.
  await frame.getByRole('button', { name: 'Next step' }).click();
  await expect(frame.getByRole('slider', { name: 'Step' })).toHaveValue(String(step + 1));

  // Present: the caption and the message it tells about, both inside the frame.
  await frame.getByRole('button', { name: 'Present' }).click();
  const caption = frame.getByRole('region', { name: 'Caption' });
  await expect(caption).toBeVisible();
  await expect(caption.getByRole('button', { name: 'Back' })).toBeVisible();
  for (let k = 0; k < 3; k++) {
    const inner = (await caption.boundingBox())!;
    expect(inner.y + inner.height).toBeLessThanOrEqual(box.y + box.height);
    await expect
      .poll(() => oneInView(frame.locator('[role="listitem"][aria-current="true"]'), box))
      .toBe(true);
    const said = await caption.getByRole('paragraph').textContent();
    await caption.getByRole('button', { name: 'Continue' }).click();
    await expect(caption.getByRole('paragraph')).not.toHaveText(said!);
  }
  await frame.getByRole('button', { name: 'Present' }).click();

  // Nothing was started for a recorded run but the worker that read its link, ended once it was
  // read: no sandbox, no agent, no service worker.
  const inside = host.frames().find((f) => f.url().includes('embed=1'))!;
  expect(
    await inside.evaluate(() =>
      (window as unknown as { __workerLog: Array<{ name: string; terminated: boolean }> }).__workerLog.map(
        ({ name, terminated }) => ({ name, terminated }),
      ),
    ),
  ).toEqual([{ name: 'opening', terminated: true }]);
  expect(await inside.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(
    0,
  );
  expect(workers).toBe(1); // the one that read the link
  // Nor anything asked of the server but the page and its files (no relay probe, no sandbox's script).
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
