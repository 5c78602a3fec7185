/**
 * Which sandbox the playground uses (docs/automation-contract.md, `sandbox=auto|local|webcontainer`).
 *
 * WebContainer's runtime loads from StackBlitz; the fixture answers those requests as if offline,
 * so by default it never boots, as on a machine without internet (`wcTimeout` shortens the wait,
 * 15 s by default; under sandbox=auto the attempt itself starts 3 s after boot at the earliest, so
 * that a prompt clicked at once runs with nothing beside it). The last tests serve a stand-in runtime (fake-webcontainer.ts) so that it
 * does boot, and the agents work on WebContainer's files through the real client.
 */
import type { Page } from '@playwright/test';
import { fakeWebContainerRuntime } from './fake-webcontainer';
import { expect, open, parentList, PROMPTS, runSample, status, test } from './fixtures';

const header = (page: Page) => page.getByRole('banner');
/** Opens the header's runtime details (the sandbox badge is their button). */
const details = async (page: Page) => {
  const button = header(page).getByRole('button', { name: /^Sandbox / });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
};
const UNAVAILABLE =
  'WebContainer unavailable: did not start within 2 s: its runtime loads from StackBlitz, which needs internet';

test('sandbox=webcontainer reports that WebContainer did not start, instead of waiting forever', async ({
  page,
  watch,
}) => {
  await page.goto('/?speed=instant&sandbox=webcontainer&wcTimeout=2000');
  await expect(status(page)).toHaveText(/^Idle \(starting the sandbox/);
  await expect(header(page)).toContainText('WebContainer (starting…)');
  await expect(status(page)).toHaveText(
    'Failed: WebContainer did not start within 2 s: its runtime loads from StackBlitz, which needs internet',
    { timeout: 6000 },
  );
  await expect(header(page)).toContainText('WebContainer (not started)');
  expect(watch.webContainerRequests.length).toBeGreaterThan(0);
  // Only WebContainer: the offline sandbox was never started.
  expect(await watch.names()).not.toContain('sandbox');
  // A prompt does not hang on it either: the status keeps saying why.
  await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
  await expect(status(page)).toHaveText(/^Failed: WebContainer did not start/);
  expect(await watch.names()).not.toContain('parent');
});

test('sandbox=auto: the offline sandbox is ready at once; WebContainer is then reported unavailable', async ({
  page,
  watch,
}) => {
  await open(page, 'speed=instant&wcTimeout=2000');
  await expect(header(page)).toContainText('Local (offline shell)');
  await details(page);
  await expect(header(page).getByText(UNAVAILABLE)).toBeVisible({ timeout: 10_000 });
  await page.keyboard.press('Escape');
  // A quiet line, not an error state.
  await expect(status(page)).toHaveText(/^Idle/);
  expect(watch.webContainerRequests.length).toBeGreaterThan(0);
  await runSample(page, PROMPTS.framework);
  await expect(header(page)).toContainText('Local (offline shell)');
  await expect(page.getByRole('region', { name: 'Parent messages' })).toContainText('pytest');
});

test('sandbox=auto: a run does not wait for WebContainer', async ({ page }) => {
  await open(page, 'speed=instant');
  await expect(header(page)).toContainText('WebContainer starting…');
  await runSample(page, PROMPTS.framework);
  // Finished on the offline sandbox while WebContainer was still being waited for (15 s).
  await expect(header(page)).toContainText('Local (offline shell)');
  await expect(header(page)).toContainText('WebContainer starting…');
});

test('sandbox=auto: a prompt clicked as soon as the sandbox is ready runs with no WebContainer attempt beside it', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (/\/assets\/webcontainer-host-[\w-]+\.js$/.test(request.url())) asked.push(request.url());
  });
  await open(page, 'speed=instant');
  await runSample(page, PROMPTS.framework);
  expect(asked).toEqual([]);
  await expect(header(page)).toContainText('WebContainer starting…');
  // Its code comes once the page has been quiet a while (3 s after boot, 2 s after a run).
  await expect.poll(() => asked.length, { timeout: 10_000, intervals: [100] }).toBe(1);
});

test('sandbox=local never tries WebContainer', async ({ page, watch }) => {
  // The other languages' strings load once the page is quiet after the run, no sooner than
  // sandbox=auto would try WebContainer (src/page/warmup.svelte.ts, src/page/sandbox-session.svelte.ts).
  const quietWork = page.waitForRequest(/\/assets\/(zh|ja)-[\w-]+\.js$/, { timeout: 20_000 });
  await open(page, 'speed=instant&sandbox=local&wcTimeout=500');
  await runSample(page, PROMPTS.framework);
  await quietWork;
  await expect(header(page)).toContainText('Local (offline shell)');
  await expect(header(page)).not.toContainText('WebContainer');
  expect(watch.webContainerRequests).toEqual([]);
  await expect(page.locator('iframe')).toHaveCount(0);
});

test.describe('where WebContainer’s own code cannot be fetched (offline, or a newer deploy)', () => {
  test.use({ serviceWorkers: 'block' }); // the page's requests reach the route, not a worker's cache

  test('sandbox=auto says so in the header, quietly, and the offline sandbox runs on', async ({
    page,
    watch,
  }) => {
    // The browser logs the refused fetch of WebContainer's code: the failure this test makes.
    watch.allow(/Failed to load resource: net::ERR_INTERNET_DISCONNECTED/);
    await page.route(/\/assets\/webcontainer-host-[\w-]+\.js$/, (route) =>
      route.abort('internetdisconnected'),
    );
    await open(page, 'speed=instant');
    await details(page);
    await expect(
      header(page).getByText(/^WebContainer unavailable: its code did not load \(.+\)$/),
    ).toBeVisible({
      timeout: 10_000,
    });
    await page.keyboard.press('Escape');
    await expect(status(page)).toHaveText(/^Idle/);
    await runSample(page, PROMPTS.framework);
    await expect(header(page)).toContainText('Local (offline shell)');
  });
});

