/**
 * A quiet header: the runtimes' lines (WebContainer, python3, offline use) are
 * details on demand behind one indicator, the sandbox badge; offline, "WebContainer unavailable"
 * says it is expected and harmless. At 1366x768 the header is one line and the arrays start in the
 * first half of the screen; at 390 px nothing runs off the screen.
 */
import type { Page } from '@playwright/test';
import { expect, open, PROMPTS, runSample, test } from './fixtures';

const header = (page: Page) => page.getByRole('banner');
const indicator = (page: Page) => header(page).getByRole('button', { name: /^Sandbox / });

test.describe('at 1366x768', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test('the header is one line, the runtime lines are on demand, the arrays start in the first half', async ({
    page,
  }) => {
    await open(page, 'speed=instant&wcTimeout=2000');
    const details = page.locator('#runtime-details');
    // WebContainer gives up (no internet here): said in the details, not in the header's line.
    await expect(details.locator('[data-webcontainer="unavailable"]')).toHaveCount(1, { timeout: 10_000 });
    await expect(header(page).getByText(/^WebContainer unavailable/)).toBeHidden();
    await runSample(page, PROMPTS.framework);

    const box = (await header(page).boundingBox())!;
    // One line: about the height of its buttons, with its padding.
    expect(box.height).toBeLessThanOrEqual(56);
    const controls = await header(page)
      .locator('h1, button, select, .badge')
      .evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect().toJSON()));
    for (const c of controls) expect(c.top + c.height / 2).toBeGreaterThan(box.y + box.height / 2 - 6);
    for (const c of controls) expect(c.top + c.height / 2).toBeLessThan(box.y + box.height / 2 + 6);
    const parent = (await page.getByRole('region', { name: 'Parent messages' }).boundingBox())!;
    expect(parent.y).toBeLessThan(768 / 2);

    // Details on demand: the indicator opens them; they say WebContainer's absence is harmless.
    await expect(indicator(page)).toHaveAttribute('aria-expanded', 'false');
    await indicator(page).click();
    await expect(indicator(page)).toHaveAttribute('aria-expanded', 'true');
    await expect(details).toBeVisible();
    await expect(details.getByText(/^WebContainer unavailable: did not start within 2 s/)).toBeVisible();
    await expect(details).toContainText(
      'Expected without internet, and harmless: the offline shell runs every command here.',
    );
    await expect(details).toContainText('Local (offline shell) in /home/user/project');
    // Opened over the page: the arrays did not move.
    expect((await page.getByRole('region', { name: 'Parent messages' }).boundingBox())!.y).toBe(parent.y);
    // Escape closes them and gives the focus back to the indicator; so does a click elsewhere.
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();
    await expect(indicator(page)).toBeFocused();
    await indicator(page).press('Enter');
    await expect(details).toBeVisible();
    await page.getByRole('region', { name: 'Files' }).click();
    await expect(details).toBeHidden();
  });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('nothing runs off the screen, and the details fit it', async ({ page }) => {
    await open(page, 'speed=instant&wcTimeout=2000');
    await expect(page.locator('[data-webcontainer="unavailable"]')).toHaveCount(1, { timeout: 10_000 });
    const box = (await header(page).boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(390);
    expect(box.height).toBeLessThanOrEqual(240);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await indicator(page).click();
    const details = (await page.locator('#runtime-details').boundingBox())!;
    expect(details.x).toBeGreaterThanOrEqual(0);
    expect(details.x + details.width).toBeLessThanOrEqual(390);
  });
});
