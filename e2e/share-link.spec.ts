/**
 * Copy link: a run at a step carried in the link's fragment opens, read-only and at that step, in
 * a browser that never saw it; a damaged link is named in one sentence and opens nothing.
 */
import type { Page } from '@playwright/test';
import {
  arrays,
  expect,
  open,
  parentList,
  PROMPTS,
  runSample,
  status,
  stepSlider,
  subagentRegion,
  test,
  Watch,
} from './fixtures';

/** Runs prompt 1 and steps back to where the subagent is at work; returns that step. */
async function midRun(page: Page): Promise<number> {
  await open(page);
  await runSample(page, PROMPTS.framework);
  const slider = stepSlider(page);
  const steps = Number(await slider.getAttribute('max'));
  await slider.fill('0');
  let at = 0;
  while ((await subagentRegion(page, 1).getByRole('listitem').count()) < 2) {
    await page.getByRole('button', { name: 'Next step' }).click();
    expect(++at).toBeLessThan(steps);
  }
  await expect(subagentRegion(page, 1)).not.toContainText(/discarded/i);
  return at;
}

test('a copied link opens the same run at the same step in a fresh browser, read-only', async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow(); // a run, then a second browser that boots its own sandbox
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const step = await midRun(page);
  const shown = await arrays(page);

  await page.getByRole('button', { name: 'Copy link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share this step' });
  const field = dialog.getByRole('textbox', { name: 'Link to this step' });
  await expect(field).toHaveValue(new RegExp(`^${baseURL}/\\?step=${step}#run=[A-Za-z0-9_-]+$`));
  const link = await field.inputValue();
  await expect(dialog.getByText(/^This link is \d+\.\d KB long\./)).toBeVisible();
  await expect(dialog.getByText('Copied to the clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  // No setting of this page goes into the link (the page was opened with speed=instant).
  expect(link).not.toContain('speed=');

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  const watch = new Watch(other);
  await watch.install();
  await other.goto(link);
  await expect(other.getByRole('note').filter({ hasText: 'Viewing a shared link, read-only.' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(stepSlider(other)).toHaveValue(String(step));
  await expect(subagentRegion(other, 1)).toBeVisible();
  await expect.poll(() => arrays(other)).toEqual(shown);
  // The run as it ended, shown at that step of it.
  await expect(status(other)).toHaveText(/^Finished · step \d+ of \d+$/);
  expect(watch.unexpectedErrors()).toEqual([]);
  expect(watch.externalRequests).toEqual([]);
  await fresh.close();
});

test('a damaged or cut link is named in one sentence and opens nothing', async ({ page }) => {
  await open(page);
  await runSample(page, PROMPTS.framework);
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByRole('textbox', { name: 'Link to this step' }).inputValue();

  for (const broken of [
    link.slice(0, Math.floor(link.length * 0.6)),
    link.replace(/#run=(.{20})/, '#run=$1!'),
  ]) {
    await page.goto('about:blank');
    await page.goto(broken);
    await expect(page.getByRole('alert')).toHaveText(
      'Cannot open the shared link: the run in this link is damaged or cut short (it cannot be unpacked); ask for the link again.',
    );
    await expect(status(page)).toHaveText(/^Idle/);
    await expect(page.getByRole('note').filter({ hasText: 'Viewing' })).toHaveCount(0);
    await expect(parentList(page)).toHaveCount(0);
  }
});
