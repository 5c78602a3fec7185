/**
 * What the model received: every model call opens as dialog `Model call`, with
 * the system prompt, the tools, list `Messages sent` and what came back. The proof of isolation:
 * a subagent's first call sent one message; a fork child's first call sent the parent's history.
 */
import type { Page } from '@playwright/test';
import { parentCallsRecord } from '../scripts/records.mjs';
import {
  expect,
  exportRun,
  importFile,
  MOCK_API,
  open,
  openOnEndpoint,
  PROMPTS,
  runSample,
  subagentRegion,
  test,
} from './fixtures';

const KEY = 'sk-ant-e2e-model-call-0123456789';

const parentRegion = (page: Page) => page.getByRole('region', { name: 'Parent messages' });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Model call' });
const sentItems = (page: Page) =>
  dialog(page).getByRole('list', { name: 'Messages sent' }).getByRole('listitem');

/** Opens `Model call n` of a region and waits for the dialog. */
async function openCall(page: Page, region: ReturnType<Page['getByRole']>, n: number): Promise<void> {
  await region.getByRole('button', { name: `Model call ${n}`, exact: true }).click();
  await expect(dialog(page)).toBeVisible();
}

async function closeCall(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeHidden();
}

async function exported(page: Page): Promise<string> {
  return exportRun(page);
}

/** The request bodies the mock Messages API received, in order. */
async function posted(page: Page): Promise<Array<Record<string, unknown>>> {
  const all = (await (await page.request.get(`${MOCK_API}/_requests`)).json()) as Array<{
    method: string;
    path: string;
    body: Record<string, unknown>;
  }>;
  return all.filter((r) => r.method === 'POST' && r.path === '/v1/messages').map((r) => r.body);
}

/** The body the dialog shows, parsed. */
async function shownBody(page: Page): Promise<Record<string, unknown>> {
  await dialog(page)
    .getByText(/^Request body/)
    .click();
  return JSON.parse(await dialog(page).locator('pre.json').innerText());
}

