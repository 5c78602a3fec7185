/**
 * The relay of the page's own server (relay/node.ts) against an endpoint without CORS: the mock
 * Messages API under /no-cors answers no preflight, as DashScope's endpoint does. A direct call
 * fails as a CORS refusal does; ticked, "Send through the local server" gets the same run through,
 * streaming as it goes. Settings' presets and "Test connection" are checked on the same endpoint.
 */
import type { Page } from '@playwright/test';
import { expect, MOCK_API, parentList, PROMPTS, status, test } from './fixtures';

const NO_CORS = `${MOCK_API}/no-cors`;
const KEY = 'sk-ant-e2e-relay-key-0123456789';

interface Recorded {
  method: string;
  path: string;
  noCors?: boolean;
  headers: Record<string, string>;
  body: { model: string; max_tokens: number; tools?: unknown[]; messages: unknown[] };
}

async function requests(page: Page): Promise<Recorded[]> {
  return (await (await page.request.get(`${MOCK_API}/_requests`)).json()) as Recorded[];
}

function settings(page: Page) {
  return page.getByRole('dialog', { name: 'Settings' });
}

/** Opens the playground on the CORS-less mock and enters the key in Settings. */
async function openOnNoCors(page: Page, model: string, key = KEY) {
  await page.request.delete(`${MOCK_API}/_requests`);
  await page.goto(`/?provider=anthropic&baseURL=${encodeURIComponent(NO_CORS)}&model=${model}`);
  await expect(status(page)).toHaveText(/^Idle/);
  await page.getByRole('button', { name: 'Settings' }).click();
  await settings(page).getByRole('textbox', { name: 'API key' }).fill(key);
}

