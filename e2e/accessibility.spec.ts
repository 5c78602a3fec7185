/**
 * Every screen size and every user: axe-core finds nothing on the main screen, in Settings and
 * after a run (in English and Chinese); on a phone nothing runs off the side and the arrays take
 * turns behind a switch; on a laptop the arrays keep room to be read; on a projector the columns
 * use the width; and the keyboard alone reaches and works every control, with its focus in sight.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { parentCallsRecord } from '../scripts/records.mjs';
import {
  expect,
  exportRun,
  importFile,
  open,
  parentList,
  PROMPTS,
  status,
  subagentRegion,
  test,
  type RecordFile,
} from './fixtures';
import type { Language } from '../src/settings/language';
import { samplePrompts } from '../src/ui/sample-prompts';

/** axe-core's findings on the page as it is, one line per rule (every rule on, none excluded). */
async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * What sticks out of the viewport sideways: the page's own scroll width, and every control
 * on screen (buttons, fields, menus, radios) whose box leaves it.
 */
async function outside(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const found: string[] = [];
    const scrollWidth = document.scrollingElement!.scrollWidth;
    if (scrollWidth > width) found.push(`the page scrolls sideways: ${scrollWidth} > ${width}`);
    for (const element of document.querySelectorAll<HTMLElement>(
      'button, select, textarea, input, label, h1, h2, h3, [role=status]',
    )) {
      const box = element.getBoundingClientRect();
      // Hidden, or read by screen readers only (a 1 px box).
      if (box.width <= 1 || box.height <= 1) continue;
      if (box.left < 0 || box.right > width + 0.5) {
        const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 30);
        found.push(
          `${element.tagName.toLowerCase()} "${name}": ${Math.round(box.left)}..${Math.round(box.right)}`,
        );
      }
    }
    return found;
  });
}

/** Whether a control's box lies within the viewport's width. */
async function expectInside(page: Page, control: Locator): Promise<void> {
  const box = (await control.boundingBox())!;
  expect(box.x, await control.innerText()).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

/** Opens the playground in a language and waits for the sandbox. */
async function openIn(page: Page, lang: string, idle: RegExp): Promise<void> {
  await page.goto(`/?speed=instant&lang=${lang}`);
  await expect(status(page)).toHaveText(idle);
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
}

/** Runs sample prompt 2 (its button keeps its English name in every language) to the end. */
/** Clicks prompt 2 (the button in the screen's language) and waits for the run to finish. */
async function runPrompt2(page: Page, finished: RegExp, lang: Language = 'en'): Promise<void> {
  await page.getByRole('button', { name: samplePrompts('python', lang)[1], exact: true }).click();
  await expect(status(page)).toHaveText(finished, { timeout: 20_000 });
}

test('axe finds nothing on the main screen, in Settings, in History, and after prompt 2', async ({
  page,
}) => {
  // Five analyses of the whole page, 3-6 s each on a busy 2-core machine, and a run between them.
  test.setTimeout(60_000);
  await open(page);
  expect(await axeViolations(page), 'main screen').toEqual([]);

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await expect(settings).toBeVisible();
  expect(await axeViolations(page), 'Settings').toEqual([]);
  await settings.getByRole('button', { name: 'Cancel' }).click();
  await expect(settings).toBeHidden();

  await runPrompt2(page, /^Finished/);
  await expect(subagentRegion(page, 1)).toContainText(/discarded/i);
  expect(await axeViolations(page), 'after prompt 2').toEqual([]);

  // The chart's table alternative, built when asked for: a row per model call, in the run's order.
  const chart = page.getByRole('region', { name: 'Context per model call' });
  const toggle = chart.getByRole('button', { name: 'Show as a table' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(chart.getByRole('table')).toHaveCount(0);
  await toggle.click();
  const rows = chart.getByRole('table', { name: 'Context per model call' }).locator('tbody tr');
  const calls = (JSON.parse(await exportRun(page)) as RecordFile).events.filter(
    (e) => e.type === 'model_start',
  ).length;
  expect(calls).toBeGreaterThan(2);
  await expect(rows).toHaveCount(calls);
  await expect(rows.first().locator('td').first()).toHaveText('1');
  await expect(chart.getByRole('button', { name: 'Hide the table' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  expect(await axeViolations(page), 'the chart as a table').toEqual([]);

  await page.getByRole('button', { name: 'History' }).click();
  await expect(page.getByRole('dialog', { name: 'History' }).getByRole('listitem').first()).toBeVisible();
  expect(await axeViolations(page), 'History').toEqual([]);
});

test.describe('on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('nothing runs off the side, before and after a run; the switch shows the parent or a subagent', async ({
    page,
  }) => {
    await open(page);
    expect(await outside(page), 'main screen').toEqual([]);
    for (const name of ['Settings', 'Run', 'History', 'Import run', 'Export run']) {
      await expectInside(page, page.getByRole('button', { name, exact: true }));
    }
    await expectInside(page, page.getByRole('combobox', { name: 'Language' }));
    // With no subagent yet there is nothing to switch between.
    await expect(page.getByRole('radiogroup', { name: 'Array shown' })).toHaveCount(0);

    await runPrompt2(page, /^Finished/);
    expect(await outside(page), 'after prompt 2').toEqual([]);
    await expectInside(page, page.getByRole('button', { name: 'Export run', exact: true }));

    // The arrays take turns. The run ended with the parent shown: the subagent's final text
    // has just arrived there.
    const shown = page.getByRole('radiogroup', { name: 'Array shown' });
    const parent = page.getByRole('region', { name: 'Parent messages' });
    const sub = subagentRegion(page, 1);
    await expect(shown.getByRole('radio')).toHaveCount(2);
    await expect(shown.getByRole('radio', { name: 'Parent' })).toBeChecked();
    await expect(shown.getByRole('radio', { name: 'Subagent 1' })).toHaveAccessibleDescription(
      /tokens.*discarded/,
    );
    await expect(parent).toBeVisible();
    await expect(sub).toBeHidden();

    await shown.getByText('Subagent 1').click();
    await expect(shown.getByRole('radio', { name: 'Subagent 1' })).toBeChecked();
    await expect(sub).toBeVisible();
    await expect(parent).toBeHidden();
    await expect(sub.getByRole('listitem').first()).toHaveAttribute('data-role', 'user');
    expect(await outside(page), 'the subagent shown').toEqual([]);

    // By keyboard too: the arrow keys move along the switch.
    await shown.getByRole('radio', { name: 'Subagent 1' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect(shown.getByRole('radio', { name: 'Parent' })).toBeChecked();
    await expect(parent).toBeVisible();
    await expect(sub).toBeHidden();
  });

  for (const [lang, idle, finished] of [
    ['zh', /^空闲/, /^已完成/],
    ['ja', /^待機中/, /^完了/],
  ] as const) {
    test(`in ${lang}: nothing runs off the side after a run, and axe finds nothing`, async ({ page }) => {
      await openIn(page, lang, idle);
      expect(await outside(page), 'main screen').toEqual([]);
      await runPrompt2(page, finished, lang);
      expect(await outside(page), 'after prompt 2').toEqual([]);
      expect(await axeViolations(page), `after prompt 2 in ${lang}`).toEqual([]);
    });
  }
});

test.describe('on a laptop (1366 × 768)', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test('after a run the arrays keep room to be read; the chart and the timeline are a scroll away', async ({
    page,
  }) => {
    await open(page);
    await runPrompt2(page, /^Finished/);
    for (const region of [page.getByRole('region', { name: 'Parent messages' }), subagentRegion(page, 1)]) {
      expect((await region.boundingBox())!.height).toBeGreaterThan(300);
    }
    await expect(parentList(page).last()).toBeInViewport();
    for (const name of ['Context per model call', 'Workers timeline']) {
      const region = page.getByRole('region', { name });
      await region.scrollIntoViewIfNeeded();
      await expect(region).toBeInViewport();
    }
  });

  test('a record of 601 messages and 300 log lines scrolls inside its panels, not the page', async ({
    page,
  }) => {
    await open(page);
    await importFile(page, 'calls-300.json', JSON.stringify(parentCallsRecord(300, 2000)));
    await expect(page.getByRole('region', { name: 'Parent messages' })).toContainText('601 messages');
    const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(pageHeight).toBeLessThan(2 * 768);
    expect(
      (await page.getByRole('region', { name: 'Parent messages' }).boundingBox())!.height,
    ).toBeGreaterThan(300);
  });
});

test.describe('on a projector (1920 px)', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });

  test('the parent and subagent columns together span most of the width', async ({ page }) => {
    await open(page);
    await runPrompt2(page, /^Finished/);
    const parent = (await page.getByRole('region', { name: 'Parent messages' }).boundingBox())!;
    const sub = (await subagentRegion(page, 1).boundingBox())!;
    const span = sub.x + sub.width - parent.x;
    // The side panels (Files, Log) keep about a fifth; the arrays have the rest, with no gap left.
    expect(span / 1920).toBeGreaterThan(0.7);
    const files = (await page.getByRole('region', { name: 'Files' }).boundingBox())!;
    expect(files.x - (sub.x + sub.width)).toBeLessThan(40);
  });
});

