/**
 * What a file or a link can do to the page, and what it cannot: a Claude Code session whose times
 * cannot be read opens in the order of its lines with a sentence; a run whose numbers are out of
 * any range (a start of 1e300) exports as a file and as OTLP; direction controls in a run's text
 * stay inside it; the notice of ignored URL settings is the same with `#run=` and `embed=1`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { claudeSession, SESSION_ID } from '../scripts/claude-sessions.mjs';
import { parentCallsRecord } from '../scripts/records.mjs';
import { expect, importFile, open, status, test } from './fixtures';

type Rec = { startedAt: number; title: string; events: Array<Record<string, unknown>> };

/** Downloads what `button` exports and returns its name and text. */
async function download(page: Page, button: string): Promise<{ name: string; text: string }> {
  const saved = page.waitForEvent('download');
  await page.getByRole('button', { name: button, exact: true }).click();
  const file = await saved;
  return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') };
}

test('a Claude Code session whose times cannot be read opens in order, with a sentence', async ({ page }) => {
  await open(page);
  const parent = `${SESSION_ID}.jsonl`;
  const dir = mkdtempSync(join(tmpdir(), 's04-untimed-'));
  const paths = Object.entries(claudeSession({ withThird: true }) as Record<string, string>).map(
    ([path, text]) => {
      const file = join(dir, path.slice(path.lastIndexOf('/') + 1));
      writeFileSync(file, text.replace(/"timestamp":"[^"]*"/g, '"timestamp":"yesterday-ish"'));
      return file;
    },
  );
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import run' }).click();
  await (await chooser).setFiles(paths);
  await expect(page.getByRole('note')).toContainText(`Viewing the Claude Code session ${parent}, read-only.`);
  await expect(page.getByRole('alert')).toHaveText(
    `The times in ${parent}, agent-a1b2c3.jsonl, agent-b4c5d6.jsonl, agent-c7d8e9.jsonl cannot be read: ` +
      "the session is shown in the order of its lines, and the timeline's times are made up.",
  );
  for (const n of [1, 2, 3]) {
    await expect(page.getByRole('region', { name: `Subagent ${n} messages` })).toBeVisible();
  }
});

test('a run with a start of 1e300 and counts past any integer exports as a file and as OTLP', async ({
  page,
}) => {
  await open(page);
  const record = parentCallsRecord(2, 100) as Rec;
  record.startedAt = 1e300;
  const end = record.events.find((e) => e.type === 'model_end')!;
  end.usage = { input_tokens: 1e300, output_tokens: 12 };
  await importFile(page, 'huge-numbers.json', JSON.stringify(record));
  await expect(status(page)).toHaveText(/^Finished/);

  const file = await download(page, 'Export run');
  expect(file.name).toMatch(/^s04-run-2100-01-01T00-00-00-000Z\.json$/);
  const exported = JSON.parse(file.text) as Rec;
  expect(exported.startedAt).toBe(Date.UTC(2100, 0, 1));

  const otlp = await download(page, 'Export OTLP');
  expect(otlp.text).not.toMatch(/e\+/);
  const spans: Array<{
    endTimeUnixNano: string;
    attributes: Array<{ key: string; value: { intValue?: string } }>;
  }> = JSON.parse(otlp.text).resourceSpans[0].scopeSpans[0].spans;
  for (const span of spans) expect(BigInt(span.endTimeUnixNano) < 2n ** 64n).toBe(true);
  const input = spans.flatMap((s) => s.attributes).find((a) => a.key === 'gen_ai.usage.input_tokens');
  expect(input?.value.intValue).toBe(String(Number.MAX_SAFE_INTEGER));
});

test("direction controls in a run's text stay inside it", async ({ page }) => {
  await open(page);
  const record = parentCallsRecord(2, 100) as Rec;
  record.title = '\u202Eevil title';
  record.events.push({
    t: 99,
    type: 'status',
    status: { kind: 'failed', reason: '\u202Ereversed reason' },
  });
  await importFile(page, 'bidi.json', JSON.stringify(record));
  // Set into a sentence of ours, the value loses its controls.
  await expect(status(page)).toHaveText('Failed: reversed reason');
  // Shown as content, it keeps them, inside an element that isolates them.
  const title = page.getByRole('note').locator('q');
  await expect(title).toHaveText('\u202Eevil title');
  expect(await title.evaluate((q) => getComputedStyle(q).unicodeBidi)).toBe('isolate');
  const text = page.locator('[data-block="text"]').first();
  if (await text.count()) expect(await text.evaluate((b) => getComputedStyle(b).unicodeBidi)).toBe('isolate');
  const log = page.getByRole('region', { name: 'Log' }).getByRole('listitem').first();
  expect(await log.evaluate((li) => getComputedStyle(li).unicodeBidi)).toBe('isolate');
});

/** A `#run=` fragment for a small run. */
const packed = () =>
  deflateRawSync(Buffer.from(JSON.stringify(parentCallsRecord(2, 100)))).toString('base64url');

test('the notice of ignored URL settings is the same with #run= and with embed=1', async ({ page }) => {
  await page.goto('/?speed=warp&step=1');
  await expect(page.getByRole('alert')).toHaveText('Ignored URL settings: speed=warp');

  await page.goto(`/?step=1&speed=warp#run=${packed()}`);
  await expect(page.getByRole('note')).toContainText('Viewing');
  await expect(page.getByRole('alert')).toHaveText('Ignored URL settings: speed=warp');

  await page.goto(`/?embed=1&speed=warp&step=1#run=${packed()}`);
  await expect(page.getByRole('region', { name: 'Parent messages' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('Ignored URL settings: speed=warp');
});
