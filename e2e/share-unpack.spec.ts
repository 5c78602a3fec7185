/**
 * A link's run is unpacked in the task that asks for it (src/run/link.ts): a page opened from a link
 * is booting, with tasks of its own queued, and unpacking through a Blob's stream waited behind all
 * of them. Chromium's own streams are what this is about, so the module is checked in Chromium (built
 * alone into a blank page, the app's internals untouched), not in Node.
 */
import { deflateRawSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { parallelRecord } from '../scripts/records.mjs';
import { expect, test } from './fixtures';

/** src/run/link.ts as one script that sets `window.link`. */
async function linkModule(): Promise<string> {
  const built = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: 'src/run/link.ts', name: 'link', formats: ['iife'] },
    },
  });
  const [output] = (Array.isArray(built) ? built : [built]) as Rolldown.RolldownOutput[];
  return output.output[0].code;
}

test('a link’s run unpacks without waiting for a task, however busy the page is', async ({ page }) => {
  const record = parallelRecord(2);
  const packed = deflateRawSync(Buffer.from(JSON.stringify(record))).toString('base64url');
  await page.setContent('<!doctype html><title>link</title>');
  await page.addScriptTag({ content: await linkModule() });

  const result = await page.evaluate(async (packed) => {
    const link = (window as unknown as { link: { unpackRecord(p: string): Promise<{ title: string }> } })
      .link;
    let taskRan = false;
    // A task queued first, and a busy one: what a booting page has ahead of the link.
    setTimeout(() => (taskRan = true), 0);
    setTimeout(() => {
      const end = performance.now() + 50;
      while (performance.now() < end);
    }, 0);
    let title: string | null = null;
    let failed: unknown = null;
    link.unpackRecord(packed).then(
      (record) => (title = record.title),
      (error: unknown) => (failed = String(error)),
    );
    // Microtasks only: a step that needs a task of its own cannot finish in these.
    for (let i = 0; i < 10_000 && title === null && failed === null; i++) await Promise.resolve();
    return { title, failed, taskRan };
  }, packed);

  expect(result).toEqual({ title: record.title, failed: null, taskRan: false });
});
