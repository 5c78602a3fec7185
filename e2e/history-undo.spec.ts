/**
 * No run is lost to one click: History's `Delete` and "Delete all runs" offer `Undo` (at least
 * 10 s), "Delete all runs" asks first, and Undo gives the runs back exactly, where they were.
 */
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, open, PROMPTS, runSample, status, test } from './fixtures';
import { samplePrompts } from '../src/ui/sample-prompts';

// Each test first makes its runs with the demo model; on a busy machine that alone takes 20 s.
test.describe.configure({ timeout: 60_000 });

async function history(page: Page) {
  await page.getByRole('button', { name: 'History' }).click();
  const dialog = page.getByRole('dialog', { name: 'History' });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function exportRun(page: Page): Promise<unknown> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export run' }).click();
  return JSON.parse(readFileSync((await (await download).path())!, 'utf8'));
}

/** Everything History keeps in IndexedDB: every run's row and every chunk of events. */
function kept(page: Page): Promise<unknown> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const request = indexedDB.open('s04-history');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const tx = db.transaction(['runs', 'chunks']);
          const runs = tx.objectStore('runs').getAll();
          const chunks = tx.objectStore('chunks').getAll();
          tx.oncomplete = () => {
            db.close();
            resolve({ runs: runs.result, chunks: chunks.result });
          };
        };
      }),
  );
}

/** axe-core's findings in the open dialogs, one line per rule (every rule on). */
async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include('dialog[open]').analyze();
  return violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Two finished runs in History: the framework prompt (older) and the summary (newer). */
async function twoRuns(page: Page): Promise<void> {
  await open(page);
  await runSample(page, PROMPTS.framework);
  await page.getByRole('button', { name: 'New conversation' }).click();
  await runSample(page, PROMPTS.summarisePy);
  // Both records are saved whole (a run's last events are saved within a second of its end).
  await expect
    .poll(async () => {
      const { runs } = (await kept(page)) as { runs: Array<{ status: { kind: string } }> };
      return runs.map((run) => run.status.kind);
    })
    .toEqual(['finished', 'finished']);
}

/** Fake time from now on: the Undo's window passes only when the test says so. */
async function stopTime(page: Page): Promise<void> {
  await page.clock.install();
  await pauseTime(page);
}

async function pauseTime(page: Page): Promise<void> {
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
}

test('Delete, then Undo: the run comes back exactly, where it was; its Undo lasts at least 10 s', async ({
  page,
}) => {
  await twoRuns(page);
  let dialog = await history(page);
  const runs = dialog.getByRole('listitem');
  await expect(runs).toHaveCount(2);
  await runs.nth(1).getByRole('button', { name: 'Open' }).click();
  const before = await exportRun(page);
  const keptBefore = await kept(page);

  await stopTime(page);
  dialog = await history(page);
  const listed = await runs.allTextContents();
  await runs.nth(1).getByRole('button', { name: 'Delete' }).click();
  await expect(runs).toHaveCount(1);
  await expect(runs.first()).toContainText(PROMPTS.summarisePy);
  const undo = dialog.getByRole('button', { name: 'Undo' });
  await expect(undo).toBeFocused();
  await expect(dialog).toContainText(`Deleted “${PROMPTS.framework}”.`);
  await expect(dialog.locator('[aria-live="polite"]')).toHaveText(`Deleted “${PROMPTS.framework}”.`);

  await page.clock.runFor(10_000);
  await expect(undo).toBeVisible();
  await undo.click();
  await expect(runs).toHaveCount(2);
  expect(await runs.allTextContents()).toEqual(listed);
  await expect(runs.nth(1).getByRole('button', { name: 'Delete' })).toBeFocused();
  await expect(dialog.locator('[aria-live="polite"]')).toHaveText('Brought back 1 run.');
  await expect(undo).toHaveCount(0);
  expect(await kept(page)).toEqual(keptBefore);

  await runs.nth(1).getByRole('button', { name: 'Open' }).click();
  expect(await exportRun(page)).toEqual(before);
});

