/**
 * The whole playground cannot be framed; the embed can. A page on another port of this machine
 * (same site, another origin) frames them: the preview server's headers stop the app's page from
 * loading in the frame at all, and on a host that sends no headers (a plain static host, as GitHub
 * Pages is) the page's own check shows nothing but a sentence and "Open in its own tab", starting
 * nothing and reading no key. `embed=1` loads in the frame either way and never reads the key.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync } from 'node:zlib';
import type { BrowserContext, Page } from '@playwright/test';
import { parentCallsRecord } from '../scripts/records.mjs';
import { serveStatic } from '../scripts/serve-static.mjs';
import { expect, test } from './fixtures';

/** A page on another port that frames the address given in its `src` query parameter. */
let framer: Server;
let framerOrigin = '';
/** The built app on a host that sends no headers at all. */
let plain: { origin: string; close(): Promise<void> };

test.beforeAll(async () => {
  framer = createServer((request, response) => {
    const src = new URL(request.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    const attribute = src.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><title>A framing page</title><iframe src="${attribute}" width="900" height="600"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
  framerOrigin = `http://127.0.0.1:${(framer.address() as AddressInfo).port}`;
  const served = await serveStatic({ dir: 'dist', port: 0 });
  plain = { origin: new URL(served.url).origin, close: () => served.close() };
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => framer.close(() => resolve()));
  await plain.close();
});

/** Counts the reads of a stored API key, in every frame of the context (window.__keyReads). */
async function watchKeyReads(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const get = Storage.prototype.getItem;
    const reads: string[] = ((window as unknown as { __keyReads: string[] }).__keyReads = []);
    Storage.prototype.getItem = function (key: string) {
      if (/apikey/i.test(key)) reads.push(key);
      return get.call(this, key);
    };
  });
}

const keyReads = (target: { evaluate: Page['evaluate'] }) =>
  target.evaluate(() => (window as unknown as { __keyReads: string[] }).__keyReads.length);

/** Opens the framing page around `src`; returns the frame's locator and the host page. */
async function framed(page: Page, src: string) {
  await page.goto(`${framerOrigin}/?src=${encodeURIComponent(src)}`);
  return page.frameLocator('iframe');
}

/** A `#run=` link's fragment for a small run, packed as Copy link packs it. */
function packedRun(): string {
  const json = JSON.stringify(parentCallsRecord(2, 100));
  return deflateRawSync(Buffer.from(json)).toString('base64url');
}

test("the preview server's headers keep the app's page out of frames, not the embed's", async ({
  page,
  request,
  baseURL,
  watch,
}) => {
  watch.allow(
    /^Framing '.*' violates the following Content Security Policy directive: "frame-ancestors 'none'"/,
  );
  const app = await request.get('/?speed=instant');
  expect(app.headers()['content-security-policy']).toBe("frame-ancestors 'none'");
  expect(app.headers()['x-frame-options']).toBe('DENY');
  const embed = await request.get('/?embed=1');
  expect(embed.headers()['content-security-policy']).toBeUndefined();
  expect(embed.headers()['x-frame-options']).toBeUndefined();

  await framed(page, `${baseURL}/?speed=instant`);
  // The browser refuses the page: the frame ends on its own error page, nothing of the app in it.
  await expect.poll(() => page.frames()[1]?.url()).toMatch(/^chrome-error:/);
  await expect(page.frameLocator('iframe').getByRole('button', { name: 'Run', exact: true })).toHaveCount(0);
});

test('on a host without headers, the framed app shows only a sentence and "Open in its own tab", starting nothing', async ({
  browser,
}) => {
  const context = await browser.newContext();
  await watchKeyReads(context);
  const page = await context.newPage();
  let workers = 0;
  page.on('worker', () => workers++);
  const address = `${plain.origin}/?speed=instant`;
  const frame = await framed(page, address);
  await expect(
    frame.getByText('The playground does not work inside another page: it keeps your API key'),
  ).toBeVisible();
  const way = frame.getByRole('link', { name: 'Open in its own tab' });
  await expect(way).toHaveAttribute('href', address);
  await expect(way).toHaveAttribute('target', '_blank');
  for (const name of ['Run', 'Settings', 'History', 'Import run']) {
    await expect(frame.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(frame.getByRole('textbox')).toHaveCount(0);
  expect(workers).toBe(0);
  expect(await keyReads(page.frames()[1])).toBe(0);

  // The same page in its own tab is the playground, and reads the stored key as it should.
  const own = await context.newPage();
  await own.goto(address);
  await expect(own.getByRole('button', { name: 'Run', exact: true })).toBeVisible();
  await expect.poll(() => keyReads(own)).toBeGreaterThan(0);
  await context.close();
});

test('embed=1 works in a frame of another origin, with headers or without, and reads no key', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext();
  await watchKeyReads(context);
  const page = await context.newPage();
  for (const origin of [baseURL!, plain.origin]) {
    const frame = await framed(page, `${origin}/?embed=1#run=${packedRun()}`);
    await expect(frame.getByRole('region', { name: 'Parent messages' }).getByRole('listitem')).toHaveCount(5);
    await expect(frame.getByRole('link', { name: 'Open in the playground' })).toBeVisible();
    expect(await keyReads(page.frames()[1])).toBe(0);
  }
  await context.close();
});
