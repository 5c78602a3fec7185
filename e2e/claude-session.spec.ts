/**
 * A Claude Code session opens like a run: a parent and two subagents whose transcripts are there,
 * a third whose file is missing (a column that says so, and one sentence), picked as several files
 * in the file chooser or dropped as a folder (the real drop handler, walking directory entries).
 * The files are read in a worker of their own; nothing the session names is fetched.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  claudeSession,
  INTERLEAVED_ID,
  interleavedSession,
  SESSION_ID,
} from '../scripts/claude-sessions.mjs';
import { expect, open, parentList, subagentRegion, test, type Watch } from './fixtures';

const files = claudeSession();
const PARENT = `${SESSION_ID}.jsonl`;

/** What every way of opening the session shows. */
async function expectSession(page: Page, watch: Watch): Promise<void> {
  await expect(page.getByRole('note')).toContainText(`Viewing the Claude Code session ${PARENT}, read-only.`);
  await expect(page.getByRole('note')).toContainText('Its parent ran with claude-sonnet-4-5.');
  await expect(page.getByRole('note')).toContainText(/a saving of \d+%/);
  // The parent's array: prompt, the reply of three Agent/Task calls, their results, the MCP call
  // and its result, the final reply.
  await expect(parentList(page)).toHaveCount(6);
  await expect(parentList(page).nth(1).locator('[data-block="tool_use"]')).toHaveCount(3);
  for (const n of [1, 2]) {
    await expect(subagentRegion(page, n).getByRole('listitem')).toHaveCount(6);
    await expect(subagentRegion(page, n)).toContainText('discarded');
  }
  await expect(subagentRegion(page, 1)).toContainText('task: Read module one');
  await expect(subagentRegion(page, 2)).toContainText('task: Read module two');
  // The third's transcript is missing: its column says so and holds only its task.
  const missing = subagentRegion(page, 3);
  await expect(missing).toContainText('transcript missing');
  await expect(missing).toContainText('Its transcript was not among the files opened');
  await expect(missing.getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('alert')).toHaveText(
    'subagent-3 (Read module three) has no transcript among the files opened: its column shows only its task.',
  );
  // Real usage, as the API counted it.
  await expect(page.getByRole('region', { name: 'Parent messages' })).toContainText(
    '3 calls sent 28,409 tokens in all and received 430 (API: 9 uncached · 18,500 cache read · 9,900 cache written)',
  );
  // One row per agent in the workers timeline, from the records' times.
  const timeline = page.getByRole('region', { name: 'Workers timeline' });
  for (const id of ['Parent', 'Subagent 1', 'Subagent 2', 'Subagent 3'])
    await expect(timeline).toContainText(id);
  // An unknown block (the MCP result's image) is shown folded.
  await expect(parentList(page).nth(4)).toContainText('image/png');
  // Read in a worker of its own, which is gone once the session is shown.
  expect(await watch.names()).toContain('session');
  expect(await watch.open('session')).toEqual([]);
}

/** Requests for what the session names (a remote image, an MCP tool's page): there must be none. */
function named(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).port === '9') asked.push(request.url());
  });
  return asked;
}

test('a session picked as several files: the parent, two subagents and a missing one', async ({
  page,
  watch,
}) => {
  const asked = named(page);
  await open(page);
  const dir = mkdtempSync(join(tmpdir(), 's04-session-'));
  const paths = Object.entries(files).map(([path, text]) => {
    const file = join(dir, path.slice(path.lastIndexOf('/') + 1));
    writeFileSync(file, text);
    return file;
  });
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import run' }).click();
  await (await chooser).setFiles(paths);
  await expectSession(page, watch);

  // Exported for other tools: OpenTelemetry traces with the subagents under their calls.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export OTLP' }).click();
  const saved = await (await download).path();
  const traces = JSON.parse(readFileSync(saved, 'utf8'));
  const spans: Array<{ name: string }> = traces.resourceSpans[0].scopeSpans[0].spans;
  expect(spans.filter((s) => s.name.startsWith('invoke_agent')).map((s) => s.name)).toEqual([
    'invoke_agent parent',
    'invoke_agent subagent-1',
    'invoke_agent subagent-2',
    'invoke_agent subagent-3',
  ]);
  expect(asked).toEqual([]);
});

test('a session dropped as a folder: its directory entries are walked', async ({ page, watch }) => {
  const asked = named(page);
  await open(page);
  // A real DataTransfer built in the page, dropped on it; its item gives the folder's entry as a
  // browser would for a dropped folder (Chromium gives none for a DataTransfer a script built).
  const dropped = await page.evaluate(
    async ({ files, folder }) => {
      type Node = { name: string; text?: string; children?: Node[] };
      const root: Node = { name: folder, children: [] };
      for (const [path, text] of Object.entries(files)) {
        let dir = root;
        const parts = path.split('/');
        for (const part of parts.slice(0, -1)) {
          let next = dir.children!.find((c) => c.name === part);
          if (!next) dir.children!.push((next = { name: part, children: [] }));
          dir = next;
        }
        dir.children!.push({ name: parts.at(-1)!, text });
      }
      const entry = (node: Node, path: string): unknown =>
        node.children
          ? {
              name: node.name,
              fullPath: path,
              isFile: false,
              isDirectory: true,
              createReader: () => {
                let read = false;
                return {
                  readEntries: (ok: (entries: unknown[]) => void) =>
                    setTimeout(() => {
                      ok(read ? [] : node.children!.map((c) => entry(c, `${path}/${c.name}`)));
                      read = true;
                    }),
                };
              },
            }
          : {
              name: node.name,
              fullPath: path,
              isFile: true,
              isDirectory: false,
              file: (ok: (file: File) => void) => setTimeout(() => ok(new File([node.text!], node.name))),
            };
      const transfer = new DataTransfer();
      transfer.items.add(new File([''], folder));
      const real = DataTransferItem.prototype.webkitGetAsEntry;
      let asked = 0;
      DataTransferItem.prototype.webkitGetAsEntry = function () {
        asked++;
        return entry(root, `/${folder}`) as FileSystemEntry;
      };
      try {
        window.dispatchEvent(
          new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }),
        );
      } finally {
        DataTransferItem.prototype.webkitGetAsEntry = real;
      }
      return asked;
    },
    { files, folder: '-home-learner-readability' },
  );
  expect(dropped).toBe(1);
  await expectSession(page, watch);
  expect(asked).toEqual([]);
});

