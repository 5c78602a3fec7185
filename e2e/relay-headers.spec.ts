/**
 * The relay passes back only the reply headers an Anthropic client reads: an
 * endpoint answering with `Clear-Site-Data: "storage"` (and Set-Cookie, Refresh, Link, CSP)
 * through the relay must not touch this page's origin. The mock endpoint is on loopback, which
 * the test server allows (S04_RELAY_ALLOW_LOCAL in playwright.config.ts).
 */
import { expect, MOCK_API, status, test } from './fixtures';

const KEY = 'sk-ant-e2e-hostile-0123456789';

test('a reply carrying Clear-Site-Data through the relay leaves the remembered key, History and cookies alone', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto(
    `/?provider=anthropic&baseURL=${encodeURIComponent(`${MOCK_API}/no-cors`)}&model=mock-hostile-headers`,
  );
  await expect(status(page)).toHaveText(/^Idle/);
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('textbox', { name: 'API key' }).fill(KEY);
  await settings.getByRole('checkbox', { name: 'Remember the key on this device' }).check();
  await settings.getByRole('checkbox', { name: 'Send through the local server' }).check();
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings).toBeHidden();

  // A marker of this origin's storage, beside what the app keeps there itself.
  await page.evaluate(() => localStorage.setItem('s04-e2e-marker', 'kept'));
  await page.getByRole('textbox', { name: 'Prompt' }).fill('Use a subtask to list the files');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page)).toHaveText(/^Finished/, { timeout: 40_000 });

  // The replies did reach the page through the relay, with their headers filtered.
  const replies = await page.request.get(`${MOCK_API}/_requests`);
  // (The mock is shared by the suite: a call of an earlier test may still be logged after the
  // reset, so only this run's scenario is counted.)
  const posts = ((await replies.json()) as Array<{ method: string; scenario?: string }>).filter(
    (r) => r.method === 'POST' && r.scenario === 'mock-hostile-headers',
  );
  expect(posts.length).toBeGreaterThanOrEqual(2);
  // The run is in History before the reload (its last save follows Finished), and after it.
  const history = page.getByRole('dialog', { name: 'History' });
  await page.getByRole('button', { name: 'History' }).click();
  await expect(history.getByRole('listitem')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(history).toBeHidden();

  await page.reload();
  await expect(status(page)).toHaveText(/^Idle/);
  expect(await page.evaluate(() => localStorage.getItem('s04-e2e-marker'))).toBe('kept');
  expect(await page.evaluate(() => document.cookie)).not.toContain('s04-mock');
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(settings.getByRole('textbox', { name: 'API key' })).toHaveValue(KEY);
  await settings.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'History' }).click();
  await expect(history.getByRole('listitem')).toHaveCount(1);
});
