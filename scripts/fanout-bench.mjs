#!/usr/bin/env node
/**
 * A run that delegates four tasks at every level, three levels deep (340 subagents, the mock API's
 * `mock-fanout` with `depth=3`), with the default of 8 subagents at once: the page's longest frame
 * while it runs (long-animation-frame entries, rAF gaps where those are missing), and the time from
 * a Stop click to the status saying `Stopped` (target: 200 ms), and its longest task (long-task
 * entries; target: 200 ms). `wholeFanoutOnce` runs it to its end instead: the longest task and
 * frame of the whole run and of its late part (from the LATE_FROMth subagent's start), with the
 * late part's longest frames and what took them (the bigrun bench compares builds with it). What
 * the cap does is the end-to-end test's (e2e/subagent-cap.spec.ts); how the page holds up is
 * measured here.
 *
 * Usage: node scripts/fanout-bench.mjs http://127.0.0.1:41731 [whole]
 * (npm run bench runs it against the server it starts; `npm run bench -- fanout` runs it alone.)
 */
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright';
import { chromiumLaunchOptions } from './built-app.mjs';
import { startMockApi } from './mock-api.mjs';

/** A fresh page on the mock API's fan-out (`depth=3`), its sandbox ready and a key saved. */
async function fanoutPage(browser, appURL, mockURL) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  await page.goto(
    `${appURL}/?provider=anthropic&sandbox=local&baseURL=${encodeURIComponent(mockURL)}&model=mock-fanout&depth=3`,
  );
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('textbox', { name: 'API key' }).fill('sk-bench-any-key');
  await page.getByRole('button', { name: 'Save' }).click();
  return { context, page };
}

/** One fan-out run in a fresh page: its longest frame before Stop, and Stop to `Stopped` (ms). */
async function fanoutOnce(browser, appURL, mockURL) {
  const { page } = await fanoutPage(browser, appURL, mockURL);
  await page.evaluate(() => {
    const frames = (window.__fanoutFrames = { longest: 0, gaps: 0, task: 0 });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) frames.task = Math.max(frames.task, entry.duration);
    }).observe({ type: 'longtask' });
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) frames.longest = Math.max(frames.longest, entry.duration);
      }).observe({ type: 'long-animation-frame', buffered: false });
    } catch {
      // no long-animation-frame entries in this browser: the rAF gaps below still count
    }
    let last = performance.now();
    const tick = (now) => {
      frames.gaps = Math.max(frames.gaps, now - last);
      last = now;
      if (!frames.done) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.getByRole('textbox', { name: 'Prompt' }).fill('Look at every part of the project.');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  // Well into the run: 24 subagents have started (three times the cap).
  await page.waitForFunction(() => performance.getEntriesByName('subagent:spawn').length >= 24, null, {
    timeout: 120_000,
  });
  return page.evaluate(async () => {
    const frames = window.__fanoutFrames;
    const longest = Math.max(frames.longest, frames.gaps);
    const spawned = performance.getEntriesByName('subagent:spawn').length;
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Stop');
    const status = document.querySelector('[role="status"]');
    const start = performance.now();
    button.click();
    const stopped = await new Promise((resolve) => {
      const check = () => {
        if (status.textContent.trim().startsWith('Stopped')) resolve(performance.now() - start);
        else requestAnimationFrame(check);
      };
      check();
    });
    frames.done = true;
    return { longestFrameMs: longest, longestTaskMs: frames.task, stopToStoppedMs: stopped, spawned };
  });
}

/** The whole run's late part: from this subagent's start to the run's end. */
export const LATE_FROM = 200;

/**
 * A whole fan-out run in a fresh page, to its end (`run:finished`): the longest task and frame of
 * the whole run and of its late part (from the LATE_FROMth subagent's start), and, with `scripts`,
 * the late part's longest frames with what took them (long-animation-frame scripts).
 */
