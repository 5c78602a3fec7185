/**
 * A run is its record: step through it, keep it (History), export it and open it again.
 */
import type { Page } from '@playwright/test';
import { parentCallsRecord } from '../scripts/records.mjs';
import {
  arrays,
  expect,
  exportRun,
  frames,
  importFile,
  open,
  parentList,
  PROMPTS,
  runSample,
  status,
  stepSlider,
  subagentRegion,
  test,
} from './fixtures';

async function keptRuns(page: Page) {
  await page.getByRole('button', { name: 'History' }).click();
  const dialog = page.getByRole('dialog', { name: 'History' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('step-through', () => {
  test('before the first spawn there is no subagent; after its return it is discarded; Latest goes to the end', async ({
    page,
  }) => {
    await open(page);
    await runSample(page, PROMPTS.framework);
    const slider = stepSlider(page);
    const steps = Number(await slider.getAttribute('max'));
    expect(steps).toBeGreaterThan(10);
    await expect(slider).toHaveValue(String(steps));

    // Back to the start: nothing has happened yet.
    await slider.fill('0');
    await expect(parentList(page)).toHaveCount(0);
    await expect(subagentRegion(page, 1)).toHaveCount(0);

    // Step forward until the subagent appears; just before, there was none.
    let at = 0;
    while ((await subagentRegion(page, 1).count()) === 0) {
      await page.getByRole('button', { name: 'Next step' }).click();
      at++;
      expect(at).toBeLessThan(steps);
    }
    await expect(slider).toHaveValue(String(at));
    await expect(subagentRegion(page, 1)).not.toContainText(/discarded/i);
    // The parent's task call is there, its result not yet.
    await expect(parentList(page)).toHaveCount(2);
    await page.getByRole('button', { name: 'Previous step' }).click();
    await expect(subagentRegion(page, 1)).toHaveCount(0);

    // The arrow keys step too (outside text fields).
    await page.getByRole('heading', { name: 'Parent' }).click();
    await page.keyboard.press('ArrowRight');
    await expect(slider).toHaveValue(String(at));
    await expect(subagentRegion(page, 1)).toBeVisible();
    // The run is finished: a past step of it says so, and which step it is.
    await expect(status(page)).toHaveText(`Finished · step ${at} of ${steps}`);

    // Latest (a finished run has no Live): back to the end, where the subagent was discarded.
    await expect(page.getByRole('button', { name: 'Live' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Latest' }).click();
    await expect(status(page)).toHaveText(/^Finished$/);
    await expect(subagentRegion(page, 1)).toContainText(/discarded/i);
    await expect(parentList(page)).toHaveCount(4);
    await expect(page.getByRole('button', { name: 'Latest' })).toBeDisabled();
  });

  test('during a run, a step back holds the screen still and Live returns to the run as it goes', async ({
    page,
  }) => {
    await open(page, 'speed=normal');
    await page.getByRole('button', { name: PROMPTS.summarisePy, exact: true }).click();
    await expect(subagentRegion(page, 1)).toBeVisible();
    await page.getByRole('button', { name: 'Previous step' }).click();
    const held = await stepSlider(page).inputValue();
    // The run goes on (its steps grow) while the screen stays on the step chosen.
    const steps = await stepSlider(page).getAttribute('max');
    await expect(stepSlider(page)).not.toHaveAttribute('max', String(steps), { timeout: 15_000 });
    expect(await stepSlider(page).inputValue()).toBe(held);
    await page.getByRole('button', { name: 'Live' }).click();
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 30_000 });
    await expect(stepSlider(page)).toHaveValue(await stepSlider(page).getAttribute('max').then(String));
  });
});

test.describe('History, export and import', () => {
  test('a reload during a run keeps it in History, interrupted, with its messages', async ({ page }) => {
    await open(page, 'speed=normal');
    await page.getByRole('button', { name: PROMPTS.summarisePy, exact: true }).click();
    await expect(subagentRegion(page, 1).getByRole('listitem').nth(2)).toBeVisible({ timeout: 15_000 });
    const before = await parentList(page).allTextContents();
    // History holds the run as it was at a moment after those messages were read.
    const read = await page.evaluate(() => performance.now());
    await page.waitForFunction(
      (read) => performance.getEntriesByName('history:saved').some((mark) => mark.startTime >= read),
      read,
    );
    await page.reload();
    await expect(status(page)).toHaveText(/^Idle/);

    const dialog = await keptRuns(page);
    const run = dialog.getByRole('listitem').first();
    await expect(run).toContainText(PROMPTS.summarisePy);
    await expect(run).toContainText('interrupted');
    await run.getByRole('button', { name: 'Open' }).click();
    await expect(status(page)).toHaveText(/^Stopped: interrupted/);
    // Everything that was on screen before the reload is kept, in order. The run went on until
    // the reload (a subagent may have returned meanwhile), so the kept array may be longer.
    const kept = await parentList(page).allTextContents();
    expect(kept.slice(0, before.length)).toEqual(before);
    await expect(subagentRegion(page, 1)).toBeVisible();
    await expect(page.getByRole('note')).toContainText('a run kept in History');
  });

  test('export, then import: the same arrays, read-only, labelled with the file; run it again', async ({
    page,
  }) => {
    await open(page);
    await runSample(page, PROMPTS.framework);
    const shown = await arrays(page);
    const file = await exportRun(page);
    const record = JSON.parse(file);
    expect(record.format).toBe('s04-playground-run');
    expect(record.version).toBe(2);
    expect(record.title).toBe(PROMPTS.framework);

    await page.getByRole('button', { name: 'New conversation' }).click();
    await expect(parentList(page)).toHaveCount(0);
    await importFile(page, 'my-run.json', file);
    await expect(page.getByRole('note')).toContainText('Viewing the file my-run.json, read-only.');
    expect(await arrays(page)).toEqual(shown);
    await expect(status(page)).toHaveText(/^Finished/);

    // Stepping works on an opened run too.
    await stepSlider(page).fill('0');
    await expect(parentList(page)).toHaveCount(0);

    await page.getByRole('button', { name: 'Run this prompt again' }).click();
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });
    await expect(page.getByRole('note')).toHaveCount(0);
    await expect(parentList(page)).toHaveCount(4);
    await expect(parentList(page).first()).toContainText(PROMPTS.framework);
  });

  test('the recorded reference run opens from History as an example', async ({ page }) => {
    await open(page);
    const dialog = await keptRuns(page);
    await dialog.getByRole('button', { name: 'Open the example' }).click();
    await expect(page.getByRole('note')).toContainText('the example');
    await expect(parentList(page)).toHaveCount(4);
    await expect(subagentRegion(page, 1).getByRole('listitem')).toHaveCount(12);
    await expect(status(page)).toHaveText(/^Finished/);
  });

  test('History lists runs newest first; one can be deleted, or all', async ({ page }) => {
    await open(page);
    await runSample(page, PROMPTS.framework);
    await page.getByRole('button', { name: 'New conversation' }).click();
    await runSample(page, PROMPTS.summarisePy);
    const dialog = await keptRuns(page);
    const runs = dialog.getByRole('listitem');
    await expect(runs).toHaveCount(2);
    await expect(runs.nth(0)).toContainText(PROMPTS.summarisePy);
    await expect(runs.nth(1)).toContainText(PROMPTS.framework);
    await runs.nth(1).getByRole('button', { name: 'Delete' }).click();
    await expect(runs).toHaveCount(1);
    await dialog.getByRole('button', { name: 'Delete all runs' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete all runs?' })
      .getByRole('button', { name: 'Delete 1 run' })
      .click();
    await expect(runs).toHaveCount(0);
  });

  test('a bad file gets a sentence naming the problem, and nothing on screen or in History changes', async ({
    page,
  }) => {
    await open(page);
    await runSample(page, PROMPTS.framework);
    const shown = await arrays(page);
    const good = JSON.parse(await exportRun(page));
    const alert = page.getByRole('alert');

    const cases: Array<[string, string | Buffer, RegExp]> = [
      ['notes.txt', 'hello, not JSON', /^Cannot open notes\.txt: it is not JSON \(/],
      ['package.json', '{"name": "x"}', /it is not a run of this playground/],
      [
        'newer.json',
        JSON.stringify({ ...good, version: 3 }),
        /saved by a newer version of the playground \(run format 3; this one reads up to 2\)/,
      ],
      ['huge.json', Buffer.alloc(50 * 1024 * 1024, 32), /it is 50 MB; a run file may be at most 25 MB/],
      [
        'orphan.json',
        JSON.stringify({
          ...good,
          events: good.events.filter(
            (e: { type: string; message?: { role: string } }) =>
              !(e.type === 'message' && e.message?.role === 'assistant'),
          ),
        }),
        /has no tool_use before it|comes before message/,
      ],
      [
        'key.json',
        JSON.stringify({ ...good, settings: { ...good.settings, apiKey: 'sk-ant-x' } }),
        /carries a field named "apiKey", which may hold a secret: it is not opened/,
      ],
    ];
    for (const [name, content, problem] of cases) {
      await importFile(page, name, content);
      await expect(alert).toHaveText(problem);
      await expect(page.getByRole('note')).toHaveCount(0);
      expect(await arrays(page)).toEqual(shown);
    }
    // Dropping a file on the page opens it the same way.
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(['{ not json'], 'dropped.json', { type: 'application/json' }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await expect(alert).toHaveText(/^Cannot open dropped\.json: it is not JSON/);
    const dialog = await keptRuns(page);
    await expect(dialog.getByRole('listitem')).toHaveCount(1);
  });
});

test('a long record opened in the page’s first second follows its end while its messages are measured', async ({
  page,
  watch,
}) => {
  // The page's first second, stretched: the array once took the list's own scrolling then for
  // the learner's, and stopped following.
  // The stretched clock is negative, which the chart's User Timing measure refuses (and logs).
  watch.allow(/'chart:draw' cannot have a negative time stamp/);
  await page.addInitScript(() => {
    const now = performance.now.bind(performance);
    performance.now = () => now() - 20_000;
  });
  await open(page);
  // Every message is measured taller than the list estimated it, so the end moves as it is drawn.
  await page.addStyleTag({ content: '.message { font-size: 30px; line-height: 80px; }' });
  await importFile(page, 'calls-300.json', JSON.stringify(parentCallsRecord(300, 2000)));
  await expect(page.getByRole('region', { name: 'Parent messages' })).toContainText('601 messages');
  await expect(parentList(page).last()).toHaveAttribute('data-index', '600');
  await expect(parentList(page).last()).toBeInViewport();
  await frames(page); // a late measurement of the list would have moved it by now
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0);
  await expect(parentList(page).last()).toBeInViewport();
});

test.describe('a long record (300 calls: 601 messages, 300 log lines)', () => {
  test.beforeEach(async ({ page }) => {
    await open(page);
    const record = parentCallsRecord(300, 2000);
    // Each log line says which call it is (the tool's output alone is the same every time).
    let call = 0;
    for (const event of record.events) if (event.type === 'log') event.line = `  output ${++call}`;
    await importFile(page, 'calls-300.json', JSON.stringify(record));
    await expect(page.getByRole('region', { name: 'Parent messages' })).toContainText('601 messages');
  });

  test("the array's picture names the message under the pointer, and a click shows that message", async ({
    page,
  }) => {
    const parent = page.getByRole('region', { name: 'Parent messages' });
    // Hundreds of messages are drawn on one canvas rather than a thousand elements.
    await expect(parent.locator('.segment')).toHaveCount(0);
    const picture = parent.locator('.track canvas');
    const box = (await picture.boundingBox())!;
    // Every call adds the same: halfway across the array is halfway through its messages.
    const named = async (x: number) => {
      await picture.hover({ position: { x, y: box.height / 2 } });
      const title = (await picture.getAttribute('title'))!;
      const [, index] = /^#(\d+) (user|assistant) · [\d.]+k? chars$/.exec(title) ?? [];
      expect(index, title).toBeDefined();
      return Number(index);
    };
    const half = await named(box.width / 2);
    expect(half).toBeGreaterThan(290);
    expect(half).toBeLessThan(310);
    // Where the pointer is, a click shows the message it names: here, and near either end.
    for (const x of [box.width / 2, box.width * 0.1, box.width * 0.9]) {
      const index = await named(x);
      await picture.click({ position: { x, y: box.height / 2 } });
      await expect(parentList(page).and(page.locator(`[data-index="${index}"]`))).toBeInViewport();
    }
  });

  test('the parent array goes to its first message on Home and its last on End, when its messages are taller than estimated', async ({
    page,
  }) => {
    // A larger font: every message is measured taller than the list estimated it before it was seen.
    await page.addStyleTag({ content: '.message { font-size: 30px; line-height: 80px; }' });
    const scroller = page.getByRole('region', { name: 'Parent messages' }).locator('[role="list"]').first();
    await scroller.focus();
    await page.keyboard.press('End');
    await expect(parentList(page).last()).toHaveAttribute('data-index', '600');
    await expect(parentList(page).last()).toBeInViewport();
    await page.keyboard.press('Home');
    await expect(parentList(page).first()).toHaveAttribute('data-index', '0');
    await expect(parentList(page).first()).toBeInViewport();
    await frames(page); // a late measurement of the list would have moved it by now
    await expect(parentList(page).first()).toBeInViewport();
  });

  test('the parent array scrolls back to its first message from the keyboard, and to its end', async ({
    page,
  }) => {
    const scroller = page.getByRole('region', { name: 'Parent messages' }).locator('[role="list"]').first();
    await expect(parentList(page).last()).toHaveAttribute('data-index', '600');
    await expect(parentList(page).last()).toBeInViewport();
    // At once, while the array's newest messages may still be being measured.
    await scroller.focus();
    await page.keyboard.press('Home');
    await expect(parentList(page).first()).toHaveAttribute('data-index', '0');
    await expect(parentList(page).first()).toBeInViewport();
    await frames(page); // a late measurement of the list would have moved it by now
    await expect(parentList(page).first()).toBeInViewport();
    await page.keyboard.press('End');
    await expect(parentList(page).last()).toHaveAttribute('data-index', '600');
    await expect(parentList(page).last()).toBeInViewport();
  });

  test('the log goes to its first line on Home and its last on End, when its lines are taller than estimated', async ({
    page,
  }) => {
    // A larger font: every line is measured taller than the list estimated it before it was seen.
    await page.addStyleTag({ content: '.log li { font-size: 20px; line-height: 34px; }' });
    const log = page.getByRole('region', { name: 'Log' });
    const lines = log.getByRole('listitem');
    await log.scrollIntoViewIfNeeded();
    await log.getByRole('list').focus();
    await page.keyboard.press('End');
    await expect(lines.last()).toHaveText('output 300');
    await expect(lines.last()).toBeInViewport({ ratio: 1 });
    await page.keyboard.press('Home');
    await expect(lines.first()).toHaveText('output 1');
    await expect(lines.first()).toBeInViewport({ ratio: 1 });
    await frames(page); // a late measurement of the list would have moved it by now
    await expect(lines.first()).toBeInViewport({ ratio: 1 });
    await page.keyboard.press('End');
    await expect(lines.last()).toHaveText('output 300');
    await expect(lines.last()).toBeInViewport({ ratio: 1 });
  });

  test('the log keeps only the lines in view in the page, follows the end, and scrolls back to its start', async ({
    page,
  }) => {
    const log = page.getByRole('region', { name: 'Log' });
    const lines = log.getByRole('listitem');
    await log.scrollIntoViewIfNeeded();
    await expect(lines.last()).toHaveText('output 300');
    expect(await lines.count()).toBeLessThan(60);
    await expect(lines.last()).toBeInViewport();
    // Scrolled to its start (from the keyboard), the first line is there.
    await log.getByRole('list').focus();
    await page.keyboard.press('Home');
    await expect(lines.first()).toHaveText('output 1');
    await expect(lines.first()).toBeInViewport();
    // Stepped back, the log is the log of that step.
    await page.getByRole('slider', { name: 'Step' }).focus();
    await page.keyboard.press('Home');
    await expect(lines).toHaveText(['Nothing yet: task calls and tool output appear here.']);
    // Back at the end, it follows the end again.
    await page.keyboard.press('End');
    await expect(lines.last()).toHaveText('output 300');
    await expect(lines.last()).toBeInViewport();
  });
});
