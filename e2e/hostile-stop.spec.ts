/**
 * Stop under a runaway command, and a long session: the learner's Stop must reach the sandbox,
 * whose thread may be inside a loop that never yields, and twenty runs in one page must leave
 * behind no workers and no memory.
 *
 * The model is the mock Messages API (scripts/mock-api.mjs): its mock-runaway-* scenarios run a
 * command that never ends when the prompt says "runaway", else `echo ready`.
 */
import type { Page } from '@playwright/test';
import {
  expect,
  open,
  openOnEndpoint,
  parentList,
  PROMPTS,
  runSample,
  runtimeDetails,
  status,
  test,
} from './fixtures';
import { liveWorkerTargets } from '../scripts/worker-targets.mjs';

/** The mock endpoint on the offline sandbox, a key saved in Settings. */
const openOnMock = (page: Page, scenario: string) =>
  openOnEndpoint(page, scenario, { query: 'sandbox=local' });

async function runPrompt(page: Page, prompt: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
}

/**
 * The names of the live dedicated workers, nested ones included (the sandbox's `python`), as
 * DevTools lists them: asking a worker itself would wait behind the very loop under test.
 */
async function liveWorkers(page: Page): Promise<string[]> {
  return (await liveWorkerTargets(page)).map((target) => target.title).sort();
}

const RUNAWAYS = [
  { scenario: 'mock-runaway-bash', language: 'bash', command: 'while true; do :; done' },
  { scenario: 'mock-runaway-python', language: 'python3', command: 'python3 -c "while True: pass"' },
  { scenario: 'mock-runaway-node', language: 'node', command: "node -e 'while (true) {}'" },
];

for (const { scenario, language, command } of RUNAWAYS) {
  test(`Stop ends a runaway ${language} command: the next run's command answers at once`, async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await openOnMock(page, scenario);
    await runPrompt(page, 'Start the runaway command');
    const call = parentList(page).locator('[data-block="tool_use"]');
    await expect(call).toContainText(command);
    if (language === 'python3') {
      // Pyodide's first load takes seconds; Stop must meet the script itself, not the load.
      await runtimeDetails(page);
      await expect(page.getByText('python3 (Pyodide) loaded in')).toBeVisible({ timeout: 40_000 });
      await page.keyboard.press('Escape');
      await expect.poll(() => liveWorkers(page)).toContain('python');
    }
    // The sandbox has begun the command: Stop meets it running, not on its way.
    await page.waitForFunction(
      (command) =>
        performance
          .getEntriesByName('sandbox:exec')
          .some((mark) => (mark as PerformanceMark).detail?.command === command),
      command,
    );
    await expect(status(page)).toHaveText(/^Running/);
    // The interpreter running the script (python3's worker, while it runs).
    const interpreters = (await liveWorkerTargets(page)).filter((t) => t.title === 'python').map((t) => t.id);

    await page.getByRole('button', { name: 'Stop' }).click();
    // How soon: the bench's "Stop a runaway ..." figures. Here: that it stops, and what follows.
    await expect(status(page)).toHaveText(/^Stopped/);

    // A second command on the same sandbox: before, it waited behind the loop for 120 s.
    await runPrompt(page, 'Now a quick one');
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 5000 });
    const results = parentList(page).locator('[data-block="tool_result"]');
    await expect(results.last()).toContainText('ready');
    await expect(parentList(page).last()).toContainText('The command said: ready');
    if (language === 'python3') {
      // Stop ends the script with its interpreter: that worker and its memory are gone (a later
      // python3 gets a fresh one). How soon it goes (interrupted first, at once) is the bench's
      // "its interpreter's worker gone" figure; here, that it goes.
      expect(interpreters.length).toBeGreaterThan(0);
      await expect
        .poll(async () => (await liveWorkerTargets(page)).filter((t) => interpreters.includes(t.id)))
        .toEqual([]);
    }
  });
}

test('after 20 runs in one page: only the sandbox and the parent live on, and the heap has not grown', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await open(page, 'provider=demo&speed=instant&sandbox=local');
  const cdp = await page.context().newCDPSession(page);
  const heapAfterGc = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  };

  await runSample(page, PROMPTS.framework);
  const first = await heapAfterGc();
  for (let i = 1; i < 20; i++) {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await runSample(page, PROMPTS.framework);
  }
  // Beside them, by design: the spare for the next task (it has run nothing, so it has no
  // `Subagent N messages` region), and python3's interpreter if it was loaded ahead (the page sat
  // idle long enough between runs: the runtime details say it is loaded).
  await runtimeDetails(page);
  const pythonLoaded = page.getByText('python3 (Pyodide) loaded in');
  const byDesign = async (live: string[]) => {
    const spares: string[] = [];
    for (const name of new Set(live.filter((n) => /^subagent-\d+$/.test(n)))) {
      const region = page.getByRole('region', {
        name: `Subagent ${name.slice('subagent-'.length)} messages`,
      });
      if ((await region.count()) === 0) spares.push(name);
    }
    // One spare at most; a subagent worker whose region is on screen is not one.
    return [...spares.slice(0, 1), ...((await pythonLoaded.isVisible()) ? ['python'] : [])];
  };
  await expect
    .poll(async () => {
      const live = await liveWorkers(page);
      const extra = await byDesign(live);
      return live.filter((name) => !extra.includes(name));
    })
    .toEqual(['parent', 'sandbox']);
  const last = await heapAfterGc();
  expect(last, `heap after GC: ${first} bytes after the first run, ${last} after the 20th`).toBeLessThan(
    2 * first,
  );
});
