/**
 * On a phone the arrays are below the prompt's band: when a run ends, the page brings its result
 * into view (the parent's last message, and the figures above it that say what the parent kept and
 * what its subagents used); when a comparison ends, its saving.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, open, parentList, PROMPTS, runSample, status, test } from './fixtures';

test.use({ viewport: { width: 390, height: 844 } });

/** Whether the top lines of `locator` are inside the page's viewport. */
async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.y + Math.min(box.height, 30) <= size.height;
}

test("after a run, the parent's last message and the figures of the saving are in view", async ({ page }) => {
  await open(page);
  // The page starts at its top: the prompt, not the arrays.
  expect(await inView(page, page.getByText(/^Parent keeps/))).toBe(false);
  await runSample(page, PROMPTS.framework);
  await expect.poll(() => inView(page, page.getByText(/^Parent keeps/))).toBe(true);
  await expect(page.getByText(/^1 subagent used [\d,]+ tokens, then discarded it$/)).toBeInViewport();
  await expect.poll(() => inView(page, parentList(page).last())).toBe(true);
});

test('after a comparison, its saving is in view', async ({ page }) => {
  await open(page);
  await page.getByRole('textbox', { name: 'Prompt' }).fill(PROMPTS.framework);
  await page.getByRole('button', { name: 'Compare' }).click();
  const saving = page
    .getByRole('region', { name: 'Comparison' })
    .getByText(/^Isolation saved \d+% of the parent's context\.$/);
  await expect(saving).toBeVisible({ timeout: 30_000 });
  await expect(status(page)).toHaveText(/^Finished/);
  await expect.poll(() => inView(page, saving)).toBe(true);
});