test.describe('the relay for endpoints without CORS', () => {
  test('a direct call fails with the CORS sentence that offers the relay; through the relay the run finishes, streaming', async ({
    page,
    watch,
  }) => {
    test.setTimeout(90_000);
    watch.allow(/CORS|ERR_FAILED|status of 405/);
    await openOnNoCors(page, 'mock-slow');
    await settings(page).getByRole('button', { name: 'Save' }).click();

    await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
    await expect(status(page)).toHaveText(
      new RegExp(
        `^Failed: Could not reach ${NO_CORS.replace(/[.]/g, '\\.')}: connection error.*\\(CORS\\)\\. Tick "Send through the local server" in Settings to go through this page's server\\.`,
      ),
      { timeout: 20_000 },
    );
    // Those calls went straight from the browser, and each ended at its preflight, which the
    // endpoint refused: a browser sends no request that a CORS-less endpoint has not allowed.
    const direct = await requests(page);
    const preflights = direct.filter((r) => r.method === 'OPTIONS');
    expect(preflights.length).toBeGreaterThan(0);
    for (const r of preflights) {
      expect(r.path).toBe('/v1/messages');
      expect(r.headers.origin).toBe(new URL(page.url()).origin);
      expect(r.headers['access-control-request-method']).toBe('POST');
    }
    expect(direct.filter((r) => r.method === 'POST')).toEqual([]);
    await page.request.delete(`${MOCK_API}/_requests`);

    await page.getByRole('button', { name: 'Settings' }).click();
    const relay = settings(page).getByRole('checkbox', { name: 'Send through the local server' });
    await expect(relay).toBeEnabled();
    await relay.check();
    await settings(page).getByRole('button', { name: 'Save' }).click();
    await expect(settings(page)).toBeHidden();

    // The parent's first reply as drawn: each length its text had after its first piece appeared
    // and before its last did.
    await page.evaluate(() => {
      const partial = new Set<number>();
      (window as unknown as { __partial: typeof partial }).__partial = partial;
      const region = document.querySelector('[aria-label="Parent messages"]') ?? document.body;
      new MutationObserver(() => {
        const text = region.textContent ?? '';
        if (text.includes("I'll delegate th") && !text.includes('context stays small.'))
          partial.add(text.length);
      }).observe(region, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('textbox', { name: 'Prompt' }).fill('Use a subtask to list the files');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 60_000 });
    await expect(parentList(page).last()).toContainText('The subagent reported back');

    // mock-slow sends the 68 characters in 16-character deltas, 100 ms apart: relayed without
    // buffering, the reply is drawn in pieces before it is whole (buffered, it came whole at once).
    // Counted, not timed: a busy page may draw two pieces in one frame.
    const partial = await page.evaluate(() => [
      ...(window as unknown as { __partial: Set<number> }).__partial,
    ]);
    expect(partial.length).toBeGreaterThanOrEqual(2);

    const posts = (await requests(page)).filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThanOrEqual(4);
    for (const r of posts) {
      expect(r).toMatchObject({ path: '/v1/messages', noCors: true });
      // The key reached the endpoint (the mock redacts it in its record); the page's origin did not.
      expect(r.headers.authorization).toBe('[redacted]');
      expect(r.headers.origin).toBeUndefined();
    }
    expect(await page.content()).not.toContain(KEY);
  });

  test('Test connection through the relay works and names the model; a bad key reports authentication, not the key', async ({
    page,
    watch,
  }) => {
    watch.allow(/status of 401/);
    await openOnNoCors(page, 'mock-s04');
    const dialog = settings(page);
    await dialog.getByRole('checkbox', { name: 'Send through the local server' }).check();
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await expect(
      dialog.getByText(/^Works through this page's server: mock-s04 answered from 127\.0\.0\.1:\d+\.$/),
    ).toBeVisible();

    const [ping] = (await requests(page)).filter((r) => r.method === 'POST');
    expect(ping.body).toEqual({
      model: 'mock-s04',
      max_tokens: 1,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(ping.noCors).toBe(true);

    const badKey = 'bad-key';
    await dialog.getByRole('textbox', { name: 'API key' }).fill(badKey);
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await expect(
      dialog.getByText(/^Failed: Authentication failed \(401\): invalid x-api-key\. Check the API key\.$/),
    ).toBeVisible();
    await dialog.getByRole('textbox', { name: 'API key' }).fill(KEY);
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await expect(dialog.getByText(/^Works through this page's server/)).toBeVisible();
    // The key field holds it; nothing else on the page shows it.
    const shown = await page.evaluate(() => document.body.innerText);
    expect(shown).not.toContain(KEY);
    expect(await page.content()).not.toContain(KEY);
  });

  test('Test connection straight to the CORS-less endpoint says CORS and offers the relay', async ({
    page,
    watch,
  }) => {
    watch.allow(/CORS|ERR_FAILED|status of 405/);
    await openOnNoCors(page, 'mock-s04');
    const dialog = settings(page);
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await expect(
      dialog.getByText(
        /^Failed: Could not reach .*\(CORS\)\. Tick "Send through the local server" in Settings/,
      ),
    ).toBeVisible({ timeout: 15_000 });
  });

  test('Provider preset fills the base URL and model ids, and ticks the relay for DashScope', async ({
    page,
  }) => {
    await page.goto('/?provider=anthropic');
    await expect(status(page)).toHaveText(/^Idle/);
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = settings(page);
    const preset = dialog.getByRole('combobox', { name: 'Provider preset' });
    await expect(preset).toHaveValue('anthropic');
    const relay = dialog.getByRole('checkbox', { name: 'Send through the local server' });
    await expect(relay).not.toBeChecked();

    await preset.selectOption({ label: 'DashScope (Qwen)' });
    await expect(dialog.getByRole('textbox', { name: 'Base URL' })).toHaveValue(
      'https://dashscope.aliyuncs.com/apps/anthropic',
    );
    await expect(dialog.getByRole('combobox', { name: 'Model' })).toHaveValue('qwen3.5-plus');
    await expect(relay).toBeChecked();
    await expect(dialog.getByText(/Refuses browser calls \(no CORS\)/)).toBeVisible();

    await preset.selectOption({ label: 'DeepSeek' });
    await expect(dialog.getByRole('textbox', { name: 'Base URL' })).toHaveValue(
      'https://api.deepseek.com/anthropic',
    );
    await expect(dialog.getByRole('combobox', { name: 'Model' })).toHaveValue('deepseek-v4-flash');
    await expect(dialog.locator('datalist#model-suggestions option')).toHaveCount(1);

    // Typing a base URL of no preset shows Custom; Custom keeps what was typed.
    await dialog.getByRole('textbox', { name: 'Base URL' }).fill('http://127.0.0.1:9999');
    await expect(preset).toHaveValue('custom');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(relay).toBeChecked();
    await expect(dialog.getByRole('textbox', { name: 'Base URL' })).toHaveValue('http://127.0.0.1:9999');
  });

  test('where the page has no relay (a static host), the checkbox says so and cannot be ticked', async ({
    page,
    watch,
  }) => {
    // A static host answers /relay/health with its index page, or 404 (which the browser logs).
    watch.allow(/status of 404/);
    await page.route('**/relay/health', (route) => route.fulfill({ status: 404, body: 'Not found' }));
    await page.goto('/?provider=anthropic');
    await expect(status(page)).toHaveText(/^Idle/);
    await page.getByRole('button', { name: 'Settings' }).click();
    const relay = settings(page).getByRole('checkbox', { name: 'Send through the local server' });
    await expect(relay).toBeDisabled();
    await expect(
      settings(page).getByText(/^Not available: this page is served without a relay/),
    ).toBeVisible();
  });
});