test.describe('where WebContainer boots (a stand-in runtime)', () => {
  test('sandbox=auto: booted before the first run, the sample project moves there and runs there', async ({
    page,
    watch,
  }) => {
    await fakeWebContainerRuntime(page);
    await open(page, 'speed=instant');
    await expect(header(page)).toContainText('WebContainer in /home/project');
    await expect(header(page)).toContainText(
      'WebContainer started before the first run: the sample project now runs there.',
    );
    await expect(page.getByRole('region', { name: 'Files' })).toContainText('conftest.py');
    await expect.poll(() => watch.open('sandbox')).toEqual([]);
    await runSample(page, PROMPTS.framework);
    await expect(parentList(page).nth(3)).toContainText('pytest');
    await expect(header(page)).toContainText('WebContainer in /home/project');
  });

  test('sandbox=auto: booted after a run began, the switch is offered and resets the files', async ({
    page,
  }) => {
    const runtime = await fakeWebContainerRuntime(page, { hold: true });
    await open(page, 'speed=instant&wcTimeout=20000');
    const files = page.getByRole('region', { name: 'Files' });
    await expect(files).toContainText('conftest.py'); // the tree is listed before it is compared
    const before = await files.innerText();
    await runSample(page, PROMPTS.module);
    await expect(header(page)).toContainText('Local (offline shell)');
    const created = ((await files.innerText()).match(/\b[\w-]+\.py\b/g) ?? []).filter(
      (f) => !before.includes(f),
    );
    expect(created.length).toBeGreaterThan(0);

    runtime.release();
    await details(page);
    await expect(
      header(page).getByText('WebContainer is ready. Switch? This resets the files to the sample project.'),
    ).toBeVisible();
    await expect(header(page)).toContainText('Local (offline shell)');
    await header(page).getByRole('button', { name: 'Switch to WebContainer' }).click();
    await expect(header(page)).toContainText('WebContainer in /home/project');
    await expect(header(page)).toContainText(
      'Switched to WebContainer: the files are the sample project again.',
    );
    await page.keyboard.press('Escape');
    await expect(files).not.toContainText(created[0]);
    await expect(files).toContainText('conftest.py');

    await runSample(page, PROMPTS.framework);
    await expect(parentList(page).last()).toContainText('pytest');
  });

  test("sandbox=auto: a run clicked while WebContainer's code is on the way holds its boot until the run is over", async ({
    page,
  }) => {
    // When StackBlitz's frame is added to the page, on the page's clock.
    await page.addInitScript(() => {
      new MutationObserver(() => {
        if (document.querySelector('iframe') && !('__frameAt' in window))
          Object.assign(window, { __frameAt: performance.now() });
      }).observe(document, { childList: true, subtree: true });
    });
    let asked = () => {};
    const codeAsked = new Promise<void>((resolve) => (asked = resolve));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/webcontainer-host-[\w-]+\.js$/, async (route) => {
      asked();
      await held;
      await route.continue();
    });
    await fakeWebContainerRuntime(page);
    await open(page, 'wcTimeout=20000'); // a person's pace: the run lasts seconds
    await codeAsked;
    await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
    await expect(status(page)).toHaveText(/^Running/);
    release();
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 25_000 });
    await details(page);
    await expect(
      header(page).getByText('WebContainer is ready. Switch? This resets the files to the sample project.'),
    ).toBeVisible();
    const [frameAt, finishedAt] = await page.evaluate(() => [
      (window as unknown as { __frameAt?: number }).__frameAt ?? -1,
      performance.getEntriesByName('run:finished')[0]?.startTime ?? -1,
    ]);
    expect(finishedAt).toBeGreaterThan(0);
    expect(frameAt).toBeGreaterThanOrEqual(finishedAt);
  });

  test('sandbox=webcontainer: the agents work on WebContainer only', async ({ page, watch }) => {
    await fakeWebContainerRuntime(page);
    await open(page, 'speed=instant&sandbox=webcontainer');
    await expect(header(page)).toContainText('WebContainer in /home/project');
    await runSample(page, PROMPTS.summarisePy);
    await expect(page.getByRole('region', { name: 'Parent messages' })).toContainText('stats.py');
    expect(await watch.names()).not.toContain('sandbox');
  });

  test('sandbox=webcontainer: bash runs in a shell worker, and the page keeps drawing during a run', async ({
    page,
    watch,
  }) => {
    await fakeWebContainerRuntime(page);
    await open(page, 'speed=instant&sandbox=webcontainer');
    await expect(header(page)).toContainText('WebContainer in /home/project');
    // just-bash runs off the main thread (WebContainer itself must stay there).
    await expect.poll(() => watch.names()).toContain('webcontainer-shell');
    await page.evaluate(() => {
      const frames = { count: 0 };
      (window as unknown as { __frames: typeof frames }).__frames = frames;
      const tick = () => {
        frames.count++;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await runSample(page, PROMPTS.framework);
    await expect(parentList(page).nth(3)).toContainText('pytest');
    const frames = await page.evaluate(() => (window as unknown as { __frames: { count: number } }).__frames);
    // The page drew all along (how long its longest frame is belongs to the bench).
    expect(frames.count).toBeGreaterThan(5);
  });
});
