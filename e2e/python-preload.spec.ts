/**
 * On the python sample, python3's runtime (Pyodide, seconds) loads in idle time once the page has
 * settled: prompt 3's check then starts at once. The header shows the load as it goes; a browser
 * that asks to save data loads it on first use instead.
 */
import { parentCallsRecord } from '../scripts/records.mjs';
import { expect, importFile, open, PROMPTS, runSample, runtimeDetails, test } from './fixtures';

test('a page left open loads python3 ahead, before the service worker saves the playground: prompt 3 runs it with no wait', async ({
  page,
  context,
}) => {
  test.setTimeout(60_000);
  // Pyodide's load is held back past the service worker's usual moment (5 s after the sandbox is
  // ready): its install waits for the load to end.
  await context.route('**/pyodide/python_stdlib.zip', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 4000));
    await route.continue();
  });
  // When the page registers its service worker, python3's note says where its load stands.
  await page.addInitScript(() => {
    const registered: Array<string | null> = [];
    (window as unknown as { __registered: typeof registered }).__registered = registered;
    // Also run in the page's frames, some of which (WebContainer's refused frame) have no service workers.
    if (typeof ServiceWorkerContainer === 'undefined') return;
    const register = ServiceWorkerContainer.prototype.register;
    ServiceWorkerContainer.prototype.register = function (...args) {
      registered.push(document.querySelector('[data-runtime="python"]')?.getAttribute('data-phase') ?? null);
      return register.apply(this, args);
    };
  });
  const registered = () =>
    page.evaluate(() => (window as unknown as { __registered: Array<string | null> }).__registered);
  await open(page);
  const note = page.locator('[data-runtime="python"]');
  await expect(note).toHaveAttribute('data-phase', 'loading', { timeout: 10_000 });
  await expect(note).toHaveAttribute('data-phase', 'ready', { timeout: 30_000 });
  await expect(note).toContainText('python3 (Pyodide)');
  await expect.poll(registered, { timeout: 15_000, intervals: [100] }).toEqual(['ready']);
  await runtimeDetails(page);
  await expect(page.getByText(/^Saved for offline use/)).toBeVisible({ timeout: 30_000 });

  await runSample(page, PROMPTS.module);
  const outputs = await page.evaluate(() => {
    const record = (window as unknown as { __s04: { record: { events: Array<Record<string, unknown>> } } })
      .__s04.record;
    const ids = record.events
      .filter((e) => e.type === 'tool_start' && JSON.stringify(e.input).includes('python3'))
      .map((e) => e.id);
    return record.events.filter((e) => e.type === 'tool_end' && ids.includes(e.id)).map((e) => e.output);
  });
  expect(outputs.length).toBeGreaterThan(0);
  for (const output of outputs) expect(output).not.toContain('loading Pyodide');
  expect(outputs.at(-1)).toMatch(/passed\nexit code: 0$/);
});

test('when the browser asks to save data, python3 is not loaded ahead', async ({ page }) => {
  await page.addInitScript(() =>
    Object.defineProperty(navigator, 'connection', { value: { saveData: true }, configurable: true }),
  );
  await open(page);
  // The service worker installs once the page is quiet, after python3's moment to load ahead
  // (where it would wait for that load): by then python3 would have started loading.
  await runtimeDetails(page);
  await expect(page.getByText(/^Saved for offline use/)).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-runtime="python"]')).toHaveCount(0);
});

test('the TypeScript sample does not load python3 ahead', async ({ page }) => {
  await open(page, 'speed=instant&sample=typescript');
  await runtimeDetails(page);
  await expect(page.getByText(/^Saved for offline use/)).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-runtime="python"]')).toHaveCount(0);
});

test('a record looked through holds python3 back; back at the playground, it loads ahead', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await open(page);
  // Opened before python3's moment (2.5 s after the sandbox is ready, then an idle moment within 3 s).
  await importFile(page, 'calls-20.json', JSON.stringify(parentCallsRecord(20, 200)));
  await expect(page.getByText(/^Viewing the file calls-20\.json/)).toBeVisible();
  await page.waitForTimeout(8000);
  await expect(page.locator('[data-runtime="python"]')).toHaveCount(0);
  await page.getByRole('button', { name: 'Back to the playground' }).click();
  await expect(page.locator('[data-runtime="python"]')).toHaveAttribute('data-phase', /loading|ready/, {
    timeout: 15_000,
  });
});
