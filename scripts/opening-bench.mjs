#!/usr/bin/env node
/**
 * Opening a big run, measured by what a learner feels: the page's longest task while it opens
 * (PerformanceObserver `longtask`, and the longest `long-animation-frame`), and the time to shown
 * (the run's banner drawn, or the sentence refusing it). Three cases, each on fresh pages:
 *
 *   import   a 24 MB record of 2,000 model calls (38,004 events) picked in `Import run`, on a page
 *            whose sandbox is ready: timed from the file input's change
 *   fan-340  a record of 340 subagents at once (scripts/records.mjs `parallelRecord(340)`: 10,207
 *            steps, 3,061 moments) picked the same way: a small file, a wide run to draw
 *   record=  the same file by its address, served with CORS by a loopback server of its own:
 *            timed from navigation (the page's own start is inside it; `boot` below is that alone)
 *   link     a 28 KB link whose run holds one message of 20 MB (refused: one message may be 8 MB):
 *            timed from navigation
 *   boot     the same page with no run to open, to its sandbox ready: the start's own longest task
 *
 * Two builds side by side (this tree and another commit, 7f043ef by default), a fresh page of each
 * in turn, the order alternating; it prints each build's medians and the ratios.
 *
 * Usage: npm run bench -- opening [ref=7f043ef] [runs=3]
 *        node scripts/opening-bench.mjs <this build's URL> <other build's URL> [runs]   (servers running)
 */
import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { deflateRawSync } from 'node:zlib';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBenchBrowser } from './built-app.mjs';
import { parallelRecord, parentCallsRecord } from './records.mjs';
import { serveStatic } from './serve-static.mjs';
import { median, round } from './stats.mjs';

/** The commit whose build is the other side by default: the tree before runs opened in a worker. */
export const OPENING_BEFORE = '7f043ef';

/** The record of 2,000 calls (24.3 MB) and the link holding one 20 MB message, made once. */
function inputs() {
  const big = JSON.stringify(parentCallsRecord(2000, 10_000));
  const record = parentCallsRecord(2, 100);
  const at = record.events.findIndex((e) => e.type === 'message');
  record.events[at] = {
    ...record.events[at],
    message: { role: 'user', content: 'x'.repeat(20 * 1024 * 1024) },
  };
  const packed = deflateRawSync(Buffer.from(JSON.stringify(record))).toString('base64url');
  return { big, packed, fan: JSON.stringify(parallelRecord(340)) };
}

