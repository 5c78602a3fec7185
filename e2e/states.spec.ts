/**
 * States that tell the truth: the parent waits for its subagent, a subagent
 * works from its first call and is discarded after, a past step says which step of how many
 * (led by the run's own state), and `Live` is offered during a live run only.
 */
import type { Page } from '@playwright/test';
import {
  expect,
  open,
  parentList,
  PROMPTS,
  runSample,
  status,
  stepSlider,
  subagentRegion,
  test,
} from './fixtures';

const parentRegion = (page: Page) => page.getByRole('region', { name: 'Parent messages' });

test('a replayed run: the parent waits for Subagent 1, which works from its first call, then is discarded', async ({
  page,
}) => {
  await open(page);
  await runSample(page, PROMPTS.framework);
  const steps = Number(await stepSlider(page).getAttribute('max'));
  await stepSlider(page).fill('0');

  // Step on until the subagent has answered its first call (its array holds its call).
  let at = 0;
  while ((await subagentRegion(page, 1).getByRole('listitem').count()) < 2) {
    await page.getByRole('button', { name: 'Next step' }).click();
    expect(++at).toBeLessThan(steps);
  }
  const sub = subagentRegion(page, 1);
  await expect(sub.getByText('working', { exact: true })).toBeVisible();
  await expect(sub).not.toContainText('starting');
  await expect(parentRegion(page).getByText('waiting for Subagent 1', { exact: true })).toBeVisible();
  // A past step of a finished run: never "Running"; the controls say it is a replay.
  await expect(status(page)).toHaveText(`Finished · step ${at} of ${steps}`);
  await expect(page.getByText('Replaying', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Live' })).toHaveCount(0);

  // At the end: discarded, said plainly (not struck through), and the parent no longer waits.
  await page.getByRole('button', { name: 'Latest' }).click();
  await expect(status(page)).toHaveText('Finished');
  await expect(page.getByText('Replaying', { exact: true })).toHaveCount(0);
  const badge = sub.getByText('discarded', { exact: true });
  await expect(badge).toBeVisible();
  expect(await badge.evaluate((el) => getComputedStyle(el).textDecorationLine)).toBe('none');
  await expect(parentRegion(page)).not.toContainText('waiting for');
  await expect(parentList(page)).toHaveCount(4);
});

test('a live run: Live is offered while it goes, a past step of it says Running and which step', async ({
  page,
}) => {
  // At the pace a person can follow, the run is still going while the test looks back.
  await open(page, 'speed=slow');
  await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
  await expect(subagentRegion(page, 1).getByRole('listitem').nth(1)).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Previous step' }).click();
  // The run is still going (its own state leads), and the screen shows one of its past steps.
  await expect(status(page)).toHaveText(/^Running… · step \d+ of \d+$/);
  await expect(page.getByText('Replaying', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Latest' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Live' }).click();
  await expect(status(page)).toHaveText(/^(Running…( \(subagent-\d+ is working\))?|Finished)$/);
  await expect(status(page)).toHaveText('Finished', { timeout: 30_000 });
  // Finished: no Live any more; Latest, already there.
  await expect(page.getByRole('button', { name: 'Live' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Latest' })).toBeDisabled();
});
