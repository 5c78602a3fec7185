/**
 * The chart and the timeline read right: what each call sent, held between an agent's calls
 * (steps, no slope), the y axis has round ticks in tokens with `k`, every compared
 * mode is plotted with a legend and table rows; the timeline has a time axis, labels on bars that
 * fit them, details on hover and on keyboard focus, the sandbox row explained, the spare compact.
 */
import type { Locator, Page } from '@playwright/test';
import { comparedRecords, expect, open, PROMPTS, runSample, status, test } from './fixtures';

const chart = (page: Page) => page.getByRole('region', { name: 'Context per model call' });
const timeline = (page: Page) => page.getByRole('region', { name: 'Workers timeline' });

/** The chart's table alternative as rows of [call in the run, agent (or compared run), sent]. */
async function chartRows(page: Page): Promise<Array<[number, string, number]>> {
  const toggle = chart(page).getByRole('button', { name: 'Show as a table' });
  if (await toggle.isVisible()) await toggle.click();
  const cells = await chart(page)
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
  // A call is named "Parent call 2", or "Parent with Fork · Parent call 2" for a compared run.
  return cells.map(([n, call, sent]) => [
    Number(n),
    call.includes(' · ') ? call.split(' · ')[0] : call.replace(/ call \d+$/, ''),
    Number(sent.replace(/,/g, '')),
  ]);
}

/** The heights (px from the plot's top) where the parent's blue is drawn, in the canvas column at call `x`. */
async function parentPixelsAt(plot: Locator, x: number, calls: number): Promise<number[]> {
  return plot.evaluate(
    (host, [x, calls]) => {
      const over = host.querySelector<HTMLElement>('.u-over')!;
      const canvas = host.querySelector('canvas')!;
      const left = parseFloat(over.style.left);
      const top = parseFloat(over.style.top);
      const width = parseFloat(over.style.width);
      const height = parseFloat(over.style.height);
      const scale = canvas.width / canvas.getBoundingClientRect().width;
      const px = Math.round((left + ((x - 1) / (calls - 1)) * width) * scale);
      const column = canvas
        .getContext('2d')!
        .getImageData(px, Math.round(top * scale), 1, Math.round(height * scale)).data;
      const found: number[] = [];
      // The parent's line is #2563eb: blue well above red and green.
      for (let y = 0; y < column.length / 4; y++) {
        const [r, g, b, a] = column.slice(y * 4, y * 4 + 4);
        if (a > 128 && b > 180 && r < 110 && g < 150) found.push(y / scale);
      }
      return found;
    },
    [x, calls] as const,
  );
}

test('prompt 1: the parent holds its context while the subagent works: steps, round ticks in tokens', async ({
  page,
}) => {
  await open(page);
  await runSample(page, PROMPTS.framework);
  const rows = await chartRows(page);
  const parent = rows.filter(([, agent]) => agent === 'Parent');
  // The parent calls, hands out its task, and calls again when the subagent returns.
  expect(parent.length).toBe(2);
  const [[first, , before], [second, , after]] = parent;
  expect(second - first).toBeGreaterThan(1);
  expect(after).toBeGreaterThan(before);

  const plot = chart(page).locator('.plot');
  const ticks = (await plot.getAttribute('data-y-ticks'))!.split(' ');
  const peak = Math.max(...rows.map(([, , context]) => context));
  // At least four ticks, round, from 0 past the peak, written with `k` from a thousand up.
  expect(ticks.length).toBeGreaterThanOrEqual(4);
  expect(ticks[0]).toBe('0');
  const values = ticks.map((tick) => (tick.endsWith('k') ? Number(tick.slice(0, -1)) * 1000 : Number(tick)));
  expect(values.at(-1)).toBeGreaterThanOrEqual(peak);
  expect(ticks.filter((tick) => Number(tick) >= 1000)).toEqual([]);
  expect(ticks.some((tick) => /^\d+(\.\d+)?k$/.test(tick))).toBe(peak >= 1000);

  // Between the parent's two calls, its line is at its first value (held), never on the way up.
  // Looked at every half call: where a subagent sent about as much, its line is drawn over it.
  const top = values.at(-1)!;
  const box = await plot.locator('.u-over').boundingBox();
  const height = box!.height;
  const calls = rows.at(-1)![0];
  const heldAt = height * (1 - before / top);
  let held = 0;
  for (let x = first + 0.5; x < second; x += 0.5) {
    const blue = await parentPixelsAt(plot, x, calls);
    if (blue.some((y) => Math.abs(y - heldAt) <= 3)) held++;
    const slopeAt = height * (1 - (before + ((after - before) * (x - first)) / (second - first)) / top);
    expect(blue.some((y) => Math.abs(y - slopeAt) <= 3 && Math.abs(y - heldAt) > 3)).toBe(false);
  }
  expect(held).toBeGreaterThan(0);
});