/** A loopback server of the run file, with CORS, as a gist's raw address serves it. */
async function serveRecord(json) {
  const body = Buffer.from(json);
  const server = createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Content-Type', 'application/json');
    response.setHeader('Content-Length', String(body.length));
    response.end(body);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/big-run.json`,
    close: () => new Promise((done) => server.close(done)),
  };
}

/** Installed before the page's first script: every long task and long animation frame it has. */
function observe() {
  window.__opening = { tasks: [], frames: [], from: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__opening.tasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  if (PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')) {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        // What took most of the frame: its longest script (by its invoker), else rendering.
        const script = [...(entry.scripts ?? [])].sort((a, b) => b.duration - a.duration)[0];
        const render =
          entry.duration - (entry.renderStart ? entry.renderStart - entry.startTime : entry.duration);
        const by =
          script && script.duration >= render
            ? `${script.invoker || script.invokerType}${script.sourceFunctionName ? ` ${script.sourceFunctionName}` : ''} ${Math.round(script.duration)} ms, of which style and layout ${Math.round(script.forcedStyleAndLayoutDuration ?? 0)} ms`
            : `rendering ${Math.round(render)} ms`;
        window.__opening.frames.push([entry.startTime, entry.duration, by]);
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  }
  document.addEventListener('change', () => (window.__opening.from = performance.now()), true);
}

/** Resolves, in the page, with the time the run's banner or a refusal was first on screen. */
function shownAt() {
  return new Promise((resolve) => {
    const check = () => {
      const alert = [...document.querySelectorAll('[role="alert"]')].some((a) =>
        a.textContent?.includes('Cannot open'),
      );
      if (document.querySelector('.banner[role="note"]') || alert)
        resolve({ at: performance.now(), refused: alert });
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

/** The figures of one page after its run is shown: tasks from `from` on, and 1 s after it is shown. */
async function figuresOf(page, from) {
  const shown = await page.evaluate(shownAt);
  await page.waitForTimeout(1000);
  return page.evaluate(
    ({ from, shown }) => {
      const start = from ?? window.__opening.from;
      const longest = (list) => Math.max(0, ...list.filter(([at]) => at >= start).map(([, d]) => d));
      const frames = window.__opening.frames.filter(([at]) => at >= start).sort((a, b) => b[1] - a[1]);
      return {
        shownMs: shown.at - start,
        refused: shown.refused,
        longestTaskMs: longest(window.__opening.tasks),
        longestFrameMs: longest(window.__opening.frames),
        longestFrameBy: frames[0]?.[2] ?? '',
      };
    },
    { from, shown },
  );
}

/** One case on a fresh page of the build at `appURL`. */
async function openCase(browser, appURL, which, given) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  await page.addInitScript(observe);
  const query = '?speed=instant&sandbox=local&sample=typescript';
  const ready = () => page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
  try {
    if (which === 'import' || which === 'fan-340') {
      await page.goto(`${appURL}/${query}`);
      await ready();
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Import run' }).click();
      const buffer = which === 'import' ? given.file : given.fan;
      await (await chooser).setFiles({ name: 'big-run.json', mimeType: 'application/json', buffer });
      return await figuresOf(page, null);
    }
    if (which === 'boot') {
      await page.goto(`${appURL}/${query}`);
      await ready();
      await page.waitForTimeout(1000);
      return await page.evaluate(() => ({
        shownMs: performance.getEntriesByName('sandbox:ready')[0].startTime,
        refused: false,
        longestFrameBy: [...window.__opening.frames].sort((a, b) => b[1] - a[1])[0]?.[2] ?? '',
        longestTaskMs: Math.max(0, ...window.__opening.tasks.map(([, d]) => d)),
        longestFrameMs: Math.max(0, ...window.__opening.frames.map(([, d]) => d)),
      }));
    }
    const url =
      which === 'record='
        ? `${appURL}/${query}&record=${encodeURIComponent(given.address)}`
        : `${appURL}/${query}&step=0#run=${given.packed}`;
    await page.goto(url);
    return await figuresOf(page, 0);
  } finally {
    await context.close();
  }
}

/** The cases, in order (`OPENING_CASES=import,link` in the environment runs those alone). */
export const OPENING_CASES = process.env.OPENING_CASES?.split(',') ?? [
  'import',
  'fan-340',
  'record=',
  'link',
  'boot',
];

/**
 * The cases on two builds (`sides`: name to app URL), `runs` fresh pages of each, in turn; returns
 * per case and side the medians and every page's figures.
 */
export async function openingBench(browser, sides, runs = 3) {
  const { big, packed, fan } = inputs();
  const server = await serveRecord(big);
  const given = { file: Buffer.from(big), fan: Buffer.from(fan), packed, address: server.url };
  console.log(
    `  inputs: a ${round(big.length / 1048576)} MB record, a link of ${round(packed.length / 1024)} KB, 340 subagents in ${round(fan.length / 1048576)} MB`,
  );
  const names = Object.keys(sides);
  const results = {};
  const loads = [loadavg()[0]];
  try {
    for (const which of OPENING_CASES) {
      results[which] = Object.fromEntries(names.map((name) => [name, []]));
      for (let i = 0; i < runs; i++) {
        for (const name of i % 2 ? [...names].reverse() : names) {
          const measured = await openCase(browser, sides[name], which, given);
          results[which][name].push(measured);
          console.log(
            `  ${which} ${name}: shown ${round(measured.shownMs)} ms${measured.refused ? ' (refused)' : ''}, longest task ${round(measured.longestTaskMs)} ms, longest frame ${round(measured.longestFrameMs)} ms (${measured.longestFrameBy ?? ''})`,
          );
        }
        loads.push(loadavg()[0]);
      }
    }
  } finally {
    await server.close();
  }
  const summary = {};
  for (const which of OPENING_CASES) {
    summary[which] = {};
    for (const name of names) {
      const pages = results[which][name];
      summary[which][name] = {
        shownMs: round(median(pages.map((p) => p.shownMs))),
        longestTaskMs: round(median(pages.map((p) => p.longestTaskMs))),
        longestTaskMaxMs: round(Math.max(...pages.map((p) => p.longestTaskMs))),
        longestFrameMs: round(median(pages.map((p) => p.longestFrameMs))),
        refused: pages.every((p) => p.refused),
      };
    }
  }
  return { summary, pages: results, load: [round(Math.min(...loads)), round(Math.max(...loads))] };
}

