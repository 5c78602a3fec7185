#!/usr/bin/env node
/**
 * How a run of 340 subagents holds up on the page's thread, for this tree and another build side
 * by side (target: no task over 200 ms):
 *   - present: a record of 340 subagents at once (scripts/records.mjs `parallelRecord(340)`), Present
 *     started at eight places across it, each time Continue (→) six times and Back (←) twice;
 *   - step: the same record stepped with the `Step` slider's keys at the same places (→ six times,
 *     ← twice), then End and Home (all 340 columns come and go);
 *   - fanout: a whole live run of the mock API's `mock-fanout` with `depth=3` (340 subagents, 8 at
 *     once, about two and a half minutes), to its end (scripts/fanout-bench.mjs `wholeFanoutOnce`):
 *     the whole run (`fanout`) and its late part, from the 200th subagent's start (`fanout-late`).
 * For each: the longest task (long-task entries) and the longest frame (long-animation-frame
 * entries). Pages are driven by keys and plain DOM reads while measuring: Playwright's role queries
 * run on the page's thread too, and over 340 regions they take longer than the app.
 *
 * Usage: node scripts/bigrun-bench.mjs [other=<commit or built dir>] [reps=3] [parts=present,step,fanout]
 * (or `npm run bench -- bigrun [other] [reps] [parts]`)
 * Builds this tree and the other commit (in a temporary worktree) with `--mode test`, serves both on
 * loopback, and alternates fresh pages of each; prints medians, maxima and the ratio this/other.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchBenchBrowser, readyPage } from './built-app.mjs';
import { startMockApi } from './mock-api.mjs';
import { wholeFanoutOnce } from './fanout-bench.mjs';
import { parallelRecord } from './records.mjs';
import { serveStatic } from './serve-static.mjs';
import { median, round } from './stats.mjs';

const ratio = (a, b) => Math.round((a / b) * 100) / 100;
const root = resolve(fileURLToPath(import.meta.url), '../..');

/** Places across the record where Present and the step bar start (fractions of its steps). */
export const PLACES = [0.1, 0.22, 0.35, 0.48, 0.6, 0.72, 0.85, 0.97];

/** Starts counting the page's long tasks and long frames (read with takeLong). */
const WATCH = () => {
  const seen = (window.__long = { task: 0, frame: 0 });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) seen.task = Math.max(seen.task, entry.duration);
  }).observe({ type: 'longtask' });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) seen.frame = Math.max(seen.frame, entry.duration);
    }).observe({ type: 'long-animation-frame' });
  } catch {
    // no long-animation-frame entries in this browser: tasks only
  }
};

/** The longest task and frame since the last read, once the page has drawn and gone idle. */
/** The keys pressed at each place: on, back, on again (six forward and two back). */
const WALK = [
  'ArrowRight',
  'ArrowRight',
  'ArrowRight',
  'ArrowLeft',
  'ArrowRight',
  'ArrowLeft',
  'ArrowRight',
  'ArrowRight',
];

async function takeLong(page) {
  return page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50)));
    const seen = window.__long;
    const out = { task: seen.task, frame: seen.frame };
    seen.task = 0;
    seen.frame = 0;
    return out;
  });
}

/** Presses `key` and waits until the status's text changes (a step or a moment shown), then a frame. */
async function pressAndWait(page, key) {
  const before = await page.evaluate(() => document.querySelector('[role="status"]').textContent);
  await page.keyboard.press(key);
  await page.waitForFunction(
    (text) => document.querySelector('[role="status"]').textContent !== text,
    before,
    { timeout: 30_000 },
  );
}

const clickButton = (page, text) =>
  page.evaluate(
    (text) => [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === text).click(),
    text,
  );

/** A fresh page with the 340-subagent record open and settled. */
async function openBigRecord(browser, appURL, json) {
  const page = await readyPage(browser, appURL);
  await page.evaluate(
    (json) => window.__s04.importFile(new File([json], 'fanout-340.json', { type: 'application/json' })),
    json,
  );
  await page.waitForFunction(() => window.__s04.opened && window.__s04.shown.subagents.length === 340);
  await page.evaluate(WATCH);
  await takeLong(page);
  return page;
}

/** Present at each of PLACES: → six times, ← twice. The longest task and frame of it all. */
async function presentOnce(browser, appURL, json) {
  const page = await openBigRecord(browser, appURL, json);
  const worst = { task: 0, frame: 0 };
  const note = (long) => {
    worst.task = Math.max(worst.task, long.task);
    worst.frame = Math.max(worst.frame, long.frame);
  };
  const steps = await page.evaluate(() => window.__s04.steps);
  for (const place of PLACES) {
    await page.evaluate((step) => window.__s04.stepTo(step), Math.round(place * steps));
    await takeLong(page); // the jump there is stepping's, measured below
    await clickButton(page, 'Present');
    await page.waitForFunction(() =>
      /Presenting: paused/.test(document.querySelector('[role="status"]').textContent),
    );
    note(await takeLong(page));
    for (const key of WALK) {
      await pressAndWait(page, key);
      note(await takeLong(page));
    }
    await clickButton(page, 'Present');
    await takeLong(page);
  }
  await page.context().close();
  return worst;
}

