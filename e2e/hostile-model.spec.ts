/**
 * Under attack and under faults: a link that points a remembered key at another host, a
 * connection lost mid-reply, and a model whose replies could poison the history. The mock
 * Messages API (started by playwright.config.ts) plays each case and records what it received.
 */
import type { Page } from '@playwright/test';
import { expect, MOCK_API, openOnEndpoint, parentList, PROMPTS, saveKey, status, test } from './fixtures';

/** The same mock under another host name: another endpoint as far as a key is concerned. */
const PORT = new URL(MOCK_API).port;
const OTHER = `http://localhost:${PORT}`;
const KEY = 'sk-ant-e2e-hostile-key-0123456789';

interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: { messages: Array<{ role: string; content: unknown }> };
  response?: { status: number; dropped?: boolean };
}

async function records(page: Page): Promise<Recorded[]> {
  return (await (await page.request.get(`${MOCK_API}/_requests`)).json()) as Recorded[];
}

async function requests(page: Page): Promise<Recorded[]> {
  return (await records(page)).filter((r) => r.method === 'POST' && r.path === '/v1/messages');
}

/** Requests that carried a key (the mock records the header, redacted). */
async function keyed(page: Page): Promise<Recorded[]> {
  return (await records(page)).filter((r) => r.headers.authorization || r.headers['x-api-key']);
}

const link = (model: string, baseURL = MOCK_API) =>
  `/?provider=anthropic&baseURL=${encodeURIComponent(baseURL)}&model=${model}`;

const openWithKey = (page: Page, model: string) => openOnEndpoint(page, model, { key: KEY });

async function runPrompt(page: Page, prompt: string) {
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
}

test.describe('a hostile link or model', () => {
  test('a remembered key is not sent to the host a link names until the learner says so', async ({
    page,
  }) => {
    await page.goto(link('mock-s04'));
    await expect(status(page)).toHaveText(/^Idle/);
    await saveKey(page, KEY, { remember: true });

    // Settings names the key's host, and shows before Save that a new base URL would move it.
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await expect(settings.getByText(`Saved for 127.0.0.1:${PORT}`)).toBeVisible();
    await settings.getByRole('textbox', { name: 'Base URL' }).fill(OTHER);
    await expect(settings).toContainText(
      `This key was saved for 127.0.0.1:${PORT}. Saving sends it to localhost:${PORT} from now on.`,
    );
    await settings.getByRole('button', { name: 'Cancel' }).click();

    await page.request.delete(`${MOCK_API}/_requests`);
    await page.goto(link('mock-s04', OTHER));
    await expect(status(page)).toHaveText(/^Idle/);
    await runPrompt(page, PROMPTS.framework);

    const question = page.getByRole('alertdialog', { name: `Send your API key to localhost:${PORT}?` });
    await expect(question).toBeVisible();
    await expect(question).toContainText(`saved for 127.0.0.1:${PORT}`);
    expect(await keyed(page)).toEqual([]);

    await question.getByRole('button', { name: "Don't send" }).click();
    await expect(question).toBeHidden();
    await expect(page.getByRole('alert')).toContainText(`not sent to localhost:${PORT}`);
    await expect(status(page)).toHaveText(/^Idle/);
    await expect(page.getByRole('textbox', { name: 'Prompt' })).toHaveValue(PROMPTS.framework);
    await expect(parentList(page)).toHaveCount(0);
    expect(await keyed(page)).toEqual([]);

    // Asked again; this time the learner sends it, and only then does a keyed request arrive.
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await question.getByRole('button', { name: `Send the key to localhost:${PORT}` }).click();
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });
    const sent = await keyed(page);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.headers.host === `localhost:${PORT}`)).toBe(true);
    // The remembered key still belongs to the host it was saved for.
    expect(await page.evaluate(() => localStorage.getItem('s04.apiKeyOrigin'))).toBe(MOCK_API);
    expect(await page.content()).not.toContain(KEY);
  });

  test('text streamed before the connection dropped stays, marked as cut off, and is never sent back', async ({
    page,
    watch,
  }) => {
    watch.allow(/ERR_INCOMPLETE_CHUNKED_ENCODING|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE/);
    await openWithKey(page, 'mock-drop');
    await runPrompt(page, PROMPTS.framework);
    await expect(status(page)).toHaveText(
      /^Failed: The connection to http:\/\/127\.0\.0\.1:\d+ was lost in the middle of the reply/,
      { timeout: 15_000 },
    );
    expect((await requests(page)).map((r) => r.response?.dropped)).toEqual([true]);

    const parent = page.getByRole('region', { name: 'Parent messages' });
    const cut = parent.getByRole('group', { name: 'Assistant reply cut off before it was complete' });
    await expect(cut).toBeVisible();
    // Four deltas of 16 characters reached the page before the socket went.
    await expect(cut).toContainText('Let me look at the project first. I will list the files, then re');
    await expect(cut).toContainText('cut off');
    // The prompt is the array's only entry: the partial reply never became a message.
    await expect(parentList(page)).toHaveCount(1);

    // The next prompt's history holds no trace of it.
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('combobox', { name: 'Model' }).fill('mock-s04');
    await settings.getByRole('button', { name: 'Save' }).click();
    await page.request.delete(`${MOCK_API}/_requests`);
    await runPrompt(page, 'Try again, please');
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });
    const sent = await requests(page);
    expect(sent[0].body.messages).toEqual([{ role: 'user', content: 'Try again, please' }]);
    expect(JSON.stringify(sent.map((r) => r.body))).not.toContain('Let me look at the project');
  });

  test('stop_reason tool_use without a tool_use block ends the turn, and later prompts still work', async ({
    page,
  }) => {
    await openWithKey(page, 'mock-tool-use-no-block');
    await runPrompt(page, 'first');
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 15_000 });
    await expect(page.getByRole('region', { name: 'Log' })).toContainText(
      'stop_reason tool_use without a tool_use block',
    );
    await expect(parentList(page)).toHaveCount(2);

    await runPrompt(page, 'second');
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 15_000 });
    const sent = await requests(page);
    expect(sent.map((r) => r.response?.status)).toEqual([200, 200]);
    expect(sent[1].body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    await expect(parentList(page)).toHaveCount(4);
  });

  test('a block of an unknown type is shown, folded, so that what is sent back can be seen', async ({
    page,
  }) => {
    await openWithKey(page, 'mock-unknown-block');
    await runPrompt(page, 'first');
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 15_000 });
    const answer = parentList(page).nth(1);
    await expect(answer.locator('[data-block="text"]')).toContainText('Here is my answer');
    const summary = answer.getByText('unknown block: mock_annotation');
    await expect(summary).toBeVisible();
    const hidden = answer.getByText('A block type this client has never seen.');
    await expect(hidden).toBeHidden();
    await summary.click();
    await expect(hidden).toBeVisible();

    // It goes back to the model with the array, as shown.
    await runPrompt(page, 'second');
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 15_000 });
    const sent = await requests(page);
    expect(sent[1].body.messages[1].content).toContainEqual({
      type: 'mock_annotation',
      note: 'A block type this client has never seen.',
    });
  });
});
