/**
 * The SDK path end to end: the page's workers call a real HTTP endpoint (the mock Messages API
 * started by playwright.config.ts) through @anthropic-ai/sdk, with CORS as a browser does it.
 * The mock records every request, so these tests assert what the model received.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { CHILD_TOOLS, PARENT_TOOLS } from '../src/core/tools';
import {
  expect,
  exportRun,
  MOCK_API,
  openOnEndpoint,
  parentList,
  PROMPTS,
  runEnd,
  status,
  subagentRegion,
  test,
} from './fixtures';

const KEY = 'sk-ant-e2e-secret-key-0123456789';
const WORKDIR = '/home/user/project';

interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: {
    model: string;
    system: string;
    tools: unknown[];
    max_tokens: number;
    messages: Array<{ role: string; content: unknown }>;
  };
  response?: { status: number };
}

async function requests(page: Page): Promise<Recorded[]> {
  const all = (await (await page.request.get(`${MOCK_API}/_requests`)).json()) as Recorded[];
  return all.filter((r) => r.method === 'POST' && r.path === '/v1/messages');
}

/** Opens the playground on the mock endpoint, this file's key saved in Settings. */
const openWithKey = (page: Page, model: string, options: { baseURL?: string; key?: string } = {}) =>
  openOnEndpoint(page, model, { key: KEY, ...options });

/** Records every text the status line shows, to see short-lived states such as retrying. */
async function recordStatus(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __statusSeen: string[] }).__statusSeen = seen;
    const element = document.querySelector('[role="status"]')!;
    new MutationObserver(() => seen.push(element.textContent ?? '')).observe(element, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
}

/** The key must not be on screen, in the URL, in storage the user did not choose, or in an export. */
async function expectKeyNowhere(page: Page) {
  expect(await page.content()).not.toContain(KEY);
  expect(page.url()).not.toContain(KEY);
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  expect(stored).not.toContain(KEY);
  const exported = await exportRun(page);
  expect(exported).not.toContain(KEY);
  // Nor in the runs History keeps: read once the finished run is saved there, all of it.
  const keptRuns = () =>
    page.evaluate(
      () =>
        new Promise<string>((resolve, reject) => {
          const request = indexedDB.open('s04-history');
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            const db = request.result;
            const names = [...db.objectStoreNames];
            if (!names.length) return resolve('');
            const tx = db.transaction(names, 'readonly');
            const all = names.map((n) => tx.objectStore(n).getAll());
            tx.oncomplete = () => resolve(JSON.stringify(all.map((r) => r.result)));
          };
        }),
    );
  await expect.poll(keptRuns).toContain('{"kind":"finished"}');
  const kept = await keptRuns();
  expect(kept).toContain('s04-playground-run');
  expect(kept).not.toContain(KEY);
}

