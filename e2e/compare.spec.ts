/**
 * The lesson, measured: Compare runs the prompt without a subagent and isolated, each on a fresh
 * copy of the sample project, and the saving it shows is the one the records give.
 */
import { parallelRecord, parentCallsRecord } from '../scripts/records.mjs';
import {
  comparedRecords,
  expect,
  importFile,
  open,
  openOnEndpoint,
  parentList,
  PROMPTS,
  runSample,
  status,
  test,
  type RecordFile,
} from './fixtures';

/** The number in a text such as "~1,151 tokens" (the first one). */
function tokensIn(text: string): number {
  return Number(/~?([\d,]+) tokens/.exec(text)![1].replaceAll(',', ''));
}

for (const prompt of [PROMPTS.framework, PROMPTS.summarisePy, PROMPTS.module]) {
  test(`Compare shows the saving of isolation the records give: ${prompt}`, async ({ page }) => {
    // Prompt 3 waits for Pyodide in its first python3 run.
    if (prompt === PROMPTS.module) test.setTimeout(60_000);
    await open(page);
    await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
    await page.getByRole('button', { name: 'Compare' }).click();
    const region = page.getByRole('region', { name: 'Comparison' });
    await expect(region).toBeVisible();
    await expect(region.getByText(/^Isolation saved \d+% of the parent's context\.$/)).toBeVisible({
      timeout: 30_000,
    });
    await expect(status(page)).toHaveText(/^Finished/);

    // The parent's context per mode (docs/protocol.md: one measure, src/run/context.ts), as the
    // table shows it; the isolated run is the one on screen, whose header says the same.
    const none = tokensIn(await region.getByRole('row').filter({ hasText: 'No subagent' }).innerText());
    const isolated = tokensIn(
      await region.getByRole('row').filter({ hasText: 'Isolated (s04)' }).innerText(),
    );
    expect(tokensIn(await page.getByText(/^Parent keeps/).innerText())).toBe(isolated);
    expect(isolated).toBeLessThan(none);
    const saving = Math.round((1 - isolated / none) * 100);
    await expect(region).toContainText(`Isolation saved ${saving}% of the parent's context.`);
    // The tutorial's figure is for prompt 1 only.
    if (prompt === PROMPTS.framework) await expect(region).toContainText('The tutorial says 88%');
    else await expect(region).not.toContainText('The tutorial says');
    // Each on a fresh copy of the sample project: the same files at the start of both.
    const rows = region.getByRole('row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText('No subagent');
    await expect(rows.nth(2)).toContainText('Isolated (s04)');
    // The chart draws the single agent's parent over the isolated run.
    await expect(page.getByRole('region', { name: 'Context per model call' })).toContainText(
      'Parent without a subagent',
    );

    // The records History keeps of the comparison: the single agent ran first, then the isolated run.
    const kept = await comparedRecords(page);
    expect(Object.keys(kept).sort()).toEqual(['isolated', 'none']);
    expect(kept.none.startedAt).toBeLessThan(kept.isolated.startedAt);
    const records = (['none', 'isolated'] as const).map((mode) => ({ mode, record: kept[mode] }));
    // The runs really were of each mode: the single agent never spawned a subagent.
    const spawns = (r: { record: RecordFile }) => r.record.events.filter((e) => e.type === 'spawn').length;
    expect(spawns(records[0])).toBe(0);
    expect(spawns(records[1])).toBeGreaterThan(0);
    if (prompt === PROMPTS.module) {
      // Prompt 3 verifies the new module with python3 in both runs; each run has its own fresh
      // copy of the project, so both verifications print the same.
      type Event = { type: string; id?: string; input?: unknown; output?: string };
      const verified = records.map(({ record }) => {
        const events = record.events as Event[];
        const ids = events
          .filter((e) => e.type === 'tool_start' && JSON.stringify(e.input).includes('python3'))
          .map((e) => e.id);
        return events
          .filter((e) => e.type === 'tool_end' && ids.includes(e.id))
          .map((e) => e.output!.replace(/^\[python3: loading Pyodide.*\]\n/m, ''));
      });
      expect(verified[0].length).toBeGreaterThan(0);
      expect(verified[1]).toEqual(verified[0]);
      expect(verified[0].at(-1)).toMatch(/passed\nexit code: 0$/);
    }
  });
}

test('Stop during a comparison ends it and keeps the runs finished so far', async ({ page }) => {
  await open(page, 'speed=normal');
  await page.getByRole('textbox', { name: 'Prompt' }).fill(PROMPTS.framework);
  await page.getByRole('button', { name: 'Compare' }).click();
  const region = page.getByRole('region', { name: 'Comparison' });
  // The second run (isolated) is under way once a subagent appears.
  await expect(page.getByRole('region', { name: 'Subagent 1 messages' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status(page)).toHaveText(/^Stopped/);
  await expect(region).toContainText('The comparison ended early');
  await expect(region.getByRole('row').nth(1)).toContainText('Finished');
  await expect(region).not.toContainText('Isolation saved');
});

test('a comparison whose second run fails shows the first run and the failure', async ({ page }) => {
  // The endpoint answers the single agent but refuses a request that offers `task`.
  await openOnEndpoint(page, 'mock-no-task');
  await page.getByRole('textbox', { name: 'Prompt' }).fill(PROMPTS.framework);
  await page.getByRole('button', { name: 'Compare' }).click();
  const region = page.getByRole('region', { name: 'Comparison' });
  await expect(status(page)).toHaveText(/^Failed: .*400.*task/, { timeout: 30_000 });
  await expect(region).toContainText(/The comparison ended early: Failed: .*400/);
  const rows = region.getByRole('row');
  await expect(rows.nth(1)).toContainText('No subagent');
  await expect(rows.nth(1)).toContainText('Finished');
  await expect(region).not.toContainText('Isolation saved');
  // The failed run's arrays stay on screen: its prompt, and no answer.
  await expect(parentList(page).first()).toContainText(PROMPTS.framework);
});

test.describe('loop limits and recursion', () => {
  test('a limit changed in the URL is labelled non-reference; Settings refuses one out of range', async ({
    page,
  }) => {
    await open(page, 'speed=instant&cap=5');
    await expect(page.getByText('not the reference s04: a teaching variant')).toBeVisible();
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await expect(dialog.getByRole('spinbutton', { name: 'Subagent call cap' })).toHaveValue('5');
    await dialog.getByRole('spinbutton', { name: 'Subagent call cap' }).fill('500');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'Subagent call cap must be a whole number from 1 to 100.',
    );
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Reference values' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('not the reference s04: a teaching variant')).toHaveCount(0);
  });

  test('recursion at depth 2: the timeline shows the grandchild under the subagent that started it', async ({
    page,
  }) => {
    await open(page, 'speed=instant&depth=2');
    await runSample(page, PROMPTS.summarisePy);
    const timeline = page.getByRole('region', { name: 'Workers timeline' });
    const rows = timeline.getByRole('listitem');
    await expect(rows.filter({ hasText: 'Subagent 2' })).toHaveCount(1);
    await expect(
      rows.filter({ hasText: 'Subagent 2' }).locator('[title="started by Subagent 1"]'),
    ).toHaveCount(1);
    // The tree order: the grandchild right under its caller.
    const names = (await rows.locator('.name').allInnerTexts()).map((n) => n.replace('└ ', '').trim());
    // The next task's worker may already wait as a spare, after the rest.
    const spares = await rows
      .filter({ hasText: 'waiting for the next task' })
      .locator('.name')
      .allInnerTexts();
    expect(spares).toEqual(names.length === 5 ? ['Subagent 3'] : []);
    expect(names.slice(0, 4)).toEqual(['Sandbox', 'Parent', 'Subagent 1', 'Subagent 2']);
  });
});

test('twelve subagents at once: one timeline row each, overlapping in time, each a step away', async ({
  page,
}) => {
  await open(page);
  await importFile(page, 'parallel-12.json', JSON.stringify(parallelRecord(12)));
  const timeline = page.getByRole('region', { name: 'Workers timeline' });
  const rows = timeline.getByRole('listitem');
  await expect(rows).toHaveCount(13);
  const names = (await rows.locator('.name').allInnerTexts()).map((n) => n.replace('└ ', '').trim());
  expect(names).toEqual(['Parent', ...Array.from({ length: 12 }, (_, k) => `Subagent ${k + 1}`)]);
  // Parallel: every subagent's life overlaps every other's on screen.
  const lives = await rows.locator('.life').evaluateAll((spans) =>
    spans.map((span) => {
      const box = span.getBoundingClientRect();
      return [box.left, box.right];
    }),
  );
  const subagents = lives.slice(1);
  const latestStart = Math.max(...subagents.map(([left]) => left));
  const earliestEnd = Math.min(...subagents.map(([, right]) => right));
  expect(latestStart).toBeLessThan(earliestEnd);
  // Readable: each row at least as tall as a line of its name, and no two rows on top of each other.
  const boxes = await rows.evaluateAll((items) => items.map((item) => item.getBoundingClientRect().toJSON()));
  for (let i = 1; i < boxes.length; i++) {
    expect(boxes[i].top).toBeGreaterThanOrEqual(boxes[i - 1].bottom - 0.5);
    expect(boxes[i].height).toBeGreaterThanOrEqual(12);
  }
  // Beside the chart, the rows take the panel's height: none is cut off above empty space.
  const list = (await timeline.getByRole('list').boundingBox())!;
  const panel = (await timeline.boundingBox())!;
  expect(list.y + list.height).toBeGreaterThan(panel.y + panel.height - 16);
  // A click on Subagent 12's last model call steps the run to it.
  await rows
    .nth(12)
    .getByRole('button', { name: /Subagent 12: model call 3/ })
    .click();
  await expect(page.getByRole('region', { name: 'Subagent 12 messages' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Subagent 1 messages' })).toBeVisible();
});

test('a thousand calls in one row: close calls are drawn as groups, each a step to its first call', async ({
  page,
}) => {
  await open(page);
  await importFile(page, 'calls-1000.json', JSON.stringify(parentCallsRecord(1000, 200)));
  const parentRow = page
    .getByRole('region', { name: 'Workers timeline' })
    .getByRole('listitem')
    .filter({ hasText: 'Parent' });
  const segments = parentRow.getByRole('button');
  await expect(parentRow.getByRole('button', { name: /^Parent: model calls 1 to \d+,/ })).toHaveCount(1);
  // Fewer elements than calls, and every call inside one of them.
  const names = await segments.evaluateAll((buttons) =>
    buttons.map((b) => b.getAttribute('aria-label') ?? ''),
  );
  expect(names.length).toBeGreaterThan(10);
  expect(names.length).toBeLessThan(400);
  const covered = names
    .map((name) => /model calls (\d+) to (\d+)/.exec(name) ?? /model call (\d+)/.exec(name))
    .filter((m) => m !== null)
    .map((m) => Number(m[2] ?? m[1]) - Number(m[1]) + 1);
  expect(covered.reduce((a, b) => a + b, 0)).toBe(1000);
  // A group steps the run to its first call.
  const group = parentRow.getByRole('button', { name: /model calls \d+ to \d+/ }).nth(5);
  const [, first] = /model calls (\d+) to/.exec((await group.getAttribute('aria-label'))!)!;
  await group.click();
  // The parent's array as that call began: the prompt, then a call and its result per call before.
  await expect(
    page
      .getByRole('region', { name: 'Parent messages' })
      .getByText(`${2 * Number(first) - 1} messages`, { exact: true }),
  ).toBeVisible();
  const slider = page.getByRole('slider', { name: 'Step' });
  expect(await slider.inputValue()).not.toBe(await slider.getAttribute('max'));
});