/** Picks a session's files in the file chooser of `Import run`. */
async function pick(page: Page, session: Record<string, string>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 's04-session-'));
  const paths = Object.entries(session).map(([path, text]) => {
    const file = join(dir, path.slice(path.lastIndexOf('/') + 1));
    writeFileSync(file, text);
    return file;
  });
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import run' }).click();
  await (await chooser).setFiles(paths);
}

test('a 2.1 session with interleaved lines, parallel results and a compaction shows what its files count', async ({
  page,
}) => {
  await open(page);
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a prompt of the page before');
  await pick(page, interleavedSession());
  await expect(page.getByRole('note')).toContainText(
    `Viewing the Claude Code session ${INTERLEAVED_ID}.jsonl, read-only.`,
  );
  await expect(page.getByRole('note')).toContainText(
    'Its parent ran with claude-sonnet-4-5-20250929, claude-opus-4-1-20250805.',
  );
  // One model call per message.id: the parent's four, its subagent's three.
  const parent = page.getByRole('region', { name: 'Parent messages' });
  await expect(parent.getByRole('button', { name: /^Model call \d+$/ })).toHaveCount(4);
  await expect(subagentRegion(page, 1).getByRole('button', { name: /^Model call \d+$/ })).toHaveCount(3);
  // The usage as the files hold it: each reply's last line, counted once.
  await expect(parent).toContainText(
    '4 calls sent 29,414 tokens in all and received 480 (API: 14 uncached · 17,500 cache read · 11,900 cache written)',
  );
  await expect(subagentRegion(page, 1)).toContainText(
    '3 calls sent 10,412 tokens in all and received 250 (API: 12 uncached · 6,400 cache read · 4,000 cache written)',
  );
  // After the compaction the parent's context is its last call's count, not an estimate.
  await expect(parent).toContainText('2,165 tokens in context (API)');
  // No tool left open: the parallel results are one message, the subagent returned.
  const sub = subagentRegion(page, 1);
  await expect(sub).toContainText('discarded');
  await expect(sub.getByRole('listitem')).toHaveCount(6);
  await expect(sub.getByRole('listitem').nth(2).locator('[data-block="tool_result"]')).toHaveCount(2);
  await expect(page.locator('[data-type="unmatched_tool_result"]')).toHaveCount(0);
  // The Task the tool refused is failed, with its error.
  await expect(subagentRegion(page, 2)).toContainText('failed');
  await expect(page.getByRole('alert')).toContainText(
    'subagent-2 (Check the fixtures) never started: the tool refused its call',
  );
  // The compaction and the model switch on the chart, said; never blamed on the provider.
  const chart = page.getByRole('region', { name: 'Context per model call' });
  await expect(chart).toContainText(
    'Before call 7, Parent’s array was compacted (by /compact, from 9,923 tokens): a drop of its own, not the provider’s.',
  );
  await expect(chart).toContainText('From call 7, Parent calls claude-opus-4-1-20250805');
  await expect(chart).toContainText('as the API counted them');
  await expect(page.getByRole('note')).not.toContainText('reported input tokens without the cached part');
  // The parent's array starts again from the compaction's summary.
  await expect(parentList(page).first().locator('[data-block="compaction_summary"]')).toContainText(
    'Summary of the compacted conversation',
  );
  // And on the parent's row of the workers timeline.
  const timeline = page.getByRole('region', { name: 'Workers timeline' });
  await expect(timeline.getByRole('button', { name: 'Parent: array compacted' })).toHaveCount(1);
  // The session, not the page before it: its files, its log, its models, an empty prompt box.
  const files = page.getByRole('region', { name: 'Files' });
  await expect(files).toContainText('/home/learner/tests-tour/notes.md');
  await expect(files).toContainText('written by Parent');
  await files.getByText('/home/learner/tests-tour/notes.md').click();
  await expect(files).toContainText('- tests/test_a.py');
  const log = page.getByRole('region', { name: 'Log' });
  await expect(log).toContainText('> task (Run the tests): Run the test suite and report which tests fail.');
  await expect(log).toContainText('One test fails: test_b (division by zero).');
  await expect(page.getByRole('banner')).toContainText(
    'claude-sonnet-4-5-20250929, claude-opus-4-1-20250805, claude-haiku-4-5-20251001',
  );
  await expect(page.getByRole('textbox', { name: 'Prompt' })).toHaveValue('');
  await sub.getByRole('button', { name: 'Model call 2', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Model call' })).toContainText(
    'model: claude-haiku-4-5-20251001',
  );
  await page.getByRole('dialog', { name: 'Model call' }).getByRole('button', { name: 'Close' }).click();
  // The prompt's image is shown by its label, in what the first call sent.
  await parent.getByRole('button', { name: 'Model call 1', exact: true }).click();
  const sent = page.getByRole('dialog', { name: 'Model call' }).getByRole('list', { name: 'Messages sent' });
  const prompt = sent.getByRole('listitem').first();
  await prompt.getByText('#0').click();
  await expect(prompt.locator('[data-block="image"]')).toContainText('Image (image/png), not kept');
});
