import { expect, test } from './fixtures';

test('the page is served cross-origin isolated', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
  expect(response?.headers()['cross-origin-embedder-policy']).toBe('require-corp');
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await expect(page.getByRole('status')).toHaveText(/^Idle/);
});

test('hashed assets are served compressed ahead and cacheable for good; the page is not cached', async ({
  page,
  request,
}) => {
  const response = await page.goto('/');
  expect(response?.headers()['cache-control']).toBe('no-cache');
  const script = await page.locator('script[type="module"][src^="/assets/"]').getAttribute('src');
  expect(script).toMatch(/^\/assets\/index-[\w-]+\.js$/);

  const compressed = await request.get(script!, { headers: { 'Accept-Encoding': 'br' } });
  expect(compressed.ok()).toBe(true);
  expect(compressed.headers()['content-encoding']).toBe('br');
  expect(compressed.headers()['cache-control']).toBe('public,max-age=31536000,immutable');
  expect(compressed.headers()['cross-origin-embedder-policy']).toBe('require-corp');

  // The same script, whichever way it travels.
  const plain = await request.get(script!, { headers: { 'Accept-Encoding': 'identity' } });
  expect(plain.headers()['content-encoding']).toBeUndefined();
  expect(await compressed.text()).toBe(await plain.text());
});