test('a subagent that joins the conversation gets a line of its own on the same plot, not a new plot', async ({
  page,
}) => {
  await open(page);
  await runSample(page, PROMPTS.framework);
  const plot = chart(page).locator('.plot');
  await expect(plot).toHaveAttribute('data-series', 'Parent|Subagent 1');
  // The plot's canvas, marked: a plot built again (canvases, axes, fonts) would have a new one.
  await plot.locator('canvas').evaluate((canvas) => (canvas.dataset.kept = 'yes'));
  await runSample(page, PROMPTS.framework);
  await expect(plot).toHaveAttribute('data-series', 'Parent|Subagent 1|Subagent 2');
  await expect(plot.locator('canvas')).toHaveAttribute('data-kept', 'yes');
  // Its line is drawn: pixels of its legend colour on the canvas.
  const swatch = chart(page).locator('.legend .key', { hasText: 'Subagent 2' }).locator('.swatch');
  const colour = await swatch.evaluate((element) => getComputedStyle(element).backgroundColor);
  const drawn = await plot.evaluate((host, colour) => {
    const [r, g, b] = colour.match(/\d+/g)!.map(Number);
    const canvas = host.querySelector('canvas')!;
    const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let count = 0;
    for (let i = 0; i < pixels.length; i += 4)
      if (Math.abs(pixels[i] - r) + Math.abs(pixels[i + 1] - g) + Math.abs(pixels[i + 2] - b) < 30) count++;
    return count;
  }, colour);
  expect(drawn).toBeGreaterThan(10);
});

test('Compare with Fork: every mode is plotted, with a legend entry and table rows each', async ({
  page,
}) => {
  await open(page);
  await page.getByRole('textbox', { name: 'Prompt' }).fill(PROMPTS.framework);
  await page.getByRole('checkbox', { name: 'with Fork' }).check();
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page.getByRole('region', { name: 'Comparison' }).getByText(/^Isolation saved/)).toBeVisible({
    timeout: 30_000,
  });
  await expect(status(page)).toHaveText(/^Finished/);
  const legend = chart(page).locator('.legend');
  for (const name of ['Parent', 'Subagent 1', 'Parent without a subagent', 'Parent with Fork']) {
    await expect(legend.getByText(name, { exact: true })).toBeVisible();
  }
  await expect(chart(page).locator('.plot')).toHaveAttribute(
    'data-series',
    'Parent without a subagent|Parent with Fork|Parent|Subagent 1',
  );
  // The table: a row per parent call of each compared run, as many as that run made.
  const rows = await chartRows(page);
  // Each compared run's parent calls, from the records History keeps of the comparison.
  const kept = await comparedRecords(page);
  const parentCalls = Object.fromEntries(
    Object.entries(kept).map(([mode, record]) => [
      mode,
      record.events.filter((e) => e.type === 'model_start' && e.agent === 'parent').length,
    ]),
  );
  expect(rows.filter(([, agent]) => agent === 'Parent without a subagent').length).toBe(parentCalls.none);
  expect(rows.filter(([, agent]) => agent === 'Parent with Fork').length).toBe(parentCalls.fork);
  expect(rows.filter(([, agent]) => agent === 'Parent').length).toBe(parentCalls.isolated);
  expect(parentCalls.fork).toBeGreaterThan(0);
});

