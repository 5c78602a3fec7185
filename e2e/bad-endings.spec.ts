/**
 * Replies that end badly, streamed from the mock Messages API through the SDK in the page's
 * workers: an error event in the middle of a reply, a reply cut at max_tokens inside a tool call,
 * a refusal. The status says which, what had arrived stays on screen marked, and a cut tool call
 * is never run nor left looking like one that waits for its result.
 */
import type { Page } from '@playwright/test';
import { expect, MOCK_API, openOnEndpoint, parentList, status, test } from './fixtures';

interface Recorded {
  method: string;
  path: string;
  body: { model: string; messages: Array<{ role: string; content: unknown }> };
  response?: { status: number; streamError?: string };
}

async function requests(page: Page): Promise<Recorded[]> {
  const all = (await (await page.request.get(`${MOCK_API}/_requests`)).json()) as Recorded[];
  return all.filter((r) => r.method === 'POST' && r.path === '/v1/messages');
}

async function runPrompt(page: Page, prompt: string) {
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
}

const parent = (page: Page) => page.getByRole('region', { name: 'Parent messages' });

test.describe('a reply that ends badly', () => {
  test('an error event mid-reply: the status names it, the text so far stays, marked cut off', async ({
    page,
  }) => {
    await openOnEndpoint(page, 'mock-overloaded-mid-stream');
    await runPrompt(page, 'What does this project test with?');
    await expect(status(page)).toHaveText(
      'Failed: the API broke off the reply with an error event (overloaded_error). The API is overloaded (overloaded_error during the stream): Overloaded. Try again later. The text that had arrived is kept, marked cut off.',
      { timeout: 15_000 },
    );
    const cut = parent(page).getByRole('group', { name: 'Assistant reply cut off before it was complete' });
    // Four deltas of 16 characters arrived before the error event.
    await expect(cut).toContainText('Let me look at the project first. I will list the files, then re');
    await expect(cut).toContainText('cut off');
    await expect(parentList(page)).toHaveCount(1);
    const sent = await requests(page);
    expect(sent.map((r) => r.response)).toEqual([
      { status: 200, body: null, streamError: 'overloaded_error' },
    ]);
  });

  test('max_tokens inside a tool call: never run, marked cut, and the next prompt still goes through', async ({
    page,
  }) => {
    await openOnEndpoint(page, 'mock-max-tokens-tool');
    await runPrompt(page, 'Use a subtask to look around');
    await expect(status(page)).toHaveText(
      'Finished: the last reply was cut at max_tokens in the middle of a tool call, which was not run.',
      { timeout: 15_000 },
    );
    // The reply is in the array as the API sent it, marked; its tool call says it never ran.
    await expect(parentList(page)).toHaveCount(2);
    const reply = parentList(page).last();
    await expect(reply).toHaveAttribute('data-role', 'assistant');
    await expect(reply).toContainText('cut at max_tokens');
    await expect(reply).toContainText('I will hand the exploration to a subagent.');
    const call = reply.locator('[data-block="tool_use"]');
    await expect(call).toHaveAttribute('data-not-run', 'cut');
    await expect(call).toContainText('cut: its input is incomplete, never run');
    // Nothing ran: no subagent, no result, one model call.
    await expect(page.getByRole('region', { name: /^Subagent \d+ messages$/ })).toHaveCount(0);
    await expect(parent(page).locator('[data-block="tool_result"]')).toHaveCount(0);
    expect(await requests(page)).toHaveLength(1);

    // A follow-up does not send the unanswered tool call (the API would refuse it).
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('combobox', { name: 'Model' }).fill('mock-refusal');
    await settings.getByRole('button', { name: 'Save' }).click();
    await page.request.delete(`${MOCK_API}/_requests`);
    await runPrompt(page, 'Then just tell me');
    await expect(status(page)).toHaveText(
      'Finished: the model refused (stop_reason refusal), so its last reply ends there.',
      { timeout: 15_000 },
    );
    const sent = await requests(page);
    expect(sent.map((r) => r.response?.status)).toEqual([200]);
    expect(JSON.stringify(sent[0].body.messages)).not.toContain('toolu_mock_cut');
    await expect(parentList(page).last()).toContainText('refused');
    await expect(parentList(page).last()).toContainText('I looked at the request, and I');
  });

  test('a subagent whose reply breaks off keeps its text cut off; the parent gets the error as its result', async ({
    page,
  }) => {
    await openOnEndpoint(page, 'mock-overloaded-subagent');
    await runPrompt(page, 'Use a subtask to find what testing framework this project uses');
    await expect(status(page)).toHaveText(/^Finished$/, { timeout: 15_000 });
    const sub = page.getByRole('region', { name: 'Subagent 1 messages' });
    const cut = sub.getByRole('group', { name: 'Assistant reply cut off before it was complete' });
    await expect(cut).toContainText('Let me look at the project first. I will list the files, then re');
    // As any failed tool in the reference: the error goes back to the parent as the task's result.
    await expect(parent(page).locator('[data-block="tool_result"]')).toContainText(
      'Error: The API is overloaded (overloaded_error during the stream)',
    );
  });
});