test.describe('Model call', () => {
  test("a subagent's first call sent one message: its task prompt", async ({ page }) => {
    await open(page);
    await runSample(page, PROMPTS.framework);
    const subagent = subagentRegion(page, 1);

    await openCall(page, subagent, 1);
    await expect(sentItems(page)).toHaveCount(1);
    await expect(sentItems(page).first()).toHaveAttribute('data-role', 'user');
    await expect(dialog(page)).toContainText("this subagent's first call sent one message");
    await expect(dialog(page)).toContainText('You are a coding subagent at');
    const tools = dialog(page).getByRole('list', { name: 'Tools offered' }).getByRole('listitem');
    await expect(tools).toHaveText([/^bash/, /^read_file/, /^write_file/, /^edit_file/]);
    // Schemas are folded until asked for.
    await expect(dialog(page).getByText('"command"')).toBeHidden();
    await tools.first().getByText('bash').click();
    await expect(dialog(page).getByText('"command"')).toBeVisible();
    await expect(dialog(page)).toContainText('stop_reason: tool_use');
    // A message opens to show what it holds.
    await sentItems(page).first().locator('summary').click();
    await expect(sentItems(page).first().locator('[data-block="text"]')).toBeVisible();
    await closeCall(page);

    // The parent's first call sent the prompt; its last one the prompt, the task call and its result.
    await openCall(page, parentRegion(page), 1);
    await expect(sentItems(page)).toHaveCount(1);
    await expect(sentItems(page).first()).toContainText(PROMPTS.framework);
    await expect(dialog(page).getByRole('list', { name: 'Tools offered' }).getByRole('listitem')).toHaveCount(
      5,
    );
    await closeCall(page);
    const calls = parentRegion(page).getByRole('button', { name: /^Model call \d+$/ });
    const last = await calls.count();
    expect(last).toBeGreaterThanOrEqual(2);
    await openCall(page, parentRegion(page), last);
    await expect(sentItems(page)).toHaveCount(2 * last - 1);
    await expect(sentItems(page).nth(1)).toHaveAttribute('data-role', 'assistant');
    await expect(dialog(page)).toContainText('stop_reason: end_turn');
  });

  test("a fork child's first call sent the parent's messages", async ({ page }) => {
    await open(page, 'speed=instant&context=fork');
    await runSample(page, PROMPTS.framework);
    const record = JSON.parse(await exported(page)) as {
      events: Array<{ type: string; agent?: string; index?: number; messages?: unknown[] }>;
    };
    await openCall(page, subagentRegion(page, 1), 1);
    const spawn = record.events.find((e) => e.type === 'spawn')!;
    // The child starts from the parent's history up to its task call, the task prompt joined.
    await expect(sentItems(page)).toHaveCount(spawn.messages!.length);
    await expect(sentItems(page).first()).toContainText(PROMPTS.framework);
    await expect(dialog(page)).toContainText('Forked: this subagent');
  });

  test('an API run shows the exact request body, never the key; the run opens again with it', async ({
    page,
  }) => {
    await openOnEndpoint(page, 'mock-s04', { key: KEY });
    await runSample(page, PROMPTS.framework);
    const bodies = await posted(page);
    const child = bodies.filter((b) => String(b.system).includes('subagent'));
    const parent = bodies.filter((b) => !String(b.system).includes('subagent'));

    await openCall(page, subagentRegion(page, 1), 1);
    await expect(sentItems(page)).toHaveCount(1);
    expect(await shownBody(page)).toEqual(child[0]);
    await expect(dialog(page)).toContainText(/usage \(API\): input \d/);
    await closeCall(page);
    await openCall(page, parentRegion(page), parent.length);
    expect(await shownBody(page)).toEqual(parent.at(-1));
    await expect(dialog(page)).not.toContainText(KEY);
    await closeCall(page);

    const json = await exported(page);
    expect(json).not.toContain(KEY);
    // Kept bodies carry no field named like a secret: the import takes the run back.
    await importFile(page, 'with-bodies.json', json);
    await expect(page.getByText('with-bodies.json').first()).toBeVisible();
    await openCall(page, subagentRegion(page, 1), 1);
    expect(await shownBody(page)).toEqual(child[0]);
  });

  test('a run recorded before calls kept their body says so, and still lists what was sent', async ({
    page,
  }) => {
    await open(page);
    await runSample(page, PROMPTS.framework);
    const record = JSON.parse(await exported(page)) as { events: Array<Record<string, unknown>> };
    for (const event of record.events) if (event.type === 'model_start') delete event.request;
    await importFile(page, 'old-run.json', JSON.stringify(record));
    await expect(page.getByText('old-run.json').first()).toBeVisible();
    await openCall(page, subagentRegion(page, 1), 1);
    await expect(dialog(page)).toContainText('recorded before model calls kept their request body');
    await expect(sentItems(page)).toHaveCount(1);
    await expect(dialog(page).getByText(/^Request body/)).toHaveCount(0);
  });

  test('a long array: the list holds every message sent and draws the ones in view', async ({ page }) => {
    await open(page);
    // 80 calls: the last one sends 159 messages, more than the dialog draws at once.
    await importFile(page, 'long.json', JSON.stringify(parentCallsRecord(80, 2000)));
    await openCall(page, parentRegion(page), 80);
    await expect(dialog(page)).toContainText('159 messages');
    const items = sentItems(page);
    await expect(items.first()).toBeVisible();
    await expect(items.first()).toContainText('#0');
    const drawn = await items.count();
    expect(drawn).toBeGreaterThan(3);
    expect(drawn).toBeLessThan(159);
    // Scrolled to its end, the list shows the last message sent: the results of call 79.
    await dialog(page)
      .getByRole('list', { name: 'Messages sent' })
      .evaluate((list) => {
        list.scrollTop = list.scrollHeight;
      });
    await expect(items.last()).toContainText('#158');
  });

  test('a long run: its first and latest calls as buttons, any call by its number', async ({ page }) => {
    await open(page);
    await importFile(page, 'long.json', JSON.stringify(parentCallsRecord(80, 200)));
    const buttons = parentRegion(page).getByRole('button', { name: /^Model call \d+$/ });
    // Thousands of buttons would slow every step: the first five and the latest forty.
    await expect(buttons).toHaveCount(45);
    await expect(parentRegion(page).getByRole('button', { name: 'Model call 5', exact: true })).toBeVisible();
    await expect(parentRegion(page).getByRole('button', { name: 'Model call 6', exact: true })).toHaveCount(
      0,
    );
    await expect(parentRegion(page).getByRole('button', { name: 'Model call 41', exact: true })).toHaveCount(
      1,
    );
    const field = parentRegion(page).getByRole('spinbutton', {
      name: 'Open a model call by its number (1 to 80)',
    });
    await field.fill('23');
    await field.press('Enter');
    await expect(dialog(page)).toContainText('45 messages');
  });

  test('fits a phone: 390 px wide', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page);
    await runSample(page, PROMPTS.framework);
    // The arrays take turns on a phone: the switch shows the subagent's.
    await page.getByRole('radio', { name: 'Subagent 1' }).check({ force: true });
    await openCall(page, subagentRegion(page, 1), 1);
    await expect(sentItems(page)).toHaveCount(1);
    const box = (await dialog(page).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    const overflow = await dialog(page).evaluate((d) => d.scrollWidth - d.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: 'test-results/model-call-390.png' });
  });
});
