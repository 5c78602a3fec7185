/**
 * An endpoint's secrets never leave in a file or a link: with a base URL carrying a user name, a
 * password, a token in its path, a query and a fragment, a run that fails against it ("Could not
 * reach <the address>") is exported, linked and kept in History without any of them, and the
 * screen says what was left out. A record that arrives with them has them taken out on open.
 */
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { parentCallsRecord } from '../scripts/records.mjs';
import {
  expect,
  importFile,
  MOCK_API,
  open,
  openOnEndpoint,
  PROMPTS,
  runEnd,
  status,
  test,
} from './fixtures';

const SECRETS = ['secretpw', 'k3y-p4th-s3cr3t', 'tok3nvalue', 'fr4gvalue', 'sk-ant-e2e-credential-key'];
const host = MOCK_API.replace('http://', '');
/** The mock's address with every kind of secret an address can hold. */
const CREDENTIALED = `http://user:secretpw@${host}/key/k3y-p4th-s3cr3t?token=tok3nvalue#fr4gvalue`;

function expectNoSecret(text: string, where: string) {
  for (const secret of SECRETS) expect(text, `${where} holds ${secret}`).not.toContain(secret);
  expect(text, `${where} holds the user name`).not.toContain('user:');
}

/** Everything History keeps, as one text. */
const keptRuns = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const request = indexedDB.open('s04-history');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const names = [...db.objectStoreNames];
          if (!names.length) return resolve('');
          const tx = db.transaction(names, 'readonly');
          const all = names.map((n) => tx.objectStore(n).getAll());
          tx.oncomplete = () => resolve(JSON.stringify(all.map((r) => r.result)));
        };
      }),
  );

/** The downloaded text of Export run. */
async function exported(page: Page): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export run', exact: true }).click();
  return readFileSync((await (await download).path())!, 'utf8');
}

/** The run a `#run=` link carries, unpacked as the page would. */
function linkedRun(href: string): string {
  const packed = new URL(href).hash.replace(/^#run=/, '');
  return inflateRawSync(Buffer.from(packed, 'base64url')).toString('utf8');
}

test('a run sent to a credentialed base URL is exported, linked and kept without its secrets', async ({
  page,
}) => {
  await openOnEndpoint(page, 'mock-s04', { baseURL: CREDENTIALED, key: 'sk-ant-e2e-credential-key' });
  const ended = await runEnd(page);
  await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
  await ended();
  // The address with credentials cannot be fetched: the reason names it, without its secrets.
  await expect(status(page)).toHaveText(
    new RegExp(`^Failed: .*${host.replace(/\./g, '\\.')}/key/\\[redacted\\]`),
  );
  expectNoSecret((await status(page).textContent()) ?? '', 'the status');

  const file = await exported(page);
  expectNoSecret(file, 'the exported file');
  expect(JSON.parse(file).settings.baseURL).toBe(`http://${host}/key/[redacted]`);
  await expect(page.getByRole('alert')).toHaveText(
    "Left out of the exported file: the base URL's user name, the base URL's password, the base URL's query, the base URL's fragment, the secret parts of the base URL's path.",
  );

  await page.getByRole('button', { name: 'Copy link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share this step' });
  const href = await dialog.getByRole('textbox', { name: 'Link to this step' }).inputValue();
  expect(href).toContain('#run=');
  expectNoSecret(href, 'the link');
  expectNoSecret(linkedRun(href), "the link's run");
  await expect(dialog.getByText(/^Left out of the link: the base URL's user name, /)).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();

  await expect.poll(() => keptRuns(page)).toContain('"kind":"failed"');
  expectNoSecret(await keptRuns(page), 'History');
});

test('a record that arrives with secrets has them taken out on open, and the screen says what', async ({
  page,
}) => {
  await open(page);
  const record = parentCallsRecord(2, 100) as {
    settings: Record<string, unknown>;
    events: Array<Record<string, unknown>>;
  };
  record.settings = { ...record.settings, provider: 'anthropic', model: 'm', baseURL: CREDENTIALED };
  (record.events[0].settings as Record<string, unknown>).baseURL = CREDENTIALED;
  record.events.push({
    t: 9,
    type: 'log',
    agent: 'parent',
    line: `Could not reach ${CREDENTIALED}: connection error.`,
  });
  await importFile(page, 'credentialed.json', JSON.stringify(record));
  await expect(status(page)).toHaveText(/^Finished/);
  await expect(page.getByRole('alert')).toHaveText(
    "Taken out of this run before showing it: the base URL's user name, the base URL's password, the base URL's query, the base URL's fragment, the secret parts of the base URL's path.",
  );
  await expect(page.getByRole('region', { name: 'Log' })).toContainText(
    `Could not reach http://${host}/key/[redacted] connection error.`,
  );
  expectNoSecret(await page.content(), 'the page');
  const file = await exported(page);
  expectNoSecret(file, 'the exported file');
});
