/**
 * A price for each way of delegating: Compare prices every mode from the call ledger, whose cache
 * figures are the usage the Messages API reported; Settings keeps a price table and refuses a
 * price that is not a number; prompt caching marks the requests only when asked.
 */
import type { Page } from '@playwright/test';
import { expect, MOCK_API, open, openOnEndpoint, PROMPTS, status, test } from './fixtures';

interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

interface Recorded {
  method: string;
  path: string;
  body: unknown;
  response?: { status: number; body: { usage: Usage } | null };
}

async function messagesRequests(page: Page): Promise<Recorded[]> {
  const all = (await (await page.request.get(`${MOCK_API}/_requests`)).json()) as Recorded[];
  return all.filter((r) => r.method === 'POST' && r.path === '/v1/messages');
}

/** The custom row's rates, in dollars per million tokens. */
const RATES = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };

/** Dollars as the screen writes them (src/run/price.ts formatDollars). */
function dollars(amount: number): string {
  if (amount === 0) return '$0';
  if (amount >= 1) return `$${amount.toFixed(2)}`;
  return `$${amount.toFixed(Math.max(2, 1 - Math.floor(Math.log10(amount))))}`;
}

async function setCustomPrice(page: Page, model: string): Promise<void> {
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const prices = dialog.getByRole('region', { name: 'Prices' });
  await prices.getByRole('textbox', { name: 'Another model id', exact: true }).fill(model);
  await prices.getByRole('textbox', { name: 'Input Another model id' }).fill(String(RATES.input));
  await prices.getByRole('textbox', { name: 'Output Another model id' }).fill(String(RATES.output));
  await prices.getByRole('textbox', { name: 'Cache write Another model id' }).fill(String(RATES.cacheWrite));
  await prices.getByRole('textbox', { name: 'Cache read Another model id' }).fill(String(RATES.cacheRead));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

test('Compare prices each mode from the usage the API reported, cache reads included', async ({ page }) => {
  test.setTimeout(60_000);
  await openOnEndpoint(page, 'mock-s04', { query: 'cache=on' });
  await setCustomPrice(page, 'mock-s04');
  await page.getByRole('textbox', { name: 'Prompt' }).fill(PROMPTS.framework);
  await page.getByRole('checkbox', { name: 'Compare with Fork too' }).check();
  await page.getByRole('button', { name: 'Compare' }).click();
  const region = page.getByRole('region', { name: 'Comparison' });
  await expect(region.getByText(/keeps the parent smallest/)).toBeVisible({ timeout: 45_000 });
  await expect(status(page)).toHaveText(/^Finished/);

  const sent = await messagesRequests(page);
  // Asked for, every request carries the cache breakpoints.
  for (const request of sent)
    expect(JSON.stringify(request.body)).toContain('"cache_control":{"type":"ephemeral"}');

  // The runs went none, fork, isolated, one after another: the mock's requests in that order.
  let next = 0;
  for (const mode of ['No subagent', 'Fork', 'Isolated (s04)']) {
    const row = region.getByRole('row').filter({ hasText: mode });
    const calls = Number(await row.getByRole('cell').nth(3).innerText());
    const usages = sent.slice(next, next + calls).map((r) => r.response!.body!.usage);
    next += calls;
    let total = 0;
    let reads = 0;
    for (const u of usages) {
      const read = ((u.cache_read_input_tokens ?? 0) * RATES.cacheRead) / 1e6;
      reads += read;
      total +=
        (u.input_tokens * RATES.input +
          (u.cache_creation_input_tokens ?? 0) * RATES.cacheWrite +
          u.output_tokens * RATES.output) /
          1e6 +
        read;
    }
    expect(usages.some((u) => (u.cache_read_input_tokens ?? 0) > 0)).toBe(true);
    await expect(row.getByRole('cell').nth(2)).toHaveText(
      `${dollars(total)} (${Math.round((reads / total) * 100)}% of it cache reads)`,
    );
  }
  expect(next).toBe(sent.length);

  // The run on screen is the isolated one, the last: its parent's last call, the last request the
  // mock received, shows the usage the mock reported, cache fields included.
  const last = sent[sent.length - 1].response!.body!.usage;
  expect(last.cache_read_input_tokens).toBeGreaterThan(0);
  const parentCalls = page
    .getByRole('region', { name: 'Parent messages' })
    .getByRole('button', { name: /^Model call \d+$/ });
  await parentCalls.last().click();
  const n = (value: number | undefined) => (value ?? 0).toLocaleString('en-US');
  await expect(page.getByRole('dialog', { name: 'Model call' })).toContainText(
    `usage (API): input ${n(last.input_tokens)} · output ${n(last.output_tokens)} · cache read ${n(last.cache_read_input_tokens)} · cache written ${n(last.cache_creation_input_tokens)}`,
  );
});

test('without caching the requests carry no cache marker, and a model without a price shows tokens only', async ({
  page,
}) => {
  await openOnEndpoint(page, 'mock-s04');
  await page.getByRole('textbox', { name: 'Prompt' }).fill(PROMPTS.framework);
  await page.getByRole('button', { name: 'Compare' }).click();
  const region = page.getByRole('region', { name: 'Comparison' });
  await expect(region.getByText(/keeps the parent smallest/)).toBeVisible({ timeout: 30_000 });
  for (const request of await messagesRequests(page))
    expect(JSON.stringify(request.body)).not.toContain('cache_control');
  await expect(region.getByRole('row').filter({ hasText: 'No subagent' })).toContainText(
    'no price for mock-s04: tokens only',
  );
  await expect(region).toContainText('A model without a price shows its tokens only');
  await expect(region).toContainText('which mode costs least is not known without a price for every run');
});

test('Settings refuses a price that is not a number with a sentence, and keeps what was typed', async ({
  page,
}) => {
  await open(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const field = dialog
    .getByRole('region', { name: 'Prices' })
    .getByRole('textbox', { name: 'Input claude-sonnet-5-5' });
  await expect(field).toHaveValue('2');
  await field.fill('two dollars');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Input of claude-sonnet-5-5: “two dollars” is not a price. Enter a number of dollars per million tokens, such as 2.5.',
  );
  await expect(dialog).toBeVisible();
  await expect(field).toHaveValue('two dollars');
  await field.fill('1.5');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(field).toHaveValue('1.5');
});

test('the demo with prompt caching on prices Compare from simulated cache figures, and says so', async ({
  page,
}) => {
  await open(page, 'speed=instant&cache=on');
  await page.getByRole('textbox', { name: 'Prompt' }).fill(PROMPTS.framework);
  await page.getByRole('button', { name: 'Compare' }).click();
  const region = page.getByRole('region', { name: 'Comparison' });
  await expect(region.getByText(/keeps the parent smallest/)).toBeVisible({ timeout: 30_000 });
  await expect(region.getByRole('row').filter({ hasText: 'Isolated (s04)' })).toContainText(
    /\$[\d.]+ \(\d+% of it cache reads\)/,
  );
  await expect(region).toContainText('Cache figures simulated');
  // Each call of the run on screen shows its simulated usage, never as the API's.
  await page
    .getByRole('region', { name: 'Parent messages' })
    .getByRole('button', { name: 'Model call 2', exact: true })
    .click();
  const call = page.getByRole('dialog', { name: 'Model call' });
  await expect(
    call.getByText(
      /^usage \(simulated\): input [\d,]+ · output [\d,]+ · cache read [\d,]+ · cache written [\d,]+$/,
    ),
  ).toBeVisible();
  await expect(call).not.toContainText('usage (API)');
  await page.keyboard.press('Escape');

  // The growth chart's table: each mode's parent context with 0, 1, 3 and 10 earlier turns.
  const grown = page.getByRole('region', { name: "As the parent's history grows" });
  const contexts = async (mode: string) =>
    (await grown.getByRole('row').filter({ hasText: mode }).getByRole('cell').allInnerTexts()).map((cell) =>
      Number(/^([\d,]+) tokens/.exec(cell)![1].replaceAll(',', '')),
    );
  const isolated = await contexts('Isolated (s04)');
  const none = await contexts('No subagent');
  expect(isolated).toHaveLength(4);
  for (const row of [isolated, none]) for (let i = 1; i < 4; i++) expect(row[i]).toBeGreaterThan(row[i - 1]);
  // The run's own figure first, as the Compare table shows it.
  await expect(region.getByRole('row').filter({ hasText: 'Isolated (s04)' })).toContainText(
    `${isolated[0].toLocaleString('en-US')} tokens`,
  );
  // The longer the history, the more isolation keeps out of the parent.
  expect(none[3] - isolated[3]).toBeGreaterThan(none[0] - isolated[0]);
});
