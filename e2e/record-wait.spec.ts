/**
 * `record=` against a slow or silent server: the sandbox starts meanwhile, the fetch shows where
 * it comes from and can be cancelled, and it ends in a sentence after 30 s without a byte or 120 s
 * in all (shortened here through the test build's hook, `window.__s04RecordTimeouts`). A redirect
 * is followed, and the banner names where the run came from (the refusal of a redirect to an
 * address `record=` would not take is src/run/fetch-record.test.ts's: every such address is off
 * this machine).
 */
import type { Socket } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { parentCallsRecord } from '../scripts/records.mjs';
import { expect, status, test } from './fixtures';

let server: Server;
let origin = '';
const sockets = new Set<Socket>();
const small = JSON.stringify(parentCallsRecord(2, 100));

test.beforeAll(async () => {
  server = createServer((request, response) => {
    const cors = { 'access-control-allow-origin': '*' };
    switch (request.url) {
      case '/silent.json':
        return; // accepted, never answered
      case '/trickle.json': {
        // An answer that never stops coming: a byte now and then, never the end.
        response.writeHead(200, { ...cors, 'content-type': 'application/json' });
        const tick = setInterval(() => response.write(' '), 100);
        response.on('close', () => clearInterval(tick));
        return;
      }
      case '/runs/small.json':
        return response.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(small);
      case '/moved.json':
        return response.writeHead(302, { ...cors, location: '/runs/small.json' }).end();
      default:
        return response.writeHead(404, cors).end();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Shortens record='s waits for the page about to load (a test build's hook). */
async function shortWaits(page: Page, waits: { idleMs?: number; totalMs?: number }): Promise<void> {
  await page.addInitScript((w) => {
    (window as unknown as { __s04RecordTimeouts: typeof w }).__s04RecordTimeouts = w;
  }, waits);
}

const sandboxReady = (page: Page) =>
  page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);

const fetching = (page: Page) => page.getByRole('group', { name: /^Fetching the run from 127\.0\.0\.1:\d+/ });

test('a silent record= server: the sandbox gets ready meanwhile, and the fetch can be cancelled', async ({
  page,
}) => {
  const address = `${origin}/silent.json`;
  await page.goto(`/?record=${encodeURIComponent(address)}`);
  // Start-up does not wait for the file: the sandbox is ready, the page idle, the fetch still on.
  await sandboxReady(page);
  await expect(status(page)).toHaveText(/^Idle/);
  await expect(fetching(page)).toBeVisible();
  await expect(fetching(page)).toContainText('0.0 KB so far');
  await fetching(page).getByRole('button', { name: 'Cancel fetching' }).click();
  await expect(page.getByRole('alert')).toHaveText(`Cannot open ${address}: fetching it was cancelled.`);
  await expect(fetching(page)).toHaveCount(0);
  await expect(status(page)).toHaveText(/^Idle/);
});

test('a server that never sends a byte ends in a sentence, the sandbox ready', async ({ page }) => {
  await shortWaits(page, { idleMs: 1000 });
  const address = `${origin}/silent.json`;
  await page.goto(`/?record=${encodeURIComponent(address)}`);
  await expect(page.getByRole('alert')).toHaveText(
    `Cannot open ${address}: the server sent nothing for 1 s; try again later, or ask for the file at another address.`,
  );
  await sandboxReady(page);
  await expect(status(page)).toHaveText(/^Idle/);
  await expect(fetching(page)).toHaveCount(0);
});

test('a file that keeps trickling in ends in a sentence once the whole wait is over', async ({ page }) => {
  await shortWaits(page, { idleMs: 1000, totalMs: 1500 });
  const address = `${origin}/trickle.json`;
  await page.goto(`/?record=${encodeURIComponent(address)}`);
  await expect(page.getByRole('alert')).toHaveText(
    `Cannot open ${address}: the file took more than 1.5 s to arrive; try again on a faster connection, or ask for a smaller run.`,
  );
});

test('a redirect to an address record= takes is followed, and the banner names where the run came from', async ({
  page,
}) => {
  await page.goto(`/?record=${encodeURIComponent(`${origin}/moved.json`)}`);
  await expect(page.getByRole('note')).toContainText(`the file at ${origin}/runs/small.json`);
  await expect(status(page)).toHaveText(/^Finished/);
});