/** The step slider at each of PLACES: → six times, ← twice; then End and Home. */
async function stepOnce(browser, appURL, json) {
  const page = await openBigRecord(browser, appURL, json);
  const worst = { task: 0, frame: 0 };
  const note = (long) => {
    worst.task = Math.max(worst.task, long.task);
    worst.frame = Math.max(worst.frame, long.frame);
  };
  const steps = await page.evaluate(() => window.__s04.steps);
  await page.evaluate(() => document.querySelector('input[type="range"]').focus());
  for (const place of PLACES) {
    await page.evaluate((step) => window.__s04.stepTo(step), Math.round(place * steps));
    note(await takeLong(page));
    for (const key of WALK) {
      await pressAndWait(page, key);
      note(await takeLong(page));
    }
  }
  for (const key of ['End', 'Home', 'End']) {
    await pressAndWait(page, key);
    note(await takeLong(page));
  }
  await page.context().close();
  return worst;
}

/** Builds `ref` with `--mode test` into a temporary folder; returns it and how to remove it. */
function buildOther(ref) {
  if (existsSync(ref)) return { dir: ref, remove: () => {} };
  const tree = mkdtempSync(join(tmpdir(), 's04-bigrun-'));
  rmSync(tree, { recursive: true });
  const dir = `${tree}-dist`;
  execFileSync('git', ['worktree', 'add', '--detach', tree, ref], { cwd: root, stdio: 'ignore' });
  const remove = () => {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: root, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: tree,
      stdio: 'ignore',
    });
    execFileSync('npx', ['vite', 'build', '--mode', 'test', '--logLevel', 'error', '--outDir', dir], {
      cwd: tree,
      stdio: 'inherit',
    });
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, remove };
}

/** The figures of each build (by name: its served URL), `reps` fresh pages each, alternating. */
export async function bigrunBench(builds, reps = 3, parts = ['present', 'step', 'fanout']) {
  const json = JSON.stringify(parallelRecord(340));
  const browser = await launchBenchBrowser();
  const figures = Object.fromEntries(Object.keys(builds).map((name) => [name, {}]));
  const add = (name, part, long) => {
    const entry = (figures[name][part] ??= { task: [], frame: [] });
    entry.task.push(long.task);
    entry.frame.push(long.frame);
  };
  try {
    for (let i = 0; i < reps; i++)
      for (const [name, url] of Object.entries(builds)) {
        if (parts.includes('present')) add(name, 'present', await presentOnce(browser, url, json));
        if (parts.includes('step')) add(name, 'step', await stepOnce(browser, url, json));
        if (parts.includes('fanout')) {
          const mock = await startMockApi({ port: 0 });
          try {
            const fan = await wholeFanoutOnce(browser, url, mock.url);
            add(name, 'fanout', { task: fan.task, frame: fan.frame });
            add(name, 'fanout-late', { task: fan.lateTask, frame: fan.lateFrame });
          } finally {
            await mock.close();
          }
        }
        console.log(`  ${name} #${i + 1}: ${JSON.stringify(figures[name])}`);
      }
  } finally {
    await browser.close();
  }
  const summary = {};
  for (const [name, parts] of Object.entries(figures))
    summary[name] = Object.fromEntries(
      Object.entries(parts).map(([part, { task, frame }]) => [
        part,
        {
          longestTaskMedianMs: round(median(task)),
          longestTaskMaxMs: round(Math.max(...task)),
          longestFrameMedianMs: round(median(frame)),
          longestFrameMaxMs: round(Math.max(...frame)),
        },
      ]),
    );
  return summary;
}

/** Builds and serves this tree and `other`, measures both and prints the figures and ratios. */
export async function runBigrunBench([other, reps = '3', parts = 'present,step,fanout'] = []) {
  console.log('Building this tree...');
  const here = mkdtempSync(join(tmpdir(), 's04-bigrun-here-'));
  execFileSync('npx', ['vite', 'build', '--mode', 'test', '--logLevel', 'error', '--outDir', here], {
    cwd: root,
    stdio: 'inherit',
  });
  const built = other ? (console.log(`Building ${other}...`), buildOther(other)) : null;
  const servers = [await serveStatic({ dir: here, isolation: true })];
  if (built) servers.push(await serveStatic({ dir: built.dir, isolation: true }));
  const builds = { this: servers[0].url.replace(/\/$/, '') };
  if (built) builds[other] = servers[1].url.replace(/\/$/, '');
  try {
    const summary = await bigrunBench(builds, Number(reps), parts.split(','));
    console.log(JSON.stringify(summary, null, 2));
    if (built) {
      const ratios = {};
      for (const [part, mine] of Object.entries(summary.this))
        ratios[part] = {
          longestTaskMedian: ratio(mine.longestTaskMedianMs, summary[other][part].longestTaskMedianMs),
          longestFrameMedian: ratio(mine.longestFrameMedianMs, summary[other][part].longestFrameMedianMs),
        };
      console.log(`this / ${other}:`, JSON.stringify(ratios, null, 2));
    }
    const over = Object.entries(summary.this).filter(([, f]) => f.longestTaskMaxMs > 200);
    if (over.length) console.log(`over 200 ms: ${over.map(([part]) => part).join(', ')}`);
  } finally {
    for (const server of servers) await server.close();
    built?.remove();
    rmSync(here, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  await runBigrunBench(process.argv.slice(2));
