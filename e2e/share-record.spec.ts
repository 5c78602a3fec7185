/**
 * A run too big for a link's fragment is linked by the address of its exported file
 * (`?record=<URL>&step=N`): here a second loopback origin serves the files, with CORS or without,
 * and each way the fetch can fail is named in one sentence. Nothing is fetched unless the URL the
 * learner opened names it.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentCallsRecord } from '../scripts/records.mjs';
import { expect, importFile, open, parentList, status, stepSlider, test, Watch } from './fixtures';

/** A run of 40 model calls whose outputs do not compress: its link would be far over 32 KB. */
const big = JSON.stringify(parentCallsRecord(40, 3000)).replace(/x{99}/g, () =>
  randomBytes(75).toString('base64'),
);

/** Another origin on this machine, serving run files (some with CORS) and logging what it is asked. */
let server: Server;
let origin: string;
const asked: string[] = [];

test.beforeAll(async () => {
  server = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    const cors = { 'access-control-allow-origin': '*' };
    const json = { 'content-type': 'application/json' };
    switch (request.url) {
      case '/runs/big.json':
        return response.writeHead(200, { ...cors, ...json }).end(big);
      case '/runs/no-cors.json':
        return response.writeHead(200, json).end(big);
      case '/runs/huge.json': {
        // Announced at 30 MB; the page must refuse it without reading it.
        response.writeHead(200, { ...cors, ...json, 'content-length': String(30 * 1024 * 1024) });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const more = () => {
          while (!response.destroyed && response.write(chunk));
        };
        response.on('drain', more);
        response.on('close', () => response.off('drain', more));
        return more();
      }
      case '/runs/page.html':
        return response.writeHead(200, { ...cors, 'content-type': 'text/html' }).end('<html>a page</html>');
      default:
        return response.writeHead(404, cors).end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test.beforeEach(() => {
  asked.length = 0;
});

test('a run too big for a link is linked by its file, fetched from another origin with CORS', async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow(); // two pages boot their sandbox, one after the other
  await open(page);
  await importFile(page, 'big.json', big);
  await expect(stepSlider(page)).toHaveValue(/^[1-9]\d+$/);
  await stepSlider(page).fill('50');
  const shown = await parentList(page).allTextContents();
  expect(shown.length).toBeGreaterThan(5);

  await page.getByRole('button', { name: 'Copy link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share this step' });
  await expect(
    dialog.getByText(/^This run would make a link of \d+\.\d KB, more than the 32\.0 KB/),
  ).toBeVisible();
  await expect(dialog.getByText(/GitHub gist/)).toBeVisible();
  const field = dialog.getByRole('textbox', { name: 'Link to this step' });
  await expect(field).toHaveValue('');

  const address = dialog.getByRole('textbox', { name: 'Address of the run file' });
  await address.fill('http://example.com/run.json');
  await expect(dialog.getByRole('alert')).toHaveText(
    'record= takes an https address (http only for this machine), not http://example.com/run.json',
  );
  await expect(field).toHaveValue('');
  await address.fill(`${origin}/runs/big.json`);
  const link = `${baseURL}/?record=${encodeURIComponent(`${origin}/runs/big.json`)}&step=50`;
  await expect(field).toHaveValue(link);
  expect(asked).toEqual([]); // typing an address fetches nothing

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  const watch = new Watch(other);
  await watch.install();
  await other.goto(link);
  const banner = other.getByRole('note').filter({ hasText: 'Viewing' });
  await expect(banner).toContainText(`Viewing the file at ${origin}/runs/big.json, read-only.`, {
    timeout: 15_000,
  });
  await expect(stepSlider(other)).toHaveValue('50');
  await expect.poll(() => parentList(other).allTextContents()).toEqual(shown);
  expect(asked).toEqual(['GET /runs/big.json']);
  expect(watch.unexpectedErrors()).toEqual([]);
  expect(watch.externalRequests).toEqual([]);
  await fresh.close();
});

test('a record= that fails is named in one sentence, and opens nothing', async ({ page, watch }) => {
  watch.allow(/blocked by CORS policy|Failed to load resource/);
  const cases: Array<[string, string]> = [
    [
      `${origin}/runs/no-cors.json`,
      'the server did not answer, or it does not let other sites read the file (it sends no CORS header)',
    ],
    [`${origin}/runs/missing.json`, 'the server answered 404 Not Found'],
    [`${origin}/runs/huge.json`, 'it is 30 MB; a run file may be at most 25 MB'],
    [`${origin}/runs/page.html`, 'it is not JSON (it has "<" where JSON cannot)'],
    [
      'http://example.com/run.json',
      'record= takes an https address (http only for this machine), not http://example.com/run.json',
    ],
  ];
  for (const [address, reason] of cases) {
    await page.goto(`/?speed=instant&record=${encodeURIComponent(address)}&step=3`);
    await expect(page.getByRole('alert')).toHaveText(`Cannot open ${address}: ${reason}.`);
    await expect(status(page)).toHaveText(/^Idle/);
    await expect(parentList(page)).toHaveCount(0);
  }
  // Each file the URLs named was asked for once; the address that was not allowed, never.
  expect(asked.sort()).toEqual([
    'GET /runs/huge.json',
    'GET /runs/missing.json',
    'GET /runs/no-cors.json',
    'GET /runs/page.html',
  ]);
});

test('a page opened without record= fetches no run', async ({ page }) => {
  await open(page);
  await expect(status(page)).toHaveText(/^Idle/);
  expect(asked).toEqual([]);
});
