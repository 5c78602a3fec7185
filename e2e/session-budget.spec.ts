/**
 * A Claude Code session with one line of 150 MB opens without it: the line is dropped as it is
 * read (never parsed, never sent to the page), a sentence names it, and the tab lives on.
 */
import { createWriteStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeSession, SESSION_ID } from '../scripts/claude-sessions.mjs';
import { expect, open, status, test } from './fixtures';

/** Writes `head`, then one line of `megabytes` MB of a user's text, then `tail`, a piece at a time. */
async function withHugeLine(path: string, head: string, megabytes: number, tail: string): Promise<void> {
  const out = createWriteStream(path);
  const write = (text: string) =>
    new Promise<void>((resolve) => (out.write(text) ? resolve() : out.once('drain', () => resolve())));
  await write(`${head}\n{"type":"user","message":{"role":"user","content":"`);
  const megabyte = 'x'.repeat(1024 * 1024);
  for (let i = 0; i < megabytes; i++) await write(megabyte);
  await write(`"}}\n${tail}`);
  await new Promise((resolve) => out.end(resolve));
}

test('a session with a line of 150 MB opens without it, with a sentence, and the tab lives on', async ({
  page,
}) => {
  test.slow(); // 150 MB written, then read
  await open(page);
  const parent = `${SESSION_ID}.jsonl`;
  const dir = mkdtempSync(join(tmpdir(), 's04-long-line-'));
  const paths: string[] = [];
  for (const [path, text] of Object.entries(claudeSession({ withThird: true }) as Record<string, string>)) {
    const file = join(dir, path.slice(path.lastIndexOf('/') + 1));
    const lines = text.split('\n');
    if (file.endsWith(parent))
      await withHugeLine(file, lines.slice(0, 2).join('\n'), 150, lines.slice(2).join('\n'));
    else writeFileSync(file, text);
    paths.push(file);
  }
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import run' }).click();
  await (await chooser).setFiles(paths);
  await expect(page.getByRole('note')).toContainText(
    `Viewing the Claude Code session ${parent}, read-only.`,
    {
      timeout: 30_000,
    },
  );
  await expect(page.getByRole('alert')).toHaveText(
    `${parent} has 1 line over 8.0 MB (line 3), more than a line may be: it was left out unread.`,
  );
  await expect(page.getByRole('region', { name: 'Subagent 1 messages' })).toBeVisible();
  await expect(status(page)).toHaveText(/^Finished/);
});