test.describe('the Anthropic API path (mock endpoint)', () => {
  test('prompt 1 through the SDK: requests match docs/protocol.md, the subagent starts fresh, only its summary returns', async ({
    page,
  }) => {
    await openWithKey(page, 'mock-s04');
    await expect(page.getByText('mock-s04').first()).toBeVisible();
    const ended = await runEnd(page);
    await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
    await ended();
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });

    const sent = await requests(page);
    const parentCalls = sent.filter((r) => r.body.tools.length === 5);
    const childCalls = sent.filter((r) => r.body.tools.length === 4);
    expect(parentCalls.length).toBe(2);
    expect(childCalls.length).toBeGreaterThanOrEqual(2);
    for (const r of sent) {
      expect(r.body.max_tokens).toBe(8000);
      expect(r.body.model).toBe('mock-s04');
      expect(r.headers.authorization).toBe('[redacted]');
    }
    expect(parentCalls[0].body.system).toBe(
      `You are a coding agent at ${WORKDIR}. Use the task tool to delegate exploration or subtasks.`,
    );
    expect(JSON.stringify(parentCalls[0].body.tools)).toBe(JSON.stringify(PARENT_TOOLS));
    expect(parentCalls[0].body.messages).toEqual([{ role: 'user', content: PROMPTS.framework }]);

    // The subagent's first request: its own system prompt, the child tools, ONE message: the task prompt.
    const taskUse = (
      parentCalls[1].body.messages[1].content as Array<{ type: string; input: { prompt: string } }>
    ).find((b) => b.type === 'tool_use')!;
    expect(childCalls[0].body.system).toBe(
      `You are a coding subagent at ${WORKDIR}. Complete the given task, then summarize your findings.`,
    );
    expect(JSON.stringify(childCalls[0].body.tools)).toBe(JSON.stringify(CHILD_TOOLS));
    expect(childCalls[0].body.messages).toEqual([{ role: 'user', content: taskUse.input.prompt }]);

    // The parent's second request holds 3 messages; the tool_result is the subagent's final text only.
    expect(parentCalls[1].body.messages).toHaveLength(3);
    const result = (parentCalls[1].body.messages[2].content as Array<{ type: string; content: string }>)[0];
    expect(result.type).toBe('tool_result');
    const subagentText = await subagentRegion(page, 1).getByRole('listitem').last().textContent();
    expect(subagentText).toContain(result.content.split('\n')[0]);
    expect(JSON.stringify(parentCalls[1].body.messages)).not.toContain(
      JSON.stringify(childCalls[1].body.messages[2]),
    );

    await expect(parentList(page)).toHaveCount(4);
    await expectKeyNowhere(page);
  });

  test('replays the recorded reference run: one subagent with six calls, arrays as recorded', async ({
    page,
  }) => {
    const trace = JSON.parse(readFileSync(new URL('../public/traces/s04.json', import.meta.url), 'utf8')) as {
      cycles: Array<{ request: { messages: Array<{ role: string }>; tools: unknown[] } }>;
    };
    await openWithKey(page, 'mock-trace');
    await page.getByRole('textbox', { name: 'Prompt' }).fill(PROMPTS.framework);
    const ended = await runEnd(page);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await ended();
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });

    const sent = await requests(page);
    expect(sent).toHaveLength(8);
    // Same loop for each call, and the same array length and roles as in the recorded requests.
    sent.forEach((r, i) => {
      const recorded = trace.cycles[i].request;
      expect(r.body.tools.length, `cycle ${i + 1}`).toBe(recorded.tools.length);
      expect(
        r.body.messages.map((m) => m.role),
        `cycle ${i + 1}`,
      ).toEqual(recorded.messages.map((m) => m.role));
    });
    await expect(subagentRegion(page, 1)).toBeVisible();
    await expect(subagentRegion(page, 2)).toHaveCount(0);
    await expect(subagentRegion(page, 1).getByRole('listitem')).toHaveCount(12);
    await expect(subagentRegion(page, 1)).toContainText(/6 calls sent [\d,]+ tokens in all/);
    await expect(parentList(page)).toHaveCount(4);
    // The thinking blocks of the recorded run are shown and were sent back (the mock checks signatures).
    await expect(
      page.getByRole('region', { name: 'Parent messages' }).locator('[data-block="thinking"]'),
    ).toHaveCount(2);
    await expect(parentList(page).last()).toContainText('unittest');
  });

  test('two task calls in one response run at once in two workers; results return in call order', async ({
    page,
    watch,
  }) => {
    await openWithKey(page, 'mock-parallel');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('Survey this project two ways at once');
    const ended = await runEnd(page);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await ended();
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });
    // The most subagent workers alive at the same time with a task (a spare has none): each
    // one's `subagent:run` goes from its task call to its worker's end.
    const mostAlive = await page.evaluate(() => {
      const runs = performance
        .getEntriesByName('subagent:run')
        .map((run) => [run.startTime, run.startTime + run.duration]);
      return Math.max(
        0,
        ...runs.map(([at]) => runs.filter(([start, end]) => start <= at && at < end).length),
      );
    });
    expect(mostAlive).toBe(2);
    expect((await watch.names()).filter((n) => n.startsWith('subagent-'))).toEqual([
      'subagent-1',
      'subagent-2',
    ]);
    expect(await watch.open('subagent-')).toEqual([]);

    // One user message with both results, in the order of the calls.
    const sent = await requests(page);
    const final = sent.filter((r) => r.body.tools.length === 5)[1].body.messages;
    const calls = (final[1].content as Array<{ type: string; id: string }>).filter(
      (b) => b.type === 'tool_use',
    );
    const results = final[2].content as Array<{ tool_use_id: string }>;
    expect(results.map((r) => r.tool_use_id)).toEqual(calls.map((c) => c.id));
    await expect(subagentRegion(page, 1)).toContainText('survey files');
    await expect(subagentRegion(page, 2)).toContainText('read the readme');
  });

  test('thinking and redacted_thinking blocks a provider sends unasked are shown and passed back', async ({
    page,
  }) => {
    await openWithKey(page, 'mock-thinking');
    const ended = await runEnd(page);
    await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
    await ended();
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });
    const parent = page.getByRole('region', { name: 'Parent messages' });
    await expect(parent.locator('[data-block="thinking"]').first()).toBeVisible();
    await expect(parent.locator('[data-block="redacted_thinking"]').first()).toBeVisible();
    const sent = await requests(page);
    expect(sent.every((r) => (r.response?.status ?? 200) === 200)).toBe(true);
  });

  test('a rejected key fails naming authentication, keeps the arrays, and never shows the key', async ({
    page,
    watch,
  }) => {
    watch.allow(/status of 401/);
    await openWithKey(page, 'mock-s04', { key: 'bad-key' });
    await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
    await expect(status(page)).toHaveText(/^Failed: Authentication failed \(401\)/, { timeout: 10_000 });
    await expect(parentList(page)).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
    expect(await page.content()).not.toContain('bad-key');
  });

  test('overloaded (529) is retried, the screen says so, and the run then finishes', async ({
    page,
    watch,
  }) => {
    watch.allow(/status of 529/);
    await openWithKey(page, 'mock-529-then-ok');
    await recordStatus(page);
    const ended = await runEnd(page);
    await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
    await ended();
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });
    const seen = await page.evaluate(() => (window as unknown as { __statusSeen: string[] }).__statusSeen);
    expect(seen.some((text) => /^Running.*retrying/.test(text))).toBe(true);
    const sent = await requests(page);
    expect(sent.some((r) => r.headers['x-stainless-retry-count'] === '1')).toBe(true);
  });

  test('rate limits and server errors fail with a clear reason after the retries', async ({
    page,
    watch,
  }) => {
    watch.allow(/status of (429|500)/);
    await openWithKey(page, 'mock-429');
    await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
    await expect(status(page)).toHaveText(/^Failed: Rate limited \(429\)/, { timeout: 15_000 });
    expect((await requests(page)).length).toBe(3); // the call and the SDK's two retries

    await openWithKey(page, 'mock-500');
    await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
    await expect(status(page)).toHaveText(/^Failed: .*\(500\)/, { timeout: 15_000 });
  });

  test('an endpoint that cannot be reached fails with a hint about the base URL and CORS', async ({
    page,
    watch,
  }) => {
    watch.allow(/ERR_CONNECTION_REFUSED/);
    await openWithKey(page, 'mock-s04', { baseURL: 'http://127.0.0.1:9' });
    await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
    await expect(status(page)).toHaveText(/^Failed: Could not reach http:\/\/127\.0\.0\.1:9.*CORS/, {
      timeout: 15_000,
    });
  });

  test('Stop aborts a streaming call and ends the workers that made it', async ({ page, watch }) => {
    await openWithKey(page, 'mock-slow');
    await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
    await expect(subagentRegion(page, 1)).toBeVisible({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(status(page)).toHaveText(/^Stopped/);
    const count = (await requests(page)).length;
    // The call ended with the agents' workers: once they are gone, nothing is left to make another
    // call or retry this one, and none was made meanwhile. (How soon Stop lands: npm run bench.)
    await expect.poll(() => watch.open('subagent-')).toEqual([]);
    await expect.poll(() => watch.open('parent')).toEqual([]);
    expect((await requests(page)).length).toBe(count);
  });

  test('an API key is refused until one is entered, and is remembered only when asked', async ({ page }) => {
    await page.goto(`/?provider=anthropic&baseURL=${encodeURIComponent(MOCK_API)}&model=mock-s04`);
    await expect(status(page)).toHaveText(/^Idle/);
    await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('API key');
    await expect(status(page)).toHaveText(/^Idle/);

    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('textbox', { name: 'API key' }).fill(KEY);
    await dialog.getByRole('checkbox', { name: /Remember the key/ }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await page.evaluate(() => localStorage.getItem('s04.apiKey'))).toBe(KEY);

    await page.reload();
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(dialog.getByRole('textbox', { name: 'API key' })).toHaveValue(KEY);
    await dialog.getByRole('checkbox', { name: /Remember the key/ }).uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await page.evaluate(() => localStorage.getItem('s04.apiKey'))).toBeNull();
  });
});
