/**
 * The lesson in one sentence (the tagline, `app.tagline`) is read whole from the screen: at
 * 1366x768, 1440x900 and 390 px, in en, zh and ja, nothing of it is cut (beside the title it was
 * clamped to two lines, the rest only in its `title`). The header stays one line on a laptop and
 * the prompt and the arrays stay where they were: on the first screen, the arrays in its first half.
 * Each screen is saved as test-results/tagline-<width>-<lang>.png to be looked at. One page per
 * language is resized through the three sizes.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';

type Strings = { app: { tagline: string }; column: { parentRegion: string }; prompt: { label: string } };
const strings = (lang: string): Strings =>
  JSON.parse(readFileSync(new URL(`../src/ui/locales/${lang}.json`, import.meta.url), 'utf8')) as Strings;

const SCREENS = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

for (const lang of ['en', 'zh', 'ja']) {
  test(`the whole tagline is on the first screen in ${lang}, the playground under it, at each size`, async ({
    page,
  }) => {
    const { app, column, prompt } = strings(lang);
    await page.setViewportSize(SCREENS[0]);
    await page.goto(`/?lang=${lang}&speed=instant`);
    await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const tagline = page.getByText(app.tagline, { exact: true });

    // One page, resized: each size is laid out afresh from the same screen.
    for (const { width, height } of SCREENS) {
      await page.setViewportSize({ width, height });
      await expect(tagline).toBeVisible();

      // Not clipped: no line cut off (a clamp or a fixed height) nor any character (an ellipsis),
      // and no box around it cuts it either: it is whole inside the viewport.
      const box = await tagline.evaluate((element) => {
        const rect = element.getBoundingClientRect();
        const clipped: string[] = [];
        for (let up = element.parentElement; up; up = up.parentElement) {
          const style = getComputedStyle(up);
          if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
          const outer = up.getBoundingClientRect();
          if (rect.top < outer.top - 1 || rect.bottom > outer.bottom + 1) clipped.push(up.tagName);
          if (rect.left < outer.left - 1 || rect.right > outer.right + 1) clipped.push(up.tagName);
        }
        return {
          scrollHeight: element.scrollHeight,
          clientHeight: element.clientHeight,
          scrollWidth: element.scrollWidth,
          clientWidth: element.clientWidth,
          clipped,
        };
      });
      expect(box.scrollHeight, `${width}x${height}`).toBeLessThanOrEqual(box.clientHeight + 1);
      expect(box.scrollWidth, `${width}x${height}`).toBeLessThanOrEqual(box.clientWidth + 1);
      expect(box.clipped, `${width}x${height}`).toEqual([]);
      await expect(tagline).toBeInViewport({ ratio: 1 });
      await page.screenshot({ path: `test-results/tagline-${width}-${lang}.png` });

      // The playground is not pushed below the fold: the prompt is on the first screen; on a
      // laptop the header is one line and the arrays start in the first half of the screen.
      await expect(page.getByRole('textbox', { name: prompt.label })).toBeInViewport({ ratio: 1 });
      if (width >= 1000) {
        expect((await page.getByRole('banner').boundingBox())!.height).toBeLessThanOrEqual(56);
        const parent = (await page.getByRole('region', { name: column.parentRegion }).boundingBox())!;
        expect(parent.y, `${width}x${height}`).toBeLessThan(height / 2);
      }
    }
  });
}
