import { chromium } from 'playwright';
import { chromiumPath, serveBuiltApp } from './scripts/built-app.mjs';
const BASE = await serveBuiltApp(41790);
const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
const shots = [
  ['wide-en', 1440, 900, 'en'], ['laptop-en', 1366, 768, 'en'], ['phone-en', 390, 844, 'en'],
  ['projector-zh', 1920, 1080, 'zh'], ['laptop-ja', 1366, 768, 'ja'], ['phone-zh', 390, 844, 'zh'],
];
for (const [name, width, height, lang] of shots) {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto(`${BASE}/?speed=instant&lang=${lang}`);
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0, null, { timeout: 60000 });
  await page.locator('.samples button, [data-sample]').first().click().catch(async () => {
    await page.getByRole('button').filter({ hasText: /subtask|子任务|サブタスク/ }).first().click();
  });
  await page.waitForFunction(() => performance.getEntriesByName('run:finished').length > 0, null, { timeout: 60000 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/shots/${name}.png` });
  if (name === 'wide-en') {
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.getByRole('region', { name: 'Comparison' }).getByText(/Isolation saved/).waitFor({ timeout: 60000 });
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/tmp/shots/compare-en.png`, fullPage: true });
    await page.getByRole('button', { name: 'Model call 1' }).last().click();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/tmp/shots/modelcall-en.png` });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Present' }).click();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/tmp/shots/present-en.png` });
  }
  console.log(name, await page.getByRole('status').innerText());
  await page.close();
}
await browser.close();
process.exit(0);
