/**
 * A run of more subagents than the chart and the isolation check list one by one (the mock API's
 * `mock-fanout` with `depth=1`: 20 subagents, two levels): the chart draws the subagents as one
 * line, named "Subagents 1–20" in its legend, and its table still names every call with the call
 * ledger's figures, the figures each agent's column shows; the isolation check says its figures in
 * a sentence, and its list, on request, checks every call the ledger counts.
 */
import type { Page } from '@playwright/test';
import type { RunRecord } from '../src/run/record';
import { Replay } from '../src/run/replay';
import { expect, exportRun, openOnEndpoint, status, test } from './fixtures';

const SUBAGENTS = 20;
const chart = (page: Page) => page.getByRole('region', { name: 'Context per model call' });
const isolation = (page: Page) => page.getByRole('region', { name: 'Isolation check' });

/** "1,234" as a number. */
const number = (text: string) => Number(text.replaceAll(',', ''));

interface Row {
  agent: string;
  n: number;
  sent: number;
  received: number;
}

/**
 * Each agent's figures by the call ledger, computed here from the run the page exports (`Export
 * run`) with the app's own replay: what each agent's column writes at the run's end.
 */
async function ledgers(page: Page) {
  const record = JSON.parse(await exportRun(page)) as RunRecord;
  const replay = new Replay(record.events);
  const view = replay.at(replay.steps);
  return [view.parent, ...view.subagents].map((a) => ({ id: a.id, ...a.ledger }));
}

/** An agent's name as every view writes it. */
const nameOf = (id: string) => (id === 'parent' ? 'Parent' : `Subagent ${/\d+$/.exec(id)![0]}`);

test('a run of 20 subagents: the chart groups them, and its table and the isolation check keep every call', async ({
  page,
}) => {
  test.slow(); // 20 subagents, 8 at once
  await page.setViewportSize({ width: 1440, height: 900 });
  await openOnEndpoint(page, 'mock-fanout', { query: 'depth=1' });
  await page.getByRole('textbox', { name: 'Prompt' }).fill('Look at every part of the project.');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page)).toHaveText(/^Finished/, { timeout: 90_000 });

  // One line for all the subagents, one key for them in the legend.
  const plot = chart(page).locator('.plot');
  await expect(plot).toHaveAttribute('data-series', `Parent|Subagents 1–${SUBAGENTS}`);
  const legend = chart(page).locator('.legend');
  await expect(legend.getByText(`Subagents 1–${SUBAGENTS}`, { exact: true })).toBeVisible();
  await expect(legend.getByText('Subagent 7', { exact: true })).toHaveCount(0);

  // The table names every call of every agent, with the figures of that agent's column.
  await chart(page).getByRole('button', { name: 'Show as a table' }).click();
  const rows: Row[] = (
    await chart(page)
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')))
  ).map(([, call, sent, received]) => {
    const [, agent, n] = /^(.+) call (\d+)$/.exec(call)!;
    return { agent, n: Number(n), sent: number(sent), received: number(received) };
  });
  const agents = await ledgers(page);
  expect(agents).toHaveLength(SUBAGENTS + 1);
  for (const agent of agents) {
    const own = rows.filter((r) => r.agent === nameOf(agent.id));
    expect(
      own.map((r) => r.n),
      agent.id,
    ).toEqual(own.map((_, i) => i + 1));
    expect(
      {
        calls: own.length,
        sent: own.reduce((sum, r) => sum + r.sent, 0),
        received: own.reduce((sum, r) => sum + r.received, 0),
      },
      agent.id,
    ).toEqual({ calls: agent.calls, sent: agent.sent, received: agent.received });
  }
  // The parent's column, drawn at the pane's start, writes the same sums.
  const totals = await page.getByRole('region', { name: 'Parent messages' }).locator('.totals').innerText();
  const parent = agents[0];
  expect(totals).toMatch(
    new RegExp(
      `^${parent.calls} calls? sent ${parent.sent.toLocaleString('en')} tokens (?:in all )?and received ${parent.received.toLocaleString('en')}`,
    ),
  );

  // The isolation check in figures: every subagent and every call of theirs the ledger counts.
  const subagentCalls = agents.slice(1).reduce((sum, a) => sum + a.calls, 0);
  const summary = isolation(page).getByText(new RegExp(`^${SUBAGENTS} subagents, ${subagentCalls} calls: `));
  await expect(summary).toBeVisible();
  await expect(isolation(page).locator('li')).toHaveCount(0);
  await isolation(page).getByRole('button', { name: "Show each subagent's check" }).click();
  const items = isolation(page).locator('li');
  await expect(items).toHaveCount(SUBAGENTS);
  const checked = await items.evaluateAll((lis) =>
    lis.map((li) => ({
      id: li.getAttribute('data-agent')!,
      verdict: li.querySelector('.verdict')!.textContent!.trim(),
      cells: li.querySelectorAll('.cell').length,
      carriedCells: li.querySelectorAll('.cell.carried').length,
    })),
  );
  for (const agent of agents.slice(1)) {
    const item = checked.find((c) => c.id === agent.id)!;
    // Each call of the ledger has its cell; the verdict counts them, or says what was carried.
    expect(item.cells, agent.id).toBe(agent.calls);
    expect(item.verdict, agent.id).toMatch(
      item.carriedCells
        ? /^carried (Parent|Subagent \d+)'s \d+ messages?, [\d.,]+k? characters$/
        : new RegExp(
            `^${agent.calls} calls?, (none carried anything|it carried nothing) of (Parent|Subagent \\d+)'s conversation$`,
          ),
    );
  }
  // The sentence counts what the list shows.
  const carried = checked.filter((c) => c.carriedCells > 0).length;
  await expect(summary).toHaveText(
    carried
      ? `${SUBAGENTS} subagents, ${subagentCalls} calls: ${carried} of the subagents carried messages of their caller's conversation. Hide each subagent's check`
      : `${SUBAGENTS} subagents, ${subagentCalls} calls: none carried anything of its caller's conversation. Hide each subagent's check`,
  );
  await isolation(page).getByRole('button', { name: "Hide each subagent's check" }).click();
  await expect(items).toHaveCount(0);
});
