/**
 * The isolation check on every run (src/run/isolation.ts): what the region `Isolation check` says
 * of each subagent agrees with the request bodies the mock Messages API received, isolated (nothing
 * of the parent carried) and forked (the parent's messages carried); Model call marks a carried
 * message; the planted code word is told by a forked subagent only.
 */
import type { Page } from '@playwright/test';
import { CODEWORD_PROMPTS } from '../src/models/demo/codeword';
import {
  expect,
  MOCK_API,
  open,
  openOnEndpoint,
  PROMPTS,
  runSample,
  status,
  subagentRegion,
  test,
} from './fixtures';

const check = (page: Page) => page.getByRole('region', { name: 'Isolation check' });

interface Body {
  system: string;
  messages: unknown[];
}

/** The Messages API requests the mock received: the parent's and the subagent's, in order. */
async function bodies(page: Page): Promise<{ parent: Body[]; child: Body[] }> {
  const all = (await (await page.request.get(`${MOCK_API}/_requests`)).json()) as Array<{
    method: string;
    path: string;
    body: Body;
  }>;
  const posted = all.filter((r) => r.method === 'POST' && r.path === '/v1/messages').map((r) => r.body);
  return {
    parent: posted.filter((b) => !String(b.system).includes('subagent')),
    child: posted.filter((b) => String(b.system).includes('subagent')),
  };
}

/** How many of a child request's messages (or their blocks) are byte for byte the parent's. */
function carried(child: Body, parent: Body): number {
  const whole = new Set(parent.messages.map((m) => JSON.stringify(m)));
  const blocks = new Set(
    parent.messages.flatMap((m) => {
      const content = (m as { content: unknown }).content;
      return typeof content === 'string'
        ? [JSON.stringify({ type: 'text', text: content })]
        : (content as unknown[]).map((b) => JSON.stringify(b));
    }),
  );
  return child.messages.filter((m) => {
    if (whole.has(JSON.stringify(m))) return true;
    const content = (m as { content: unknown }).content;
    const own = typeof content === 'string' ? [{ type: 'text', text: content }] : (content as unknown[]);
    return own.some((b) => blocks.has(JSON.stringify(b)));
  }).length;
}

for (const context of ['isolated', 'fork'] as const) {
  test(`${context}: the isolation check agrees with the request bodies the API received`, async ({
    page,
  }) => {
    await openOnEndpoint(page, 'mock-s04', { query: `context=${context}` });
    await runSample(page, PROMPTS.framework);
    const { parent, child } = await bodies(page);
    expect(child.length).toBeGreaterThan(0);
    // The parent's request that called `task` holds its conversation up to that call.
    const caller = parent[0];
    const counts = child.map((body) => carried(body, caller));
    const row = check(page).getByRole('listitem').filter({ hasText: 'Subagent 1' });
    if (context === 'isolated') {
      expect(counts.every((n) => n === 0)).toBe(true);
      await expect(row).toContainText(
        `${child.length} calls, none carried anything of Parent's conversation`,
      );
    } else {
      expect(counts.every((n) => n === caller.messages.length)).toBe(true);
      await expect(row).toContainText(`carried Parent's ${caller.messages.length} message`);
      // Model call marks what its first call carried.
      await subagentRegion(page, 1).getByRole('button', { name: 'Model call 1', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Model call' });
      await expect(dialog).toContainText(`Isolation check: ${caller.messages.length} message`);
      await expect(
        dialog.getByRole('listitem').filter({ hasText: "from Parent's conversation" }),
      ).toHaveCount(caller.messages.length);
    }
  });
}

test('the planted code word: told by a forked subagent, not by an isolated one', async ({ page }) => {
  test.setTimeout(60_000);
  await open(page);
  await runSample(page, PROMPTS.framework);
  await check(page).getByRole('button', { name: 'Plant a code word' }).click();
  await expect(page.getByRole('region', { name: 'Comparison' }).getByText(/^Isolation saved/)).toBeVisible({
    timeout: 30_000,
  });
  await expect(status(page)).toHaveText(/^Finished/);
  // The last run compared is the isolated one: its subagent could not tell the word.
  await expect(subagentRegion(page, 1)).toContainText('I was given no code word');
  await expect(page.getByRole('region', { name: 'Parent messages' })).toContainText('It could not tell');
  await expect(check(page)).toContainText("1 call, it carried nothing of Parent's conversation");
  // The forked run, opened from History: its subagent told it, and carried the parent's prompt.
  await page.getByRole('button', { name: 'History' }).click();
  const history = page.getByRole('dialog', { name: 'History' });
  await history.getByRole('group', { name: 'Fork' }).getByRole('button', { name: 'Open' }).click();
  await expect(subagentRegion(page, 1)).toContainText('The code word is PELICAN-42');
  await expect(check(page)).toContainText("carried Parent's 1 message");
  expect(CODEWORD_PROMPTS.en).toContain('PELICAN-42');
});
