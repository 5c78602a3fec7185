/**
 * What a model or the code it runs sends back is untrusted. Through the mock Messages API: a
 * reply whose text tries to restyle, cover and impersonate the app and to load a tracking pixel
 * (mock-spoof), and python3 scripts that try to leave the offline sandbox (mock-shell runs the
 * prompt as one bash command).
 */
import type { Page, Request } from '@playwright/test';
import { expect, MOCK_API, openOnEndpoint, PROMPTS, runEnd, status, test } from './fixtures';

interface Recorded {
  method: string;
  path: string;
  body: { messages: Array<{ role: string; content: unknown }> } | null;
}

async function recorded(page: Page): Promise<Recorded[]> {
  return (await (await page.request.get(`${MOCK_API}/_requests`)).json()) as Recorded[];
}

const openOnMock = (page: Page, model: string, query = '') =>
  openOnEndpoint(page, model, { key: 'sk-ant-e2e-hostile', query });

/** Runs a prompt to its end (with mock-shell: one bash command). */
async function runPrompt(page: Page, prompt: string, timeout = 20_000): Promise<void> {
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  const ended = await runEnd(page, timeout);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await ended();
  await expect(status(page)).toHaveText(/^Finished/, { timeout });
}

/** Whether what is hit at a point of the viewport lies inside its own message box, if it is in one. */
function hitStaysInItsBox(page: Page, x: number, y: number): Promise<boolean> {
  return page.evaluate(
    ([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      const text = hit?.closest('[data-block="text"]');
      if (!text) return hit !== null;
      const box = text.getBoundingClientRect();
      return x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
    },
    [x, y],
  );
}

test('model text cannot hide, cover or impersonate the app, nor load a remote image', async ({
  page,
  watch,
}) => {
  void watch;
  const pixelRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/pixel.png') pixelRequests.push(request.url());
  });
  await openOnMock(page, 'mock-spoof');
  await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
  const parent = page.getByRole('region', { name: 'Parent messages' });
  // The whole hostile text is on screen, and the run goes on for seconds after it.
  await expect(parent).toContainText('End of the report.');
  await expect(status(page)).toHaveText(/^Running/);

  const stop = page.getByRole('button', { name: 'Stop' });
  await expect(stop).toBeVisible();
  await expect(stop).toBeEnabled();
  await expect(page.getByRole('status')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toHaveCount(1);
  await expect(parent.getByRole('button')).not.toContainText(['Run']);
  await expect(parent).toContainText('Nothing to see');

  // Nothing lies over the page: Stop is what is under its own centre, and the centre of the
  // viewport is not covered by a message's text from outside its box.
  const box = (await stop.boundingBox())!;
  const stopHit = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x, y)?.closest('button')?.textContent?.trim(),
    [box.x + box.width / 2, box.y + box.height / 2],
  );
  expect(stopHit).toBe('Stop');
  const viewport = page.viewportSize()!;
  expect(await hitStaysInItsBox(page, viewport.width / 2, viewport.height / 2)).toBe(true);

  // The image is a link to it, not a request.
  await expect(parent.getByRole('link', { name: `${MOCK_API}/pixel.png` })).toHaveAttribute(
    'href',
    `${MOCK_API}/pixel.png`,
  );
  await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });
  await expect(page.getByRole('status')).toHaveCount(1);
  expect(pixelRequests).toEqual([]);
  expect((await recorded(page)).filter((r) => r.path === '/pixel.png')).toEqual([]);
});

