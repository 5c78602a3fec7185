#!/usr/bin/env node
/**
 * What sharing a run costs, on the built app: how long the link of a prompt-1 run is; how long it
 * takes to open at its step (User Timing `share:open`, from the URL read to the step painted)
 * against importing the same run as a file (from the file chosen to the step painted); and the
 * embed's first paint at 640x360 on a slow network (1.6 Mbps down, 150 ms latency), cold each
 * time, with the moment its run is on screen. Medians of RUNS fresh browser contexts each.
 *
 * Usage: node scripts/share-bench.mjs http://127.0.0.1:41731 [<another build's URL>] [runs=5]
 * (test builds: it reads window.__s04). With two builds, their pages are opened in turn (an A/B).
 */
import { loadavg } from 'node:os';
import { chromium } from 'playwright';
import { chromiumLaunchOptions } from './built-app.mjs';

const RUNS = 5;
const PROMPT_1 = 'Use a subtask to find what testing framework this project uses';
/** 1.6 Mbps and 150 ms: Lighthouse's "slow 4G". */
const SLOW = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 };

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => `${Math.round(value)} ms`;

/** A prompt-1 run of the demo model, its link at the middle step, and its exported file. */
export async function promptOneLink(browser, appURL) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${appURL}/?speed=instant`);
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
  await page.getByRole('button', { name: PROMPT_1, exact: true }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /^Finished/ })
    .waitFor();
  const slider = page.getByRole('slider', { name: 'Step' });
  const step = Math.floor(Number(await slider.getAttribute('max')) / 2);
  await slider.fill(String(step));
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByRole('textbox', { name: 'Link to this step' }).inputValue();
  const file = await page.evaluate(() => window.__s04.exportRun());
  await context.close();
  return { link, step, file };
}

/** Opens `url` in a fresh context; resolves once the run is at `step`, with the page's timings. */
async function openAt(browser, url, step, { viewport, network } = {}) {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport });
  const page = await context.newPage();
  if (network) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', network);
  }
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('share:open').length > 0, null, {
    timeout: 60_000,
  });
  const timings = await page.evaluate((step) => {
    const open = performance.getEntriesByName('share:open')[0];
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const bytes = performance
      .getEntriesByType('resource')
      .concat(performance.getEntriesByType('navigation'))
      .reduce((sum, entry) => sum + (entry.transferSize ?? 0), 0);
    return {
      open: open.duration,
      shown: open.startTime + open.duration,
      firstPaint: paint?.startTime ?? NaN,
      bytes,
      atStep: window.__s04.shown && Number(document.querySelector('input[type=range]')?.value) === step,
    };
  }, step);
  await context.close();
  return timings;
}

/** Imports the run file into a loaded page: from the file chosen to the step painted. */
async function importTime(browser, appURL, file) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${appURL}/?speed=instant`);
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
  const took = await page.evaluate(async (text) => {
    const start = performance.now();
    await window.__s04.importFile(new File([text], 'run.json', { type: 'application/json' }));
    await new Promise((resolve) => requestAnimationFrame(resolve));
    return performance.now() - start;
  }, file);
  await context.close();
  return took;
}

/**
 * The figures of each build in `appURLs` (one, or two to compare): the builds' pages are opened
 * in turn, so that the machine's drift falls on each alike.
 */
export async function shareFigures(browser, appURLs, runs = RUNS) {
  const builds = [];
  for (const appURL of appURLs) builds.push({ appURL, ...(await promptOneLink(browser, appURL)) });
  const seen = builds.map(() => ({ opens: [], imports: [], embeds: [] }));
  for (let i = 0; i < runs; i++) {
    for (const [b, { appURL, link, step, file }] of builds.entries()) {
      seen[b].opens.push(await openAt(browser, link, step));
      seen[b].imports.push(await importTime(browser, appURL, file));
      seen[b].embeds.push(
        await openAt(browser, link.replace('/?', '/?embed=1&'), step, {
          viewport: { width: 640, height: 360 },
          network: SLOW,
        }),
      );
    }
  }
  return builds.map(({ appURL, link, step, file }, b) => {
    const { opens, imports, embeds } = seen[b];
    if (!opens.every((o) => o.atStep) || !embeds.every((o) => o.atStep)) throw new Error('not at the step');
    return {
      appURL,
      linkChars: link.length,
      fileBytes: file.length,
      step,
      linkOpen: median(opens.map((o) => o.open)),
      importOpen: median(imports),
      embedFirstPaint: median(embeds.map((o) => o.firstPaint)),
      embedShown: median(embeds.map((o) => o.shown)),
      embedBytes: median(embeds.map((o) => o.bytes)),
    };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const appURLs = process.argv.slice(2).filter((arg) => /^https?:/.test(arg));
  const runs = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? RUNS);
  if (!appURLs.length || appURLs.length > 2)
    throw new Error("Usage: node scripts/share-bench.mjs <app URL> [<another build's URL>] [runs]");
  const browser = await chromium.launch(await chromiumLaunchOptions(['--no-sandbox', '--disable-gpu']));
  try {
    const [load] = loadavg();
    const all = await shareFigures(browser, appURLs, runs);
    for (const f of all) {
      console.log(`${f.appURL} (medians of ${runs}; load average ${load.toFixed(1)} at the start):`);
      console.log(
        `  prompt-1 run: file ${(f.fileBytes / 1024).toFixed(1)} KB, link ${(f.linkChars / 1024).toFixed(1)} KB (step ${f.step})`,
      );
      console.log(
        `  open at the step: link ${ms(f.linkOpen)}, import of the same file ${ms(f.importOpen)} (link/import ${(f.linkOpen / f.importOpen).toFixed(2)})`,
      );
      console.log(
        `  embed at 640x360, 1.6 Mbps / 150 ms, cold: first paint ${ms(f.embedFirstPaint)}, run at its step ${ms(f.embedShown)}, ${(f.embedBytes / 1024).toFixed(0)} KB transferred`,
      );
    }
    if (all.length === 2) {
      const ratio = (key) => (all[1][key] / all[0][key]).toFixed(2);
      console.log(
        `second/first: link open ${ratio('linkOpen')}, import ${ratio('importOpen')}, embed first paint ${ratio('embedFirstPaint')}, embed at its step ${ratio('embedShown')}, bytes ${ratio('embedBytes')}`,
      );
    }
    console.log(`load average at the end: ${loadavg()[0].toFixed(1)}`);
  } finally {
    await browser.close();
  }
}
