/**
 * The first visit on a slow or bad network: a line on screen before the page's script; the offline sandbox's script that does not load is said in one
 * sentence with a Retry, not a page that never becomes ready; on a slow or metered connection
 * python3 (12.3 MB) is not loaded ahead, and the header says it loads when first used.
 */
import { expect, holdRequests, PAGE_SCRIPT, PROMPTS, runSample, status, test } from './fixtures';

test('the page says it is loading before its script has come, and the line goes once the playground is up', async ({
  page,
}) => {
  // The page's script is held until the line is seen.
  const release = await holdRequests(page, PAGE_SCRIPT);
  await page.goto('/?speed=instant', { waitUntil: 'commit' });
  await expect(page.getByText('Loading the playground…', { exact: true })).toBeVisible();
  release();
  await expect(status(page)).toHaveText(/^Idle/);
  await expect(page.getByText(/^Loading the playground/)).toHaveCount(0);
});

test('a sandbox script that the network dropped is said in one sentence, and Retry loads it', async ({
  page,
  watch,
}) => {
  // The first fetch of the sandbox's script fails, as a dropped network does; the next one goes through.
  let fetches = 0;
  await page.route(/\/assets\/sandbox-[\w-]+\.js$/, (route) =>
    fetches++ === 0 ? route.abort('internetdisconnected') : route.continue(),
  );
  watch.allow(/ERR_INTERNET_DISCONNECTED|Failed to load resource/);
  await page.goto('/?speed=instant');
  await expect(status(page)).toHaveText(
    "Failed: the offline sandbox's script did not load (the network may have dropped); Retry fetches it again",
  );
  expect(await page.evaluate(() => performance.getEntriesByName('sandbox:ready').length)).toBe(0);

  await page.getByRole('button', { name: 'Retry', exact: true }).click();
  await expect(status(page)).toHaveText(/^Idle/);
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
  await expect(page.getByRole('button', { name: 'Retry', exact: true })).toHaveCount(0);
  expect(fetches).toBe(2);
  await runSample(page, PROMPTS.framework);
});

test('on a 3g connection python3 is not loaded ahead, and the header says it loads when first used', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.addInitScript(() =>
    Object.defineProperty(navigator, 'connection', {
      value: { effectiveType: '3g', saveData: false },
      configurable: true,
    }),
  );
  await page.goto('/?speed=instant');
  // The header's runtime details open from the sandbox badge.
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Sandbox / })
    .click();
  await expect(
    page.getByText('python3 (Pyodide, 12 MB) loads when first used: the connection is slow or metered'),
  ).toBeVisible();
  // The service worker installs once the page is quiet, after python3's moment to load ahead.
  await expect(page.getByText(/^Saved for offline use/)).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-runtime="python"]')).toHaveCount(0);

  // Asked for, it loads: the note gives way to its progress.
  await page.getByRole('button', { name: PROMPTS.module, exact: true }).click();
  await expect(page.locator('[data-runtime="python"]')).toHaveCount(1, { timeout: 20_000 });
  await expect(page.locator('[data-python="on-first-use"]')).toHaveCount(0);
});