test('a deleted run leaves only when its Undo runs out; a reload before then keeps it', async ({ page }) => {
  await twoRuns(page);
  const keptBefore = await kept(page);
  await stopTime(page);
  let dialog = await history(page);
  let runs = dialog.getByRole('listitem');
  await runs.nth(0).getByRole('button', { name: 'Delete' }).click();
  await expect(runs).toHaveCount(1);
  // Closing History and opening it again loses nothing: the Undo is offered again.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.clock.runFor(60_000);
  dialog = await history(page);
  await expect(dialog.getByRole('button', { name: 'Undo' })).toBeVisible();
  expect(await kept(page)).toEqual(keptBefore);

  // A page closed during the window keeps the run.
  await page.clock.resume(); // time flows for the page's start
  await page.reload();
  dialog = await history(page);
  runs = dialog.getByRole('listitem');
  await expect(runs).toHaveCount(2);
  expect(await kept(page)).toEqual(keptBefore);

  // Left alone, the Undo goes after its time and the run with it; the focus stays in History.
  await pauseTime(page);
  await runs.nth(0).getByRole('button', { name: 'Delete' }).click();
  await expect(dialog.getByRole('button', { name: 'Undo' })).toBeFocused();
  await page.clock.runFor(20_000);
  await expect(dialog.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  await expect(dialog.getByRole('heading', { name: '1 kept run' })).toBeFocused();
  await expect.poll(async () => ((await kept(page)) as { runs: unknown[] }).runs.length).toBe(1);
  await page.clock.resume();
  await page.reload();
  runs = (await history(page)).getByRole('listitem');
  await expect(runs).toHaveCount(1);
  await expect(runs.first()).toContainText(PROMPTS.framework);
});

test('Delete all runs asks first, naming how many; Undo brings every run back exactly', async ({ page }) => {
  await twoRuns(page);
  const keptBefore = await kept(page);
  const dialog = await history(page);
  const runs = dialog.getByRole('listitem');
  const listed = await runs.allTextContents();
  const deleteAll = dialog.getByRole('button', { name: 'Delete all runs' });

  // Cancel (the focused answer) keeps every run.
  await deleteAll.click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete all runs?' });
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText('This deletes all 2 runs kept on this device.');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  expect(await axeViolations(page), 'the confirmation').toEqual([]);
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(runs).toHaveCount(2);
  await expect(deleteAll).toBeFocused();

  await stopTime(page);
  await deleteAll.click();
  await confirm.getByRole('button', { name: 'Delete 2 runs' }).click();
  await expect(confirm).toBeHidden();
  await expect(runs).toHaveCount(0);
  await expect(dialog).toContainText('Deleted all 2 runs.');
  const undo = dialog.getByRole('button', { name: 'Undo' });
  await expect(undo).toBeFocused();

  await page.clock.runFor(10_000);
  await expect(undo).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(runs).toHaveCount(2);
  expect(await runs.allTextContents()).toEqual(listed);
  await expect(dialog.locator('[aria-live="polite"]')).toHaveText('Brought back 2 runs.');
  expect(await kept(page)).toEqual(keptBefore);
  await page.clock.runFor(60_000);
  expect(await kept(page)).toEqual(keptBefore);
});

test('in Chinese, the confirmation and the Undo are named in Chinese', async ({ page }) => {
  await page.goto('/?speed=instant&lang=zh');
  await expect(status(page)).toHaveText(/^空闲/);
  await page.getByRole('button', { name: samplePrompts('python', 'zh')[0], exact: true }).click();
  await expect(status(page)).toHaveText(/^已完成/, { timeout: 20_000 });
  await expect.poll(async () => ((await kept(page)) as { runs: unknown[] }).runs.length).toBe(1);

  await page.getByRole('button', { name: '历史记录' }).click();
  const dialog = page.getByRole('dialog', { name: '历史记录' });
  const runs = dialog.getByRole('listitem');
  await runs.first().getByRole('button', { name: '删除' }).click();
  await expect(runs).toHaveCount(0);
  await dialog.getByRole('button', { name: '撤销' }).click();
  await expect(runs).toHaveCount(1);

  await dialog.getByRole('button', { name: '删除所有运行' }).click();
  const confirm = page.getByRole('alertdialog', { name: '删除所有运行？' });
  await expect(confirm).toContainText('这将删除这台设备上保存的全部 1 次运行。');
  await confirm.getByRole('button', { name: '删除 1 次运行' }).click();
  await expect(runs).toHaveCount(0);
  await expect(dialog).toContainText('已删除全部 1 次运行。');
  await expect(dialog.getByRole('button', { name: '撤销' })).toBeFocused();
});
