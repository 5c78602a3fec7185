/**
 * One call ledger in every view (src/run/ledger.ts): after prompt 1, every call of every agent has
 * the same figures in the chart's table, in its agent's column (the sums) and in `Model call N`;
 * the header's and the column's context is the last call's sent plus received.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, open, PROMPTS, runSample, test } from './fixtures';

const chart = (page: Page) => page.getByRole('region', { name: 'Context per model call' });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Model call' });

/** "1,234" as a number. */
const number = (text: string) => Number(text.replaceAll(',', ''));

interface Row {
  agent: string;
  n: number;
  sent: number;
  received: number;
}

/** The chart's table: one row per call, named "Parent call 2", with what it sent and received. */
async function tableRows(page: Page): Promise<Row[]> {
  await chart(page).getByRole('button', { name: 'Show as a table' }).click();
  const cells = await chart(page)
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
  return cells.map(([, call, sent, received]) => {
    const [, agent, n] = /^(.+) call (\d+)$/.exec(call)!;
    return { agent, n: Number(n), sent: number(sent), received: number(received) };
  });
}

/** An agent's column: its context and the sums of its calls, as the column writes them. */
async function columnFigures(region: Locator) {
  const context = number(/^([\d,]+) tokens in context/.exec(await region.locator('.tokens').innerText())![1]);
  const totals = await region.locator('.totals').innerText();
  const [, calls, sent, received] =
    /^(\d+) calls? sent ([\d,]+) tokens (?:in all )?and received ([\d,]+)/.exec(totals)!;
  return { context, calls: Number(calls), sent: number(sent), received: number(received) };
}

test('after prompt 1, every call has one figure in the chart’s table, its column and Model call', async ({
  page,
}) => {
  await open(page);
  await runSample(page, PROMPTS.framework);
  const rows = await tableRows(page);
  const agents = [...new Set(rows.map((r) => r.agent))];
  expect(agents).toEqual(['Parent', 'Subagent 1']);

  for (const agent of agents) {
    const own = rows.filter((r) => r.agent === agent);
    expect(own.map((r) => r.n)).toEqual(own.map((_, i) => i + 1));
    const region = page.getByRole('region', { name: `${agent} messages` });
    const column = await columnFigures(region);
    expect(column).toEqual({
      // Nothing was added after either agent's last reply: its context is that call's sent + received.
      context: own.at(-1)!.sent + own.at(-1)!.received,
      calls: own.length,
      sent: own.reduce((sum, r) => sum + r.sent, 0),
      received: own.reduce((sum, r) => sum + r.received, 0),
    });
    for (const row of own) {
      await region.getByRole('button', { name: `Model call ${row.n}`, exact: true }).click();
      await expect(dialog(page)).toBeVisible();
      const text = await dialog(page).innerText();
      expect(number(/Sent ([\d,]+) tokens/.exec(text)![1]), `${agent} call ${row.n}`).toBe(row.sent);
      expect(number(/Received ([\d,]+) tokens/.exec(text)![1]), `${agent} call ${row.n}`).toBe(row.received);
      // The parts it lists add up to what it sent (the demo model's figures are estimates).
      const [, system, tools, messages] = /system prompt ([\d,]+) · tools ([\d,]+) · messages ([\d,]+)/.exec(
        text,
      )!;
      expect(number(system) + number(tools) + number(messages)).toBe(row.sent);
      const listed = /(\d+) messages? · ([\d,]+) tokens/.exec(text)!;
      expect(number(listed[2])).toBe(number(messages));
      await page.keyboard.press('Escape');
      await expect(dialog(page)).toBeHidden();
    }
  }

  const parent = rows.filter((r) => r.agent === 'Parent').at(-1)!;
  await expect(page.getByText(/^Parent keeps/)).toHaveText(
    `Parent keeps ${(parent.sent + parent.received).toLocaleString('en')} tokens`,
  );
  // Estimated, and said once for the arrays, once for the chart.
  await expect(page.getByText(/^Estimated figures: the demo model reports no usage/)).toHaveCount(1);
  await expect(chart(page)).toContainText('estimated (no usage reported)');
});

test('presenting the run, every caption names the figures the chart’s table gives for that call', async ({
  page,
}) => {
  await open(page);
  await runSample(page, PROMPTS.framework);
  const rows = await tableRows(page);
  const row = (agent: string, n: number) => rows.find((r) => r.agent === agent && r.n === n)!;
  await page.getByRole('button', { name: 'Present' }).click();
  const caption = page.getByRole('region', { name: 'Caption' });
  const said: string[] = [];
  for (let i = 0; i < 40; i++) {
    const text = (await caption.getByRole('paragraph').textContent())!;
    said.push(text);
    if (/^That was the last moment/.test(text)) break;
    await caption.getByRole('button', { name: 'Continue' }).click();
    await expect(caption.getByRole('paragraph')).not.toHaveText(text);
  }
  const calls = said.flatMap((text) => {
    const found = /^(Parent|Subagent \d+) call (\d+) sends ([\d,]+) tokens/.exec(text);
    return found ? [{ agent: found[1], n: Number(found[2]), sent: number(found[3]) }] : [];
  });
  // Every call of every agent is a moment, and says what the table says it sent.
  expect(calls.map((c) => `${c.agent} ${c.n}`).sort()).toEqual(rows.map((r) => `${r.agent} ${r.n}`).sort());
  for (const call of calls)
    expect(call.sent, `${call.agent} call ${call.n}`).toBe(row(call.agent, call.n).sent);
  // The result's figure is what the parent's context grew by: call 1's sent and received plus it is
  // what call 2 sends (estimated alike, so exactly).
  const result = said.find((text) => /^The result arrives in Parent's array/.test(text))!;
  const grew = number(/one tool_result of ([\d,]+) tokens/.exec(result)![1]);
  expect(row('Parent', 1).sent + row('Parent', 1).received + grew).toBe(row('Parent', 2).sent);
  // The parent's call after the subagent returned names what the subagent held: its column's context.
  const subagent = rows.filter((r) => r.agent === 'Subagent 1').at(-1)!;
  const held = said.find((text) => /^Parent call 2 sends/.test(text))!;
  expect(held).toContain(
    `not the ${(subagent.sent + subagent.received).toLocaleString('en')} tokens Subagent 1 held`,
  );
});
