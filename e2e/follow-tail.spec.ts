/**
 * A long array that follows its end (a scrub, a run streaming in) shows only its last messages,
 * anchored at its bottom: a step lays the column out once and moves no scroll. Counted, never
 * timed (the time is the bench's, `npm run bench -- records`). The learner's own scroll still
 * stops the following where they are; Jump to latest, End and Home still work from the keyboard.
 */
import type { Page } from '@playwright/test';
import { parentCallsRecord, toolCallsRecord } from '../scripts/records.mjs';
import { expect, frames, importFile, open, parentList, status, test } from './fixtures';

/** The tail's longest (MessageColumn.svelte's TAIL_MAX). */
const TAIL = 16;

type Playground = {
  __s04: { stepTo(n: number): void; steps: number; shown: { parent: { messages: unknown[] } } };
};

/** The parent's scrolling list (the tail or the virtual list). */
const theList = (page: Page) =>
  page.getByRole('region', { name: 'Parent messages' }).locator('[role="list"]').first();

/** The indices of the parent's messages drawn at least partly inside its list's view. */
const inView = (page: Page) =>
  theList(page).evaluate((list) => {
    const box = list.getBoundingClientRect();
    return [...list.querySelectorAll<HTMLElement>('[data-index]')]
      .filter((item) => {
        const r = item.getBoundingClientRect();
        return r.bottom > box.top && r.top < box.bottom;
      })
      .map((item) => Number(item.dataset.index));
  });

test('scrubbing a followed long array draws its last messages at its end and moves no scroll', async ({
  page,
}) => {
  await open(page);
  await importFile(page, 'calls.json', JSON.stringify(toolCallsRecord(300)));
  await expect(status(page)).toHaveText(/^Finished/);
  await expect(parentList(page).last()).toHaveAttribute('data-index', '600');
  await frames(page, 3);
  const region = page.getByRole('region', { name: 'Parent messages' });
  // Scroll events do not bubble: a listener capturing them on the column hears its lists' own.
  await region.evaluate((column) => {
    const counted = window as unknown as { __scrolls: number };
    counted.__scrolls = 0;
    column.addEventListener('scroll', () => counted.__scrolls++, { capture: true });
  });
  const total = await page.evaluate(() => (window as unknown as Playground).__s04.steps);
  for (let i = 0; i < 30; i++) {
    // Back and forth across the run's second half, where the array is long (above 24 messages).
    const step = Math.floor(total * (0.5 + 0.5 * Math.abs(Math.sin(i))));
    const length = await page.evaluate((step) => {
      const playground = (window as unknown as Playground).__s04;
      playground.stepTo(step);
      return playground.shown.parent.messages.length;
    }, step);
    await frames(page, 2);
    expect(length).toBeGreaterThan(24);
    // Its newest message is drawn and in view, and the array holds no more than the tail.
    expect(await parentList(page).count()).toBeLessThanOrEqual(TAIL);
    await expect(parentList(page).last()).toHaveAttribute('data-index', String(length - 1));
    await expect(parentList(page).last()).toBeInViewport();
  }
  // The virtual list was scrolled to its end, at most every 150 ms, as it followed it.
  expect(await page.evaluate(() => (window as unknown as { __scrolls: number }).__scrolls)).toBe(0);
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0);
});

test('a learner scrolling up a followed long array stays where they scrolled; Jump to latest, End and Home still work', async ({
  page,
}) => {
  await open(page);
  await importFile(page, 'calls-300.json', JSON.stringify(parentCallsRecord(300, 300)));
  await expect(page.getByRole('region', { name: 'Parent messages' })).toContainText('601 messages');
  await expect(parentList(page).last()).toHaveAttribute('data-index', '600');
  await expect(parentList(page).last()).toBeInViewport();
  const top = Math.min(...(await inView(page)));

  // A turn of the wheel: the following stops, and the list stays near the messages that were in view.
  const box = (await theList(page).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -200);
  const jump = page.getByRole('button', { name: 'Jump to latest' });
  await expect(jump).toBeVisible();
  await frames(page);
  const shown = await inView(page);
  expect(Math.min(...shown)).toBeGreaterThanOrEqual(top - 6);
  expect(shown.some((index) => index <= top)).toBe(true);

  // Jump to latest: back at the end, following it.
  await jump.click();
  await expect(jump).toHaveCount(0);
  await expect(parentList(page).last()).toHaveAttribute('data-index', '600');
  await expect(parentList(page).last()).toBeInViewport();

  // Home from the keyboard reaches the first message, and the list keeps the focus; End comes back.
  await theList(page).focus();
  await page.keyboard.press('Home');
  await expect(parentList(page).first()).toHaveAttribute('data-index', '0');
  await expect(parentList(page).first()).toBeInViewport();
  await expect(theList(page)).toBeFocused();
  await page.keyboard.press('End');
  await expect(parentList(page).last()).toHaveAttribute('data-index', '600');
  await expect(parentList(page).last()).toBeInViewport();
  await expect(jump).toHaveCount(0);
  await expect(theList(page)).toBeFocused();
});
