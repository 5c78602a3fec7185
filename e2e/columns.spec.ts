/**
 * Columns for several subagents: none slides under the parent unnoticed (the
 * subagents scroll in a pane beside it, and an arrow names the ones out of view), and their colours
 * are far apart and told apart without colour (a numbered marker of its own shape).
 */
import type { Page } from '@playwright/test';
import { parallelRecord } from '../scripts/records.mjs';
import { expect, importFile, open, subagentRegion, test } from './fixtures';

const SUBAGENTS = 4;

async function openFour(page: Page): Promise<void> {
  await open(page);
  await importFile(page, 'four.json', JSON.stringify(parallelRecord(SUBAGENTS)));
  await expect(page.locator(`#column-subagent-${SUBAGENTS}`)).toHaveCount(1);
}

/** The hue (degrees) of a computed `rgb(...)` colour. */
function hue(css: string): number {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => Number(v) / 255);
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

const hueApart = (a: number, b: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));

test.describe('columns for several subagents', () => {
  test('no subagent slides under the parent unnoticed', async ({ page }) => {
    await openFour(page);
    const parent = page.getByRole('region', { name: 'Parent messages' });
    const first = subagentRegion(page, 1);
    // The subagents scroll in their own pane, which starts right of the parent.
    const layout = await first.evaluate((column) => {
      let pane = column.parentElement!;
      while (getComputedStyle(pane).overflowX !== 'auto') pane = pane.parentElement!;
      const parent = document.getElementById('column-parent')!.getBoundingClientRect();
      pane.scrollLeft = pane.scrollWidth;
      return {
        paneLeft: pane.getBoundingClientRect().left,
        parentRight: parent.right,
        scrolls: pane.scrollWidth > pane.clientWidth,
      };
    });
    expect(layout.scrolls).toBe(true);
    expect(layout.paneLeft).toBeGreaterThanOrEqual(layout.parentRight);

    // Scrolled to the end, Subagent 1 is out of view on the left: an arrow says so, and brings it back.
    const back = page.getByRole('button', {
      name: /^Show Subagent \d+ \(\d+ scrolled out of view on the left\)$/,
    });
    await expect(back).toBeVisible();
    await expect(page.getByRole('button', { name: /on the right/ })).toHaveCount(0);
    const box = (await parent.boundingBox())!;
    // Nothing is drawn over the parent: every point of it is the parent's.
    for (const x of [box.x + 5, box.x + box.width / 2, box.x + box.width - 5]) {
      const hit = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x, y)?.closest('section')?.id,
        [x, box.y + box.height / 2],
      );
      expect(hit).toBe('column-parent');
    }
    // Read without waiting: the arrow goes away once nothing is out of view on its side.
    const backLabel = () => back.evaluateAll((all) => all[0]?.getAttribute('aria-label') ?? null);
    for (let i = 0; i < SUBAGENTS && (await backLabel()) !== null; i++) {
      const label = await backLabel();
      await back.click();
      await expect.poll(backLabel).not.toBe(label);
    }
    await expect(back).toHaveCount(0);
    await expect(
      page.getByRole('button', { name: /^Show Subagent \d+ \(\d+ scrolled out of view on the right\)$/ }),
    ).toBeVisible();
    const one = (await first.boundingBox())!;
    expect(one.x).toBeGreaterThanOrEqual(box.x + box.width);
    await page.screenshot({ path: 'test-results/columns-1440.png' });
  });

  test('subagent colours are far apart, and each has a numbered marker of its own shape', async ({
    page,
  }) => {
    await openFour(page);
    const regions = [page.getByRole('region', { name: 'Parent messages' })];
    for (let n = 1; n <= SUBAGENTS; n++) regions.push(subagentRegion(page, n));
    const colours = await Promise.all(
      regions.map((r) => r.evaluate((e) => getComputedStyle(e).borderTopColor)),
    );
    const hues = colours.map(hue);
    for (let i = 0; i < hues.length; i++) {
      for (let j = i + 1; j < hues.length; j++) {
        expect(hueApart(hues[i], hues[j]), `${colours[i]} vs ${colours[j]}`).toBeGreaterThanOrEqual(30);
      }
    }
    const shapes: string[] = [];
    for (let n = 1; n <= SUBAGENTS; n++) {
      const marker = subagentRegion(page, n).getByRole('heading').locator('[data-shape]');
      await expect(marker).toHaveText(String(n));
      shapes.push((await marker.getAttribute('data-shape'))!);
    }
    expect(new Set(shapes).size).toBe(SUBAGENTS);
  });

  test('390 px wide: the arrays take turns, each named by its marker, and nothing overflows', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openFour(page);
    const choices = page.getByRole('radiogroup', { name: 'Array shown' });
    await expect(choices.getByRole('radio')).toHaveCount(SUBAGENTS + 1);
    for (let n = 1; n <= SUBAGENTS; n++) {
      await expect(
        page.locator('label.choice', { hasText: `Subagent ${n}` }).locator('[data-shape]'),
      ).toHaveText(String(n));
    }
    await choices.getByRole('radio', { name: 'Subagent 3' }).check({ force: true });
    await expect(subagentRegion(page, 3)).toBeVisible();
    await expect(page.getByRole('button', { name: /scrolled out of view/ })).toHaveCount(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: 'test-results/columns-390.png', fullPage: true });
  });
});
