/**
 * The teacher's pace and History's modes: combobox `Demo speed` (Slow, Normal, Instant) sets how
 * fast the demo model streams in the next live run, as the URL's `speed` does, and is kept as a
 * setting; a replay keeps its `Playback speed`. History names each run's mode, and a comparison's
 * runs are one entry holding its modes.
 */
import type { Page } from '@playwright/test';
import { expect, exportRun, open, PROMPTS, type RecordFile, runSample, status, test } from './fixtures';

const pace = (page: Page) => page.getByRole('combobox', { name: 'Demo speed' });

/** The shown record's settings and its events' kinds (the parent's, and the run's status changes), as exported. */
async function recorded(page: Page) {
  const record = JSON.parse(await exportRun(page)) as RecordFile;
  return {
    speed: record.settings.speed,
    context: record.settings.context,
    order: record.events
      .filter((e) => e.agent === 'parent' || e.type === 'status')
      .filter((e) => ['model_start', 'task_start', 'task_end', 'status'].includes(e.type))
      .map((e) => (e.type === 'status' ? `status:${e.status!.kind}` : e.type)),
  };
}

test("Demo speed sets the next run's pace as the URL's speed does, is kept, and leaves Playback speed alone", async ({
  page,
}) => {
  await open(page, 'speed=slow');
  await expect(pace(page)).toHaveValue('slow');
  await expect(pace(page).getByRole('option')).toHaveText(['Slow', 'Normal', 'Instant']);
  const playback = page.getByRole('combobox', { name: 'Playback speed' });
  const playbackBefore = await playback.inputValue();

  // Chosen on screen: the address follows (a reload or a copied link keeps it), and so does the run.
  await pace(page).selectOption({ label: 'Instant' });
  await expect(page).toHaveURL(/[?&]speed=instant(&|$)/);
  await expect(playback).toHaveValue(playbackBefore);
  await runSample(page, PROMPTS.framework);
  const run = await recorded(page);
  expect(run.speed).toBe('instant');
  // A finished run shows no spare worker (none can take a task now), and a call's inspector says the
  // demo model answered, not the model id its request named.
  await expect(page.getByRole('region', { name: 'Workers timeline' })).not.toContainText(/spare/i);
  await page
    .getByRole('region', { name: 'Parent messages' })
    .getByRole('button', { name: 'Model call 1' })
    .click();
  const call = page.getByRole('dialog', { name: 'Model call' });
  await expect(call).toContainText('model: the demo model (offline, scripted)');
  await expect(call).not.toContainText(/model: claude/);
  await page.keyboard.press('Escape');
  expect(run.order).toEqual([
    'status:running',
    'model_start',
    'task_start',
    'task_end',
    'model_start',
    'status:finished',
  ]);

  // Kept as a setting: an address without `speed` starts with it; one with `speed` overrides it.
  await open(page, '');
  await expect(pace(page)).toHaveValue('instant');
  await open(page, 'speed=normal');
  await expect(pace(page)).toHaveValue('normal');
  await open(page, '');
  await expect(pace(page)).toHaveValue('instant');
  await pace(page).selectOption({ label: 'Slow' });
  expect(new URL(page.url()).searchParams.has('speed')).toBe(false);
  await open(page, '');
  await expect(pace(page)).toHaveValue('slow');
});

test("History names each run's mode, and a comparison's runs are one entry with its modes", async ({
  page,
}) => {
  test.slow(); // three runs
  await open(page);
  await page.getByRole('textbox', { name: 'Prompt' }).fill(PROMPTS.framework);
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(
    page
      .getByRole('region', { name: 'Comparison' })
      .getByText(/^Isolation saved \d+% of the parent's context\.$/),
  ).toBeVisible({ timeout: 30_000 });
  await expect(status(page)).toHaveText(/^Finished/);
  // A run of its own (not a follow-up in the comparison's last conversation), forked.
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByRole('radiogroup', { name: 'Context' }).getByRole('radio', { name: 'Fork' }).check();
  await runSample(page, PROMPTS.framework);

  await page.getByRole('button', { name: 'History' }).click();
  const history = page.getByRole('dialog', { name: 'History' });
  const entries = history.getByRole('list').first().getByRole('listitem');
  await expect(entries).toHaveCount(2);
  // Newest first: the forked run, named by its mode.
  await expect(entries.first()).toContainText('Fork');
  await expect(entries.first().getByRole('button', { name: 'Open' })).toHaveCount(1);
  // The comparison: one entry, a group per mode (newest first), each with Open and Delete.
  const compared = entries.nth(1);
  await expect(compared).toContainText('Compare: 2 modes');
  const modes = compared.getByRole('group');
  await expect(modes).toHaveCount(2);
  expect(await modes.evaluateAll((groups) => groups.map((g) => g.getAttribute('aria-label')))).toEqual([
    'Isolated (s04)',
    'No subagent',
  ]);
  for (const mode of ['Isolated (s04)', 'No subagent']) {
    const group = compared.getByRole('group', { name: mode });
    await expect(group.getByRole('button', { name: 'Open' })).toHaveCount(1);
    await expect(group.getByRole('button', { name: 'Delete' })).toHaveCount(1);
  }
  // Open opens that mode's run.
  await compared.getByRole('group', { name: 'No subagent' }).getByRole('button', { name: 'Open' }).click();
  await expect(history).not.toBeVisible();
  await expect.poll(async () => (await recorded(page)).context).toBe('none');
});
