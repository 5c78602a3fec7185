import { expect, test } from '@playwright/test';

test('the page is served cross-origin isolated', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
  expect(response?.headers()['cross-origin-embedder-policy']).toBe('require-corp');
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await expect(page.getByRole('status')).toHaveText(/^Idle/);
});

test('hashed assets are served to be cached for good; the page that names them is not', async ({
  page,
  request,
}) => {
  const response = await page.goto('/');
  expect(response?.headers()['cache-control']).not.toContain('immutable');
  const script = await page.locator('script[type="module"][src^="/assets/"]').getAttribute('src');
  expect(script).toMatch(/^\/assets\/index-[\w-]+\.js$/);
  const asset = await request.get(script!);
  expect(asset.ok()).toBe(true);
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(asset.headers()['cross-origin-embedder-policy']).toBe('require-corp');
});
