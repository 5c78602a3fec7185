/**
 * A link whose run unpacks to a gigabyte (1.4 MB of URL) is refused with a sentence, the tab alive
 * and its sandbox ready: the page unpacks a slice at a time and stops at the 25 MB a run file may
 * hold, never holding the rest. A small link whose run holds one message too big to draw is
 * refused by that message's size.
 */
import { createDeflateRaw, deflateRawSync } from 'node:zlib';
import { parentCallsRecord } from '../scripts/records.mjs';
import { expect, status, test } from './fixtures';

/** 1 GB of spaces, deflated as a stream (the whole gigabyte is never in memory here either). */
async function gigabyteBomb(): Promise<string> {
  const deflate = createDeflateRaw({ level: 9, memLevel: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const spaces = Buffer.alloc(16 * 1024 * 1024, 0x20);
  for (let i = 0; i < 64; i++) {
    if (!deflate.write(spaces)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat(out).toString('base64url');
}

test('a link that unpacks to 1 GB is refused with a sentence, and the tab lives on', async ({ page }) => {
  test.slow(); // making the gigabyte's link takes seconds of its own
  const packed = await gigabyteBomb();
  expect(packed.length).toBeGreaterThan(1_000_000);
  await page.goto(`/?speed=instant#run=${packed}`);
  await expect(page.getByRole('alert')).toHaveText(
    'Cannot open the shared link: it is 25 MB; a run file may be at most 25 MB.',
  );
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
  await expect(status(page)).toHaveText(/^Idle/);
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
});

test('a small link whose run holds one message of 20 MB is refused with a sentence', async ({ page }) => {
  const record = parentCallsRecord(2, 100) as { events: Array<Record<string, unknown>> };
  const at = record.events.findIndex((e) => e.type === 'message');
  record.events[at] = {
    ...record.events[at],
    message: { role: 'user', content: 'x'.repeat(20 * 1024 * 1024) },
  };
  const packed = deflateRawSync(Buffer.from(JSON.stringify(record))).toString('base64url');
  expect(packed.length).toBeLessThan(40_000);
  await page.goto(`/?speed=instant#run=${packed}`);
  await expect(page.getByRole('alert')).toHaveText(
    `Cannot open the shared link: event ${at} (message) holds a message of 20 MB; one message may be at most 8.0 MB.`,
  );
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
  await expect(status(page)).toHaveText(/^Idle/);
});
