/**
 * A run of 340 subagents at once: the pane draws only the columns near its view (and the Workers
 * timeline only the rows near its own), yet every column can be scrolled to and is named as any other; the column a presentation or a step is about is
 * shown, in view, with the figures of the call ledger. How long any of it takes is the bench's
 * (scripts/bigrun-bench.mjs).
 */
import type { Page } from '@playwright/test';
import { parallelRecord } from '../scripts/records.mjs';
import { agentFigures } from '../src/run/measures';
import type { RunRecord } from '../src/run/record';
import { Replay } from '../src/run/replay';
import { expect, importFile, open, status, stepSlider, test } from './fixtures';

const SUBAGENTS = 340;
const SIZE = { width: 1440, height: 900 };
const regions = (page: Page) => page.getByRole('region', { name: /^Subagent \d+ messages$/ });

async function openBig(page: Page): Promise<void> {
  await page.setViewportSize(SIZE);
  await open(page);
  await importFile(page, 'big.json', JSON.stringify(RECORD));
  await expect(status(page)).toHaveText(/^Finished/);
  await expect(page.getByRole('region', { name: `Subagent ${SUBAGENTS} messages` })).toBeVisible();
}

/** The numbers of the subagent regions on screen now. */
async function shownNumbers(page: Page): Promise<number[]> {
  const names = await regions(page).evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')!));
  return names.map((name) => Number(/^Subagent (\d+) messages$/.exec(name)![1]));
}

/** The run the page opens; the figures it must show are computed from it here, by the app's own ledger. */
const RECORD = parallelRecord(SUBAGENTS) as unknown as RunRecord;

/** The context figure the call ledger gives Subagent `n` at the step the page shows (its `Step` slider). */
async function ledgerContext(page: Page, n: number): Promise<number> {
  const step = Number(await stepSlider(page).inputValue());
  const view = new Replay(RECORD.events).at(step);
  return agentFigures(view.subagents.find((a) => a.id === `subagent-${n}`)!).context;
}

/** Whether a box lies within the window, sideways and at its top. */
function inView(box: { x: number; y: number; width: number; height: number } | null): boolean {
  return (
    box !== null && box.x >= 0 && box.x + box.width <= SIZE.width + 0.5 && box.y >= 0 && box.y < SIZE.height
  );
}

test('every one of 340 columns can be scrolled to, named as the contract says', async ({ page }) => {
  test.slow(); // 340 columns, one view at a time
  await openBig(page);
  // Far fewer columns are drawn than there are subagents.
  expect((await shownNumbers(page)).length).toBeLessThan(40);

  // Back to the first column with the wheel over the pane, then on through all of them.
  const last = page.getByRole('region', { name: `Subagent ${SUBAGENTS} messages` });
  const box = (await last.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 40);
  await page.mouse.wheel(-SUBAGENTS * 400, 0);
  await expect(page.getByRole('region', { name: 'Subagent 1 messages' })).toBeVisible();
  await expect(page.getByRole('button', { name: /scrolled out of view on the left/ })).toHaveCount(0);

  // On through the pane, less than its width at a time (each column is in view at some point):
  // the regions drawn at each place, read after the pane has drawn.
  const seen = new Set<number>(
    await page.getByRole('region', { name: 'Subagent 1 messages' }).evaluate(async (first) => {
      const pane = first.parentElement!;
      const names = new Set<number>();
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const read = () => {
        for (const el of pane.querySelectorAll('section[aria-label]')) {
          const found = /^Subagent (\d+) messages$/.exec(el.getAttribute('aria-label')!);
          if (found) names.add(Number(found[1]));
        }
      };
      read();
      while (pane.scrollLeft + pane.clientWidth < pane.scrollWidth - 1) {
        pane.scrollBy({ left: pane.clientWidth * 0.8, behavior: 'instant' });
        await frame();
        await frame();
        read();
      }
      return [...names];
    }),
  );
  expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: SUBAGENTS }, (_, i) => i + 1));
  // The Workers timeline draws the rows near its view too: its last row is reached by scrolling.
  const timeline = page.getByRole('region', { name: 'Workers timeline' });
  const lastRow = timeline.getByRole('listitem').filter({ hasText: `Subagent ${SUBAGENTS}` });
  await expect(lastRow).toHaveCount(0);
  await timeline.getByRole('listitem').filter({ hasText: 'Subagent 1' }).first().hover();
  for (let turn = 0; turn < 100 && !(await lastRow.count()); turn++) await page.mouse.wheel(0, 2000);
  await expect(lastRow).toBeVisible();
  expect(await timeline.getByRole('listitem').count()).toBeLessThan(SUBAGENTS);
  // At the end, the arrow on the left names the column before the first in view.
  await expect(
    page.getByRole('button', { name: /^Show Subagent \d+ \(\d+ scrolled out of view on the left\)$/ }),
  ).toBeVisible();
});