test('the keyboard alone runs a sample prompt and reaches Export run, History and Settings', async ({
  page,
}) => {
  await open(page);

  /** Presses a key until the focused element is `target`; every stop on the way shows its focus. */
  async function pressUntil(key: string, target: Locator, limit = 80): Promise<void> {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press(key);
      const stop = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element || element === document.body) return null;
        const style = getComputedStyle(element);
        return {
          name: element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? '',
          outlined: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
        };
      });
      if (stop) expect(stop.outlined, `focus is visible on "${stop.name}"`).toBe(true);
      if (await target.evaluate((element) => element === document.activeElement)) return;
    }
    throw new Error(`${key} never reached ${target}`);
  }

  const sample = page.getByRole('button', { name: PROMPTS.summarisePy, exact: true });
  await pressUntil('Tab', sample);
  await page.keyboard.press('Enter');
  await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });
  await expect(subagentRegion(page, 1)).toBeVisible();

  // The step slider answers the arrow keys.
  const slider = page.getByRole('slider', { name: 'Step' });
  await pressUntil('Tab', slider);
  const last = Number(await slider.inputValue());
  await page.keyboard.press('ArrowLeft');
  await expect(slider).toHaveValue(String(last - 1));
  await page.keyboard.press('End');
  await expect(slider).toHaveValue(String(last));

  const exportRun = page.getByRole('button', { name: 'Export run' });
  await pressUntil('Tab', exportRun);
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await download).suggestedFilename()).toMatch(/^s04-run-.*\.json$/);

  const history = page.getByRole('button', { name: 'History' });
  await pressUntil('Shift+Tab', history);
  await page.keyboard.press('Space');
  const historyDialog = page.getByRole('dialog', { name: 'History' });
  await expect(historyDialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(historyDialog).toBeHidden();

  const settings = page.getByRole('button', { name: 'Settings' });
  await pressUntil('Shift+Tab', settings);
  await page.keyboard.press('Enter');
  const settingsDialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(settingsDialog).toBeVisible();
  // Focus is inside the dialog, and Tab stays there.
  await page.keyboard.press('Tab');
  expect(await settingsDialog.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(settingsDialog).toBeHidden();
});