test('the timeline: a time axis, labels that fit their bars, details on hover and focus, the sandbox told', async ({
  page,
}) => {
  // At the demo's own pace: at `speed=instant` the agents' whole run takes a few milliseconds of
  // their workers' time, and no bar is wide enough for a label.
  await open(page, 'speed=normal');
  await runSample(page, PROMPTS.framework);
  const region = timeline(page);
  // A time axis under the tracks: 0 at the left, at least one more tick, in s or ms.
  const ticks = region.locator('.tick');
  await expect(ticks.first()).toHaveText('0');
  const labels = await ticks.allInnerTexts();
  expect(labels.length).toBeGreaterThanOrEqual(2);
  for (const label of labels.slice(1)) expect(label).toMatch(/^\d+(\.\d+)? (s|ms)$/);
  const firstTick = (await ticks.first().boundingBox())!;
  const parentTrack = (await region
    .getByRole('listitem')
    .filter({ hasText: 'Parent' })
    .locator('.track')
    .boundingBox())!;
  expect(Math.abs(firstTick.x - parentTrack.x)).toBeLessThanOrEqual(2);

  // The sandbox row says what it is.
  await expect(region.getByRole('listitem').filter({ hasText: 'Sandbox' })).toContainText(
    "runs every agent's tools",
  );

  // The parent's task bar is long enough for its label, and says `task`; no label overflows its bar.
  const task = region.getByRole('button', { name: /^Parent: task, \d+ ms$/ });
  await expect(task).toHaveText('task');
  const overflows = await region
    .getByRole('button')
    .evaluateAll((bars) => bars.filter((bar) => bar.scrollWidth > bar.clientWidth + 1).length);
  expect(overflows).toBe(0);

  // Details on hover, and on keyboard focus.
  const detail = region.getByRole('tooltip');
  await expect(detail).toHaveCount(0);
  await task.hover();
  await expect(detail).toContainText(/^Parent: task, \d+ ms/);
  await expect(detail).toContainText(/from \d+\.\d+ s to \d+\.\d+ s · click to step there/);
  await page.mouse.move(0, 0);
  await expect(detail).toHaveCount(0);
  const subagentCall = region.getByRole('button', { name: /^Subagent 1: model call 1, / });
  await subagentCall.focus();
  await expect(subagentCall).toBeFocused();
  await expect(detail).toContainText(/^Subagent 1: model call 1, \d+ ms/);
  await page.keyboard.press('Tab');
  await expect(detail).toContainText(/^Subagent 1: /);

  // Every row's name whole; and no spare, now that the run is over (none can give it a task).
  const rows = region.getByRole('listitem');
  const cut = await rows
    .locator('.name')
    .evaluateAll((names) => names.filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent));
  expect(cut).toEqual([]);
  await expect(region).not.toContainText(/spare/i);
});

test('the spare: one short row while the live run can give it a task, gone once the run is over', async ({
  page,
}) => {
  test.slow(); // a whole run at a person's pace
  // At a pace a class follows: the parent's last call, after its task returned, takes seconds.
  await open(page, 'speed=slow');
  await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
  const region = timeline(page);
  const rows = region.getByRole('listitem');
  const spare = rows.filter({ hasText: 'Subagent 2' });
  // Started ahead as the task returned, while the parent still works: it could take a next task.
  await expect(spare).toContainText('spare', { timeout: 30_000 });
  await expect(status(page)).toHaveText(/^Running/);
  await expect(spare.getByText('started ahead, waiting for the next task')).toBeVisible();
  const spareBox = (await spare.boundingBox())!;
  const parentBox = (await rows.filter({ hasText: 'Parent' }).boundingBox())!;
  expect(spareBox.height).toBeLessThan(parentBox.height * 0.75);
  const cut = await rows
    .locator('.name')
    .evaluateAll((names) => names.filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent));
  expect(cut).toEqual([]);
  // Over: the run shows only the workers that worked.
  await expect(status(page)).toHaveText(/^Finished/, { timeout: 30_000 });
  await expect(rows.filter({ hasText: 'Subagent 2' })).toHaveCount(0);
});
