/**
 * What a step of a long record builds in the page. A scrub goes through thousands of steps, each
 * drawn in a frame: the elements a step creates are counted here (never timed; the time is the
 * bench's, `npm run bench -- records`).
 */
import type { Page } from '@playwright/test';
import { textDeltasRecord, toolCallsRecord } from '../scripts/records.mjs';
import { expect, frames, importFile, open, status, stepSlider, test } from './fixtures';

/** Steps the opened record to `step` on the slider `Step` and waits until it is drawn. */
async function stepTo(page: Page, step: number): Promise<void> {
  await stepSlider(page).fill(String(step));
  await expect(stepSlider(page)).toHaveValue(String(step));
  await frames(page, 3);
}

/** How many steps the opened record has: the slider's end. */
const steps = async (page: Page) => Number(await stepSlider(page).getAttribute('max'));

test('a step keeps the Model call buttons of a long run and renumbers them', async ({ page }) => {
  await open(page);
  await importFile(page, 'calls.json', JSON.stringify(toolCallsRecord(300)));
  await expect(status(page)).toHaveText(/^Finished/);
  const parent = page.getByRole('region', { name: 'Parent messages' });
  const buttons = parent.getByRole('button', { name: /^Model call \d+$/ });
  const total = await steps(page);
  // Each call is 6 steps: at 0.8 of the run the parent has made about 240 calls, at 0.6 about 180.
  await stepTo(page, Math.floor(total * 0.8));
  await expect(buttons).toHaveCount(45);
  await buttons.evaluateAll((all) => all.forEach((b) => ((b as HTMLElement & { kept?: true }).kept = true)));
  const later = await buttons.last().getAttribute('aria-label');
  await stepTo(page, Math.floor(total * 0.6));
  await expect(buttons).toHaveCount(45);
  const earlier = await buttons.last().getAttribute('aria-label');
  expect(Number(earlier!.split(' ')[2])).toBeLessThan(Number(later!.split(' ')[2]) - 30);
  // The same 45 elements, their numbers changed: none was made again.
  expect(
    await buttons.evaluateAll((all) => all.filter((b) => (b as HTMLElement & { kept?: true }).kept).length),
  ).toBe(45);
  await expect(buttons.first()).toHaveAccessibleName('Model call 1');
  await expect(buttons.nth(5)).toHaveAccessibleName(`Model call ${Number(earlier!.split(' ')[2]) - 39}`);
});

test('scrubbing two long subagent arrays builds a few elements a step, not whole lists', async ({ page }) => {
  await open(page);
  // Two subagents of 100 calls each (200 messages), their text streamed in 20,000 deltas.
  await importFile(page, 'deltas.json', JSON.stringify(textDeltasRecord(20_000, 100)));
  await expect(status(page)).toHaveText(/^Finished/);
  const total = await steps(page);
  await page.evaluate(() => {
    const counted = window as unknown as { __added: number };
    counted.__added = 0;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof Element) counted.__added += 1 + node.querySelectorAll('*').length;
    }).observe(document.body, { subtree: true, childList: true });
  });
  // 40 steps to places across the record, as the bench scrubs it.
  for (let i = 0; i < 40; i++) await stepTo(page, Math.floor((((i * 7919) % 101) / 100) * total));
  const added = await page.evaluate(() => (window as unknown as { __added: number }).__added);
  // Each step draws what is in view of two arrays (about 200 elements). Building a whole short
  // list of up to 60 messages when a scrub crossed into it, and every Model call button again,
  // made about 390 a step.
  expect(added / 40).toBeLessThan(260);
});