test('presented and stepped far into the run, the column of its subject is shown in view with its figures', async ({
  page,
}) => {
  test.slow();
  await openBig(page);
  const steps = Number(await stepSlider(page).getAttribute('max'));
  // A step a fifth of the way in: the pane is scrolled to the end, far from that step's subjects.
  await stepSlider(page).fill(String(Math.round(steps / 5)));
  await expect(status(page)).toHaveText(new RegExp(`step ${Math.round(steps / 5)} of ${steps}$`));
  await page.getByRole('button', { name: 'Present' }).click();
  const caption = page.getByRole('region', { name: 'Caption' });
  for (let k = 0; k < 4; k++) {
    await expect(status(page)).toHaveText(/Presenting: paused at moment \d+ of \d+$/);
    const subject = page.locator('[aria-current="true"]');
    await expect(subject).toHaveCount(1);
    const region = page.getByRole('region').filter({ has: subject });
    const name = (await region.getAttribute('aria-label'))!;
    const said = (await caption.getByRole('paragraph').textContent())!;
    expect(said).toContain(name.replace(/ messages$/, ''));
    await expect.poll(async () => inView(await region.boundingBox())).toBe(true);
    const n = Number(/^Subagent (\d+)/.exec(name)?.[1] ?? 0);
    if (n > 0) {
      const tokens = (await ledgerContext(page, n)).toLocaleString('en');
      await expect(region.getByText(new RegExp(`^${tokens} tokens in context`))).toBeVisible();
    }
    const before = (await status(page).textContent())!;
    await page.keyboard.press('ArrowRight');
    await expect(status(page)).not.toHaveText(before);
  }
  await page.getByRole('button', { name: 'Present' }).click();

  // Stepped with the slider's keys from the start: each subagent is shown in view as it starts.
  await stepSlider(page).focus();
  await page.keyboard.press('Home');
  await expect(status(page)).toHaveText(new RegExp(`step 0 of ${steps}$`));
  for (const n of [1, 2, 3]) {
    const region = page.getByRole('region', { name: `Subagent ${n} messages` });
    for (let turn = 0; turn < 60 && !(await region.count()); turn++) {
      const before = (await status(page).textContent())!;
      await page.keyboard.press('ArrowRight');
      await expect(status(page)).not.toHaveText(before);
    }
    await expect.poll(async () => inView(await region.boundingBox())).toBe(true);
    const tokens = (await ledgerContext(page, n)).toLocaleString('en');
    await expect(region.getByText(new RegExp(`^${tokens} tokens in context`))).toBeVisible();
  }
  // And at the end, the last one, with the figure the ledger has for it there.
  await page.keyboard.press('End');
  await expect(status(page)).toHaveText(/^Finished$/);
  const region = page.getByRole('region', { name: `Subagent ${SUBAGENTS} messages` });
  await expect.poll(async () => inView(await region.boundingBox())).toBe(true);
  const tokens = (await ledgerContext(page, SUBAGENTS)).toLocaleString('en');
  await expect(region.getByText(new RegExp(`^${tokens} tokens in context`))).toBeVisible();
});