/** Prints the medians of two sides and the ratio of the first to the second. */
export function printOpening({ summary, load }, [now, before]) {
  console.log(`\nOpening a big run (medians; load average ${load[0]}-${load[1]}), ${now} / ${before}:`);
  for (const [which, sides] of Object.entries(summary)) {
    const a = sides[now];
    const b = sides[before];
    const ratio = (x, y) => (y > 0 ? round(x / y) : '-');
    console.log(
      `  ${which.padEnd(8)} shown ${a.shownMs} / ${b.shownMs} ms (${ratio(a.shownMs, b.shownMs)}), longest task ${a.longestTaskMs} / ${b.longestTaskMs} ms (${ratio(a.longestTaskMs, b.longestTaskMs)}; max ${a.longestTaskMaxMs} / ${b.longestTaskMaxMs}), longest frame ${a.longestFrameMs} / ${b.longestFrameMs} ms${a.refused ? ', refused' : ''}`,
    );
  }
}

/**
 * A test build of `ref` in a folder of its own: its files from git (no worktree), this tree's
 * node_modules linked in file by file (hard links: same packages, no copy); `.` is this tree.
 */
export function buildSide(ref, scratch) {
  const root = resolve(import.meta.dirname, '..');
  const outDir = join(scratch, `${ref === '.' ? 'this-tree' : ref}-dist`);
  let cwd = root;
  if (ref !== '.') {
    cwd = join(scratch, `${ref}-tree`);
    mkdirSync(cwd, { recursive: true });
    execSync(`git archive ${ref} | tar -x -C ${JSON.stringify(cwd)}`, { cwd: root, stdio: 'inherit' });
    execFileSync('cp', ['-al', join(root, 'node_modules'), join(cwd, 'node_modules')]);
  }
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  execFileSync('npx', ['vite', 'build', '--mode', 'test', '--logLevel', 'error', '--outDir', outDir], {
    cwd,
    env,
    stdio: 'inherit',
  });
  return outDir;
}

/** `npm run bench -- opening [ref] [runs]`: builds both sides, serves them, measures, prints. */
export async function openingPart(ref = OPENING_BEFORE, runs = 3) {
  const scratch = mkdtempSync(join(tmpdir(), 's04-opening-'));
  const servers = [];
  try {
    console.log(`Building this tree and ${ref}...`);
    const dirs = { now: buildSide('.', scratch), [ref]: buildSide(ref, scratch) };
    const sides = {};
    for (const [name, dir] of Object.entries(dirs)) {
      const server = await serveStatic({ dir, isolation: true });
      servers.push(server);
      sides[name] = server.url.replace(/\/$/, '');
    }
    const browser = await launchBenchBrowser();
    try {
      const results = await openingBench(browser, sides, runs);
      printOpening(results, ['now', ref]);
      return results;
    } finally {
      await browser.close();
    }
  } finally {
    for (const server of servers) await server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [now, before, runs] = process.argv.slice(2);
  if (!now || !before) {
    console.log('Usage: node scripts/opening-bench.mjs <this build URL> <other build URL> [runs=3]');
    process.exit(1);
  }
  const browser = await launchBenchBrowser();
  const results = await openingBench(browser, { now, before }, Number(runs ?? 3));
  printOpening(results, ['now', 'before']);
  await browser.close();
}
