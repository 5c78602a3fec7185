/**
 * One measure of context, everywhere (the call ledger, src/run/ledger.ts): after a run and after Compare, the
 * parent's context is the same number in the header, its column, the chart, the comparison and
 * History; the "?" beside it says what it is; the tutorial's figure shows only for prompt 1; and
 * the recorded example says what it is and lists the files its own tool calls touched.
 */
import type { Page } from '@playwright/test';
import { expect, open, PROMPTS, status, test } from './fixtures';

/** The number in a text such as "Parent keeps 1,542 tokens" (the first one). */
function tokensIn(text: string): number {
  const match = /~?([\d,]+) tokens/.exec(text);
  if (!match) throw new Error(`no token figure in: ${text}`);
  return Number(match[1].replaceAll(',', ''));
}

/** The prompt that explores more (src/ui/sample-prompts.ts), as the Comparison offers it. */
const EXPLORES = 'Delegate: read every file of this project and tell me in one sentence what it is';

const comparison = (page: Page) => page.getByRole('region', { name: 'Comparison' });

/** The parent's context as each place on screen shows it. */
async function parentFigures(page: Page) {
  const header = tokensIn(await page.getByText(/^Parent keeps/).innerText());
  const column = tokensIn(
    await page.getByRole('region', { name: 'Parent messages' }).locator('.tokens').innerText(),
  );
  const chart = page.getByRole('region', { name: 'Context per model call' });
  await chart.getByRole('button', { name: 'Show as a table' }).click();
  // The shown run's parent (the compared modes' rows are named by their mode too): its context
  // after its last call is what that call sent plus what it received.
  const parentRows = chart
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: /^Parent call \d+$/ }) });
  const cells = await parentRows.last().getByRole('cell').allInnerTexts();
  const chartLast = cells.slice(2).reduce((sum, cell) => sum + Number(cell.replaceAll(',', '')), 0);
  await chart.getByRole('button', { name: 'Hide the table' }).click();
  const compared = tokensIn(
    await comparison(page).getByRole('row').filter({ hasText: 'Isolated (s04)' }).innerText(),
  );
  await page.getByRole('button', { name: 'History' }).click();
  const history = page.getByRole('dialog', { name: 'History' });
  const history1 = tokensIn(await history.getByRole('listitem').first().innerText());
  await history.getByRole('button', { name: 'Close' }).first().click();
  return { header, column, chart: chartLast, comparison: compared, history: history1 };
}

/** The saving the comparison shows, and the one its own table gives. */
async function savings(page: Page) {
  const region = comparison(page);
  await expect(region.getByText(/^Isolation saved -?\d+% of the parent's context\.$/)).toBeVisible({
    timeout: 30_000,
  });
  const shown = Number(/saved (-?\d+)%/.exec(await region.innerText())![1]);
  const none = tokensIn(await region.getByRole('row').filter({ hasText: 'No subagent' }).innerText());
  const isolated = tokensIn(await region.getByRole('row').filter({ hasText: 'Isolated (s04)' }).innerText());
  return { shown, fromTable: Math.round((1 - isolated / none) * 100) };
}