export async function wholeFanoutOnce(browser, appURL, mockURL, { scripts = false } = {}) {
  const { context, page } = await fanoutPage(browser, appURL, mockURL);
  await page.evaluate((lateFrom) => {
    const seen = (window.__whole = { task: 0, frame: 0, lateTask: 0, lateFrame: 0, frames: [] });
    const late = () => performance.getEntriesByName('subagent:spawn').length >= lateFrom;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        seen.task = Math.max(seen.task, entry.duration);
        if (late()) seen.lateTask = Math.max(seen.lateTask, entry.duration);
      }
    }).observe({ type: 'longtask' });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        seen.frame = Math.max(seen.frame, entry.duration);
        if (!late()) continue;
        seen.lateFrame = Math.max(seen.lateFrame, entry.duration);
        if (entry.duration < 100) continue;
        seen.frames.push({
          ms: Math.round(entry.duration),
          styleAndLayoutMs: Math.round(entry.startTime + entry.duration - entry.styleAndLayoutStart),
          scripts: entry.scripts
            .filter((s) => s.duration >= 5)
            .map((s) => ({
              ms: Math.round(s.duration),
              forcedLayoutMs: Math.round(s.forcedStyleAndLayoutDuration),
              what: `${s.invoker} ${s.sourceFunctionName}@${s.sourceURL.split('/').pop()}:${s.sourceCharPosition}`,
            })),
        });
      }
    }).observe({ type: 'long-animation-frame' });
  }, LATE_FROM);
  await page.getByRole('textbox', { name: 'Prompt' }).fill('Look at every part of the project.');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => performance.getEntriesByName('run:finished').length > 0, null, {
    timeout: 600_000,
    polling: 1000,
  });
  const out = await page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100)));
    const seen = window.__whole;
    return {
      task: seen.task,
      frame: seen.frame,
      lateTask: seen.lateTask,
      lateFrame: seen.lateFrame,
      spawned: performance.getEntriesByName('subagent:spawn').length,
      frames: seen.frames.sort((a, b) => b.ms - a.ms).slice(0, 8),
    };
  });
  await context.close();
  if (!scripts) delete out.frames;
  return out;
}

/** `reps` fan-out runs, each in a fresh page: medians and maxima. */
export async function fanoutBench(browser, appURL, reps = 3) {
  const mock = await startMockApi({ port: 0 });
  const runs = [];
  try {
    for (let i = 0; i < reps; i++) runs.push(await fanoutOnce(browser, appURL, mock.url));
  } finally {
    await mock.close();
  }
  const sorted = (key) => runs.map((r) => r[key]).sort((a, b) => a - b);
  const median = (values) => values[Math.floor(values.length / 2)];
  const round = (n) => Math.round(n * 10) / 10;
  return {
    runs: reps,
    longestFrameMedianMs: round(median(sorted('longestFrameMs'))),
    longestFrameMaxMs: round(Math.max(...sorted('longestFrameMs'))),
    longestTaskMedianMs: round(median(sorted('longestTaskMs'))),
    longestTaskMaxMs: round(Math.max(...sorted('longestTaskMs'))),
    stopToStoppedMedianMs: round(median(sorted('stopToStoppedMs'))),
    stopToStoppedMaxMs: round(Math.max(...sorted('stopToStoppedMs'))),
    subagentsSpawnedAtStop: sorted('spawned'),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [appURL, mode] = process.argv.slice(2);
  if (!appURL) throw new Error('usage: node scripts/fanout-bench.mjs <app URL> [whole]');
  const browser = await chromium.launch(await chromiumLaunchOptions(['--no-sandbox', '--disable-gpu']));
  if (mode === 'whole') {
    const mock = await startMockApi({ port: 0 });
    try {
      console.log(
        JSON.stringify(await wholeFanoutOnce(browser, appURL, mock.url, { scripts: true }), null, 2),
      );
    } finally {
      await mock.close();
    }
  } else console.log(JSON.stringify(await fanoutBench(browser, appURL), null, 2));
  await browser.close();
}