/** Each way out, tried from Python; one line each: `name: ALLOWED`, or the error met. */
function escapeScript(pageOrigin: string): string {
  return String.raw`
import js, pyodide_js
from pyodide.code import run_js
from pyodide.ffi import to_js

page, mock = ${JSON.stringify(pageOrigin)}, ${JSON.stringify(MOCK_API)}
tries = {
    'fetch': lambda: js.fetch(page + '/probe-fetch'),
    'fetch mock': lambda: js.fetch(mock + '/probe-fetch'),
    'XMLHttpRequest': lambda: js.XMLHttpRequest.new().open('GET', page + '/probe-xhr'),
    'WebSocket': lambda: js.WebSocket.new('ws://127.0.0.1:9/'),
    'EventSource': lambda: js.EventSource.new(page + '/probe-es'),
    'importScripts': lambda: js.importScripts(page + '/probe-import.js'),
    'FontFace': lambda: js.FontFace.new('probe', f'url({page}/probe-font.woff2)').load(),
    'Worker': lambda: js.Worker.new(page + '/probe-worker.js'),
    'indexedDB': lambda: js.indexedDB.open('s04'),
    'caches': lambda: js.caches.open('s04'),
    'navigator.storage': lambda: js.navigator.storage.getDirectory(),
    'postMessage': lambda: js.postMessage('hi'),
    'BroadcastChannel': lambda: js.BroadcastChannel.new('s04'),
    'eval': lambda: js.eval('1'),
    'Function': lambda: js.Function('return import("/probe-eval.js")')(),
    'constructor': lambda: to_js({}).constructor.constructor('return 1')(),
    'run_js': lambda: run_js('1'),
    'setTimeout string': lambda: js.setTimeout('import("/probe-timer.js")', 0),
    'pyodide_js Function': lambda: pyodide_js.loadPackage.constructor('return 1')(),
}
for name, attempt in tries.items():
    try:
        attempt()
        print(f'{name}: ALLOWED')
    except Exception as error:
        print(f'{name}: {type(error).__name__}: {str(error).splitlines()[0]}')
`;
}

test('python3 cannot reach the network, the storage or the page', async ({ page, watch }) => {
  void watch;
  test.setTimeout(180_000);
  // The offline sandbox only: with sandbox=auto the page tries WebContainer in a quiet moment, and
  // its frame's request (the page's own, not the script's) could come while the script runs.
  await openOnMock(page, 'mock-shell', 'sandbox=local');
  // Pyodide loads its own files on first use: that is the app, before any script runs.
  await runPrompt(page, `python3 -c "print(6 * 7)"`, 150_000);

  const requests: Request[] = [];
  const onRequest = (request: Request) => requests.push(request);
  page.on('request', onRequest);
  await page.request.delete(`${MOCK_API}/_requests`);
  const origin = new URL(page.url()).origin;
  const encoded = Buffer.from(escapeScript(origin)).toString('base64');
  await runPrompt(page, `python3 -c "import base64; exec(base64.b64decode('${encoded}').decode())"`);
  // The model call that carried the script's output was made after anything the script started:
  // once this test has heard of that call, it has heard of those.
  await expect
    .poll(() => requests.filter((r) => r.url() === `${MOCK_API}/v1/messages`).length)
    .toBeGreaterThanOrEqual(2);
  page.off('request', onRequest);

  const calls = await recorded(page);
  const toolResult = calls
    .filter((r) => r.path === '/v1/messages' && r.body)
    .flatMap((r) => r.body!.messages.at(-1)!.content as Array<{ type: string; content?: string }>)
    .find((block) => block.type === 'tool_result');
  const lines = Object.fromEntries(
    String(toolResult?.content ?? '')
      .trim()
      .split('\n')
      .map((line) => line.split(/: (.*)/s).slice(0, 2) as [string, string]),
  );
  expect(Object.keys(lines)).toHaveLength(19);
  for (const [name, outcome] of Object.entries(lines))
    expect(outcome, name).toMatch(/Error: .+ is not available: code in this sandbox is offline/);
  expect(lines.fetch).toContain('fetch is not available');

  // Nothing but the model calls left the page while the script ran. The page's own files it
  // fetches ahead in a quiet moment (the other languages, the dialogs' code: src/page/warmup.svelte.ts)
  // may come between the two runs; every probe of the script is elsewhere (/probe-*, other ports).
  const other = requests
    .map((r) => r.url())
    .filter((url) => url !== `${MOCK_API}/v1/messages` && !url.startsWith(`${origin}/assets/`));
  expect(other).toEqual([]);
  expect(calls.filter((r) => r.path.startsWith('/probe'))).toEqual([]);
});
