/**
 * Big runs are opened off the page's thread, within the run file's limits, and can be cancelled:
 * a record of 24 MB opens and shows; a run of more events than a run may have is refused with its
 * sentence and the tab lives on; a big record, or a Claude Code session, being read is cancelled
 * with `Cancel opening`, with its sentence, and the run on screen before stays. How long any of it takes is the
 * bench's (`npm run bench -- opening`), not asserted here.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bigSession, SESSION_ID } from '../scripts/claude-sessions.mjs';
import { parentCallsRecord } from '../scripts/records.mjs';
import type { Page } from '@playwright/test';
import { expect, open, status, test } from './fixtures';

/** Picks files in `Import run`: given as paths, or as one file's name and text. */
async function importFiles(page: Page, files: string[] | { name: string; text: string }): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import run' }).click();
  await (
    await chooser
  ).setFiles(
    Array.isArray(files)
      ? files
      : { name: files.name, mimeType: 'application/json', buffer: Buffer.from(files.text) },
  );
}

test('a record of 24 MB opens and shows, every call of it', async ({ page }) => {
  test.slow(); // 24 MB read, checked and drawn on a shared machine
  await open(page);
  const record = parentCallsRecord(2000, 10_000) as { events: unknown[] };
  const text = JSON.stringify(record);
  expect(text.length).toBeGreaterThan(24 * 1024 * 1024);
  await importFiles(page, { name: 'big-run.json', text });
  await expect(page.getByRole('note')).toContainText('Viewing the file big-run.json, read-only.', {
    timeout: 60_000,
  });
  await expect(status(page)).toHaveText(/^Finished/);
  // The last call's answer is the parent's last message: the whole run arrived.
  const parent = page.getByRole('region', { name: 'Parent messages' });
  await expect(parent).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a big record being opened can be cancelled: its sentence, and the run on screen before stays', async ({
  page,
}) => {
  test.slow(); // 24 MB handed to the page
  await open(page);
  await importFiles(page, { name: 'small-run.json', text: JSON.stringify(parentCallsRecord(3, 100)) });
  await expect(page.getByRole('note')).toContainText('Viewing the file small-run.json, read-only.');
  await importFiles(page, { name: 'big-run.json', text: JSON.stringify(parentCallsRecord(2000, 10_000)) });
  const reading = page.getByRole('group', { name: 'Opening big-run.json…' });
  await reading.getByRole('button', { name: 'Cancel opening' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Cannot open big-run.json: opening it was cancelled; open it again to see it.',
  );
  await expect(reading).toHaveCount(0);
  await expect(page.getByRole('note')).toContainText('Viewing the file small-run.json, read-only.');
  await expect(status(page)).toHaveText(/^Finished/);
});

test('a run of more events than a run may have is refused with its sentence, and the tab lives on', async ({
  page,
}) => {
  await open(page);
  const record = parentCallsRecord(1, 10) as { events: Array<Record<string, unknown>> };
  const log = { type: 'log', agent: 'parent', line: '', t: 0 };
  const events = [...record.events, ...Array.from({ length: 400_001 - record.events.length }, () => log)];
  await importFiles(page, { name: 'many-events.json', text: JSON.stringify({ ...record, events }) });
  await expect(page.getByRole('alert')).toHaveText(
    'Cannot open many-events.json: it has 400001 events; a run may have at most 400000 (export a shorter run).',
    { timeout: 30_000 },
  );
  await expect(page.getByRole('note')).toHaveCount(0);
  await expect(status(page)).toHaveText(/^Idle/);
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
});

test('a session being read can be cancelled: its sentence, and the run on screen before stays', async ({
  page,
}) => {
  test.slow(); // 60 MB of session written, then read until cancelled
  await open(page);
  await importFiles(page, { name: 'small-run.json', text: JSON.stringify(parentCallsRecord(3, 100)) });
  await expect(page.getByRole('note')).toContainText('Viewing the file small-run.json, read-only.');

  const dir = mkdtempSync(join(tmpdir(), 's04-cancel-session-'));
  const paths = Object.entries(bigSession(60) as Record<string, string>).map(([path, text]) => {
    const file = join(dir, path.slice(path.lastIndexOf('/') + 1));
    writeFileSync(file, text);
    return file;
  });
  await importFiles(page, paths);
  const reading = page.getByRole('group', { name: 'Reading the session…' });
  await reading.getByRole('button', { name: 'Cancel opening' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    `Cannot open ${SESSION_ID}.jsonl: opening it was cancelled; open it again to see it.`,
  );
  await expect(reading).toHaveCount(0);
  await expect(page.getByRole('note')).toContainText('Viewing the file small-run.json, read-only.');
  await expect(status(page)).toHaveText(/^Finished/);
});