test('after prompt 1 and Compare, the parent’s context is one number wherever it is shown', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await open(page);
  await page.getByRole('textbox', { name: 'Prompt' }).fill(PROMPTS.framework);
  await page.getByRole('button', { name: 'Compare' }).click();
  const first = await savings(page);
  expect(first.shown).toBe(first.fromTable);
  await expect(status(page)).toHaveText(/^Finished/);

  const figures = await parentFigures(page);
  expect(figures.header).toBeGreaterThan(0);
  expect(figures).toEqual({
    header: figures.header,
    column: figures.header,
    chart: figures.header,
    comparison: figures.header,
    history: figures.header,
  });
  // Estimated with the demo model, and said so once for the arrays.
  await expect(page.getByText(/^Estimated figures: the demo model reports no usage/)).toHaveCount(1);

  // What drove it, and the tutorial's figure for this prompt with why the two differ.
  const region = comparison(page);
  await expect(region).toContainText(
    /the subagents' contexts reached [\d,]+ tokens before they were discarded \(never sent to the parent\), and [\d,]+ tokens came back/,
  );
  await expect(region).toContainText('The tutorial says 88% (2,750 → 330 tokens) for prompt 1.');
  await expect(region).toContainText('They differ because');

  // The "?" opens the definition, by keyboard as by pointer, and Escape closes it.
  const help = region.getByRole('button', { name: 'How context is counted' });
  await help.focus();
  await page.keyboard.press('Enter');
  const definition = page.getByRole('dialog', { name: 'Context: one measure, everywhere' });
  await expect(definition).toBeVisible();
  await expect(definition).toContainText('what its next model call would send');
  await expect(definition).toContainText('Isolation can cost more in total');
  await page.keyboard.press('Escape');
  await expect(definition).toBeHidden();
  await page.getByRole('button', { name: 'How context is counted' }).first().click();
  await expect(page.getByRole('dialog', { name: 'Context: one measure, everywhere' })).toBeVisible();
  await page.keyboard.press('Escape');

  // The prompt that explores more: the screen names it, and the saving grows; no tutorial figure.
  await expect(region).toContainText(`compare a prompt that explores more: “${EXPLORES}”`);
  await region.getByRole('button', { name: 'Compare the prompt that explores more' }).click();
  await expect(region.locator('q')).toHaveText(EXPLORES);
  await expect(region).toContainText('This prompt explores more', { timeout: 30_000 });
  const second = await savings(page);
  expect(second.shown).toBe(second.fromTable);
  expect(second.shown).toBeGreaterThan(first.shown);
  await expect(region).not.toContainText('The tutorial says');
  const again = await parentFigures(page);
  expect(new Set(Object.values(again)).size).toBe(1);
});

test('Compare with Fork too: a table row and a chart line for every mode compared', async ({ page }) => {
  test.setTimeout(90_000);
  await open(page);
  await page.getByRole('textbox', { name: 'Prompt' }).fill(PROMPTS.framework);
  await page.getByRole('checkbox', { name: 'Compare with Fork too' }).check();
  await page.getByRole('button', { name: 'Compare' }).click();
  await savings(page);
  const rows = comparison(page).getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText('No subagent');
  await expect(rows.nth(2)).toContainText('Fork');
  await expect(rows.nth(3)).toContainText('Isolated (s04)');
  const chart = page.getByRole('region', { name: 'Context per model call' });
  await expect(chart).toContainText('Parent without a subagent');
  await expect(chart).toContainText('Parent with Fork');
});

test('the example says what it is, lists the files its tool calls touched, and its parent is the small one', async ({
  page,
}) => {
  await open(page);
  await page.getByRole('button', { name: 'History' }).click();
  await page
    .getByRole('dialog', { name: 'History' })
    .getByRole('button', { name: 'Open the example' })
    .click();
  const banner = page.getByRole('note');
  await expect(banner).toContainText('on the learn-claude-code repository itself');
  await expect(banner).toContainText('MiniMax-M2.5');
  await expect(banner).not.toContainText('sample.');
  // Its model left cached tokens out of its counts: the subagent is estimated, and it says so.
  await expect(banner).toContainText('so Subagent 1 is estimated.');

  const files = page.getByRole('region', { name: 'Files' });
  await expect(files).toContainText('Files this run touched');
  const touched = files.getByRole('listitem');
  await expect(touched.filter({ hasText: '/home/user/learn-claude-code/test_calc.py' })).toContainText(
    'read by Subagent 1',
  );
  await expect(touched.filter({ hasText: '/home/user/learn-claude-code/web' })).toContainText(
    'ls by Subagent 1',
  );
  // Not the sample project the sandbox holds.
  await expect(files).not.toContainText('main.py');

  // The parent keeps its counted context; the subagent held several times as much.
  const parent = tokensIn(await page.getByText(/^Parent keeps/).innerText());
  await expect(page.getByText(/^Parent keeps 1,033 tokens$/)).toBeVisible();
  const subagent = tokensIn(
    await page.getByRole('region', { name: 'Subagent 1 messages' }).locator('.tokens').innerText(),
  );
  expect(subagent).toBeGreaterThan(3 * parent);

  // Back to the playground: the sandbox's files again.
  await page.getByRole('button', { name: 'Back to the playground' }).click();
  await expect(files).toContainText('main.py');
});
