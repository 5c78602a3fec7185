/**
 * Stop under a runaway command, in each language the sandbox runs (bash, node, python3): from the
 * click to `Stopped`, to the sandbox's own thread answering again, to python3's interpreter's
 * worker gone; then the next run's first command and the whole next run. A mock API on loopback
 * plays the model that starts the runaway command. Part of `npm run bench -- figures`, or alone:
 * `npm run bench -- stop`.
 */
import { startMockApi } from './mock-api.mjs';
import { median, round } from './stats.mjs';
import { liveWorkerTargets } from './worker-targets.mjs';

/** Each language's figures (median and slowest) on the app served at `baseUrl`. */
export async function stopBench(browser, baseUrl) {
  const mock = await startMockApi({ port: 0 });
  const byLanguage = {};
  for (const [language, scenario, reps] of [
    ['bash', 'mock-runaway-bash', 3],
    ['node', 'mock-runaway-node', 3],
    ['python3', 'mock-runaway-python', 2],
  ]) {
    console.log(`bench: Stop under a runaway ${language} command`);
    const stopPage = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await stopPage.goto(
      `${baseUrl}/?provider=anthropic&sandbox=local&baseURL=${encodeURIComponent(mock.url)}&model=${scenario}`,
    );
    await stopPage.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
    await stopPage.getByRole('button', { name: 'Settings' }).click();
    await stopPage.getByRole('textbox', { name: 'API key' }).fill('sk-bench-any-key');
    await stopPage.getByRole('button', { name: 'Save' }).click();
    const figures = { stopToStoppedMs: [], stopToSandboxFreeMs: [], nextCommandMs: [], nextRunMs: [] };
    for (let i = 0; i < reps; i++) {
      console.log(`  run ${i + 1}`);
      await stopPage.getByRole('textbox', { name: 'Prompt' }).fill('Start the runaway command');
      await stopPage.getByRole('button', { name: 'Run', exact: true }).click();
      await stopPage.locator('[data-block="tool_use"]').last().waitFor();
      // python3 loads Pyodide first (seconds): Stop is meant for the script, not the load.
      if (language === 'python3')
        // (The header's runtime line, kept in its closed details: attached, not visible.)
        await stopPage
          .locator('[data-runtime="python"][data-phase="ready"]')
          .waitFor({ state: 'attached', timeout: 60_000 });
      await stopPage.waitForTimeout(500);
      const interpreters =
        language === 'python3' ? (await liveWorkerTargets(stopPage)).filter((t) => t.title === 'python') : [];
      const stopClicked = performance.now();
      const stop = await stopPage.evaluate(async () => {
        const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Stop');
        const status = document.querySelector('[role="status"]');
        const start = performance.now();
        button.click();
        let stoppedAt = 0;
        await new Promise((resolve, reject) => {
          const check = () => {
            const text = status.textContent.trim();
            if (text.startsWith('Stopped')) resolve((stoppedAt = performance.now()));
            else if (performance.now() - start > 10_000) reject(new Error(`not Stopped after 10 s: ${text}`));
            else requestAnimationFrame(check);
          };
          check();
        });
        // The sandbox's own thread answering again: it was looping until Stop reached it.
        await window.__s04.readFile(`${window.__s04.sandbox.workdir}/README.md`);
        return { stopped: stoppedAt - start, free: performance.now() - start };
      });
      figures.stopToStoppedMs.push(stop.stopped);
      figures.stopToSandboxFreeMs.push(stop.free);
      if (interpreters.length > 0) {
        // The interpreter's worker ends with the script (interrupted first, then terminated).
        const ids = new Set(interpreters.map((t) => t.id));
        while ((await liveWorkerTargets(stopPage)).some((t) => ids.has(t.id))) {
          if (performance.now() - stopClicked > 10_000)
            throw new Error(`python3's worker still there 10 s after Stop (${[...ids].join(', ')})`);
          await stopPage.waitForTimeout(20);
        }
        (figures.stopToInterpreterGoneMs ??= []).push(performance.now() - stopClicked);
      }
      const next = await stopPage.evaluate(async () => {
        const before = performance.getEntriesByName('tool:bash').length;
        const input = document.querySelector('textarea, input[aria-label="Prompt"]');
        const form = input.closest('form');
        input.value = 'Now a quick one';
        input.dispatchEvent(new Event('input', { bubbles: true }));
        const status = document.querySelector('[role="status"]');
        const start = performance.now();
        form.requestSubmit();
        await new Promise((resolve, reject) => {
          const check = () => {
            const text = status.textContent.trim();
            if (text.startsWith('Finished')) resolve();
            else if (text.startsWith('Failed')) reject(new Error(text));
            else if (performance.now() - start > 30_000)
              reject(new Error(`not Finished after 30 s: ${text}`));
            else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        });
        const bash = performance.getEntriesByName('tool:bash').slice(before);
        return { run: performance.now() - start, command: bash[0]?.duration ?? NaN };
      });
      figures.nextCommandMs.push(next.command);
      figures.nextRunMs.push(next.run);
    }
    byLanguage[language] = Object.fromEntries(
      Object.entries(figures).map(([name, values]) => [
        name,
        { median: round(median(values)), max: round(Math.max(...values)) },
      ]),
    );
    await stopPage.close();
  }
  await mock.close();
  return byLanguage;
}
