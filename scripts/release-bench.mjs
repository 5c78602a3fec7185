#!/usr/bin/env node
/**
 * This tree against the last release, in one run: both built for production beside each other,
 * served as a static host does (brotli, the isolation headers, loopback), and fresh pages of each
 * opened in turn on a fast network and on Lighthouse's mobile profile (150 ms RTT, 1.6 Mbps down,
 * 750 kbps up, emulated through the DevTools protocol), so that the machine's speed of the moment
 * weighs on both alike. Budgets are ratios to the release (and, on the slow network, the issue's
 * times after navigation), never a time on a day.
 *
 * For each page: first contentful paint, `sandbox:ready`, prompt 1 clicked as soon as it can be,
 * its `run:finished` after navigation, that first click to `run:finished` (cold) and a second
 * click of the same prompt to `run:finished` (warm), both clicks the mouse's (pressed, released:
 * the input events and the frame they bring) and timed from the press; and the bytes the page and
 * its workers transferred before each of those (encoded, as sent). The same two clicks on other
 * fresh pages where prompt 1 is clicked READ_MS after its button is drawn (a learner who reads the
 * prompts first). Prints each build's medians, the ratio and the budget, and the browser's own
 * floor under `sandbox:ready` (a fresh page's first script, an empty worker's first line).
 *
 * Usage: node scripts/release-bench.mjs [ref = the newest tag before HEAD] [pages per build and network = 5]
 *        [networks = fast,slow]   (`slow` alone: the slow network's figures in half the time)
 *        (npm run bench runs it; the release is built in a temporary worktree with its own npm ci)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { chromium } from 'playwright';
import { chromiumLaunchOptions, clickPromptAtOnce } from './built-app.mjs';
import { serveStatic } from './serve-static.mjs';
import { median } from './stats.mjs';

const PROMPT = 'Use a subtask to find what testing framework this project uses';
const root = resolve(import.meta.dirname, '..');

/** Lighthouse's mobile profile, as the DevTools protocol takes it (bytes per second). */
export const SLOW_NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

/** Lighthouse's mobile profile's CPU: four times slower than this machine (DevTools' throttling). */
export const MOBILE_CPU_SLOWDOWN = 4;

/**
 * Budgets: this tree's median over the release's, at most; and on the slow network the times
 * after navigation the first visit must meet (ms). `cold/warm` is the first click's time over the
 * second click's, on the same page.
 */
export const BUDGETS = {
  ratio: { fcp: 1.05, ready: 1.05, finished: 1.05, cold: 1.05, warm: 1.1 },
  slow: { fcp: 1000, ready: 1500, finished: 3000 },
  coldOverWarm: 1.2,
  coldMs: 300,
};

/**
 * The first click is also measured on pages read this long before it (ms): a learner's. On the slow
 * network a click as soon as the button is drawn waits for the run's own scripts, still on their
 * way, which the second click finds in the cache: there cold / warm is judged on the read pages,
 * and the bytes the click waited for are printed beside it.
 */
export const READ_MS = 1500;

/**
 * The last release, as a tag names it (`v2`, annotated) or, in a clone that carries no tags, the
 * commit it was cut from.
 */
export const RELEASE_COMMIT = 'b63d138';

/** The newest tag before HEAD: the last release; with no tag in this clone, RELEASE_COMMIT. */
export function lastRelease() {
  try {
    return execFileSync('git', ['describe', '--tags', '--abbrev=0', 'HEAD^'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return RELEASE_COMMIT;
  }
}

/** Builds the tree at `cwd` into `outDir` for production, as `npm run build` does. */
function build(cwd, outDir) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  execFileSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', outDir, '--emptyOutDir'], {
    cwd,
    env: { ...env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
}

/** Builds commit `ref` into `outDir`, from a worktree at `tree` (the caller removes it: removeTree). */
function buildRef(ref, tree, outDir) {
  execFileSync('git', ['worktree', 'add', '--detach', tree, ref], { cwd: root, stdio: 'ignore' });
  // Its own node_modules: the build's plugins find their packages by real path.
  execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: tree, stdio: 'ignore' });
  build(tree, outDir);
}

/** Removes a worktree buildRef made, if it was made. */
function removeTree(tree) {
  try {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: root, stdio: 'ignore' });
  } catch {
    // never made (its build failed before)
  }
}

const COMPRESSIBLE = /\.(?:html|js|mjs|css|wasm|json|svg|txt|py|data)$/;

/**
 * A `.br` copy (quality 9) beside every compressible file of `dir` that has none, as a static host
 * precompresses: both builds are then sent alike, whatever their own build wrote.
 */
export function precompress(dir) {
  for (const name of readdirSync(dir, { recursive: true })) {
    const file = join(dir, name);
    if (!COMPRESSIBLE.test(name) || !statSync(file).isFile()) continue;
    try {
      statSync(`${file}.br`);
    } catch {
      const params = { [constants.BROTLI_PARAM_QUALITY]: 9 };
      writeFileSync(`${file}.br`, brotliCompressSync(readFileSync(file), { params }));
    }
  }
}

/**
 * Wall-clock ms at which each request of the context finished, with its encoded bytes (the body
 * as sent: Playwright reports 0 for a worker's own script, whose `Content-Length` is then read).
 */
function watchTransfers(context) {
  const transfers = [];
  context.on('requestfinished', (request) => {
    transfers.push(
      Promise.all([request.sizes(), request.response()])
        .then(async ([sizes, response]) => {
          const timing = request.timing();
          const length = Number((await response?.headerValue('content-length')) ?? 0);
          return {
            url: request.url(),
            at: timing.startTime + timing.responseEnd,
            bytes: Math.max(sizes.responseBodySize, length),
          };
        })
        // The page went away first: before its sizes came, or while its headers were read (a
        // request that ended as the context closed made the whole bench exit).
        .catch(() => null),
    );
  });
  return async () => (await Promise.all(transfers)).filter((t) => t !== null);
}

/**
 * One fresh page of `url`, on the slow network when `slow`: its times (ms) and bytes by phase.
 * Prompt 1 is clicked as soon as it can be, or, with `readMs`, that long after its button is drawn
 * (a learner who reads the prompts first). `cpu`: the page's CPU slowed down this many times;
 * `query`: more URL parameters.
 */
async function firstVisit(browser, url, slow, readMs, { cpu = 1, query = '' } = {}) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    serviceWorkers: 'block',
  });
  const transfers = watchTransfers(context);
  const page = await context.newPage();
  // The moments of the clicks, as the page sees them: each press (Playwright's click returns after it).
  await page.addInitScript(() => {
    window.__pressedAt = [];
    addEventListener('pointerdown', () => window.__pressedAt.push(performance.now()), { capture: true });
  });
  if (slow || cpu > 1) {
    const cdp = await context.newCDPSession(page);
    if (slow) await cdp.send('Network.emulateNetworkConditions', SLOW_NETWORK);
    if (cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  }
  await page.goto(`${url}?speed=instant${query ? `&${query}` : ''}`, { waitUntil: 'commit' });
  if (readMs === undefined) await clickPromptAtOnce(page, PROMPT);
  else {
    const button = page.getByRole('button', { name: PROMPT, exact: true });
    await button.waitFor({ timeout: 60_000 });
    await page.waitForTimeout(readMs);
    await button.click({ timeout: 60_000 });
  }
  const mark = (name) =>
    page
      .waitForFunction((name) => performance.getEntriesByName(name).length > 0, name, { timeout: 60_000 })
      .then(() => page.evaluate((name) => performance.getEntriesByName(name)[0].startTime, name));
  const finished = await mark('run:finished');
  const [clicked] = await page.evaluate(() => window.__pressedAt);
  const ready = await mark('sandbox:ready');
  const fcp = await mark('first-contentful-paint');
  // The second click, warm: the same prompt on the same page, once the first run's screen settled;
  // clicked as the first was. (A `button.click()` in the page has no input events and no frame of
  // their own before the run: it would make the second click shorter than a mouse's.)
  await page.waitForTimeout(500);
  await page.getByRole('button', { name: PROMPT, exact: true }).click();
  await page.waitForFunction(() => performance.getEntriesByName('run:finished').length > 1, null, {
    timeout: 60_000,
  });
  const warm = await page.evaluate(
    () => performance.getEntriesByName('run:finished')[1].startTime - window.__pressedAt[1],
  );
  const origin = await page.evaluate(() => performance.timeOrigin);
  const effectiveType = await page.evaluate(() => navigator.connection?.effectiveType ?? '');
  const done = await transfers();
  await context.close();
  // Each URL once: a script fetched again (each agent's worker) comes from the cache, though
  // Playwright reports its length again.
  const once = done.filter((t, i) => done.findIndex((u) => u.url === t.url) === i);
  const bytesBy = (ms) => once.filter((t) => t.at - origin <= ms).reduce((sum, t) => sum + t.bytes, 0);
  return {
    fcp,
    ready,
    finished,
    cold: finished - clicked,
    warm,
    bytes: {
      fcp: bytesBy(fcp),
      ready: bytesBy(ready),
      clicked: bytesBy(clicked),
      finished: bytesBy(finished),
    },
    effectiveType,
  };
}

/**
 * A folder holding the floor's page: its first script notes its time, then starts an empty module
 * worker whose first line reports its own (`window.floor` = { script, worker }, ms after navigation).
 */
export function floorPages() {
  const dir = mkdtempSync(join(tmpdir(), 's04-floor-'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><script>' +
      'self.floor={script:performance.now()};' +
      "new Worker('/worker.js',{type:'module'}).onmessage=(e)=>{floor.worker=e.data-performance.timeOrigin};" +
      '</script></head><body></body></html>',
  );
  writeFileSync(join(dir, 'worker.js'), 'postMessage(performance.timeOrigin + performance.now());\n');
  return dir;
}

/** The browser's floor on a fresh page of a static host: its first script, an empty worker's first line. */
async function floor(browser, slow) {
  const dir = floorPages();
  const server = await serveStatic({ dir, isolation: true });
  const figures = { script: [], worker: [] };
  try {
    for (let i = 0; i < 5; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      if (slow) {
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.emulateNetworkConditions', SLOW_NETWORK);
      }
      await page.goto(server.url);
      await page.waitForFunction(() => window.floor?.worker !== undefined);
      const { script, worker } = await page.evaluate(() => window.floor);
      figures.script.push(script);
      figures.worker.push(worker);
      await context.close();
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { script: median(figures.script), worker: median(figures.worker) };
}

/**
 * Builds `ref` and this tree, serves both, and measures `pages` fresh pages of each per network
 * (`networks`: fast, slow), interleaved. Resolves with each build's figures by network, and prints
 * them with the budgets.
 */
export async function releaseBench(ref = lastRelease(), pages = 5, networks = ['fast', 'slow']) {
  const scratch = mkdtempSync(join(tmpdir(), 's04-release-'));
  const oldTree = join(scratch, 'tree');
  const load = [loadavg()[0]];
  try {
    console.log(`release bench: building ${ref} and this tree`);
    buildRef(ref, oldTree, join(scratch, 'old'));
    build(root, join(scratch, 'new'));
    precompress(join(scratch, 'old'));
    precompress(join(scratch, 'new'));
    const servers = {
      // As the hosts send them (public/_headers): a script fetched twice (the agents' workers)
      // is then taken from the cache, without a round trip to ask whether it changed.
      old: await serveStatic({ dir: join(scratch, 'old'), isolation: true, brotli: true, cacheAssets: true }),
      new: await serveStatic({ dir: join(scratch, 'new'), isolation: true, brotli: true, cacheAssets: true }),
    };
    const browser = await chromium.launch(await chromiumLaunchOptions(['--no-sandbox', '--disable-gpu']));
    const results = {};
    for (const network of networks) {
      console.log(`release bench: ${pages} fresh pages of each build, ${network} network`);
      const figures = { old: [], new: [] };
      const read = { old: [], new: [] };
      for (let i = 0; i < pages; i++) {
        // Interleaved, the order alternating: neither build always goes first.
        for (const which of i % 2 ? ['new', 'old'] : ['old', 'new']) {
          figures[which].push(await firstVisit(browser, servers[which].url, network === 'slow'));
          read[which].push(await firstVisit(browser, servers[which].url, network === 'slow', READ_MS));
        }
        load.push(loadavg()[0]);
      }
      results[network] = { figures, read, floor: await floor(browser, network === 'slow') };
    }
    await browser.close();
    for (const server of Object.values(servers)) await server.close();
    report(ref, pages, results, load);
    return results;
  } finally {
    removeTree(oldTree);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Prints each figure of both builds, the ratio and its budget; sets a failing exit code when one is over. */
function report(ref, pages, results, load) {
  const ms = (n) => `${Math.round(n)} ms`;
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  let over = 0;
  const row = (name, old, now, format, budget) => {
    const ratio = now / old;
    const verdict =
      budget === undefined
        ? ''
        : ratio <= budget.ratio && (budget.max === undefined || now <= budget.max)
          ? 'ok'
          : 'OVER';
    if (verdict === 'OVER') over++;
    const limit =
      budget === undefined
        ? ''
        : `ratio <= ${budget.ratio}${budget.max === undefined ? '' : `, <= ${format(budget.max)}`}`;
    console.log(
      `  ${name.padEnd(44)} ${format(old).padStart(10)} ${format(now).padStart(10)} ${ratio.toFixed(2).padStart(6)}  ${limit} ${verdict}`,
    );
  };
  console.log(`\nThis tree against ${ref}: ${pages} fresh pages each per network, interleaved (medians)`);
  console.log(`  load average (1 min) during the run: ${load.map((l) => l.toFixed(2)).join(' ')}`);
  for (const [network, { figures, read, floor }] of Object.entries(results)) {
    const m = (which, key) => median(figures[which].map((f) => f[key]));
    const b = (which, key) => median(figures[which].map((f) => f.bytes[key]));
    const slow = network === 'slow';
    console.log(
      `\n  ${network} network${slow ? ' (150 ms RTT, 1.6 Mbps down, 750 kbps up)' : ''}: ${ref.padStart(10)} ${'this'.padStart(10)}  ratio  budget`,
    );
    const limit = (key) => ({ ratio: BUDGETS.ratio[key], max: slow ? BUDGETS.slow[key] : undefined });
    row('first contentful paint', m('old', 'fcp'), m('new', 'fcp'), ms, limit('fcp'));
    row('sandbox:ready', m('old', 'ready'), m('new', 'ready'), ms, limit('ready'));
    row(
      'prompt 1 run:finished, after navigation',
      m('old', 'finished'),
      m('new', 'finished'),
      ms,
      limit('finished'),
    );
    row('first click to run:finished (cold)', m('old', 'cold'), m('new', 'cold'), ms, {
      ratio: BUDGETS.ratio.cold,
      max: slow ? undefined : BUDGETS.coldMs,
    });
    row('second click to run:finished (warm)', m('old', 'warm'), m('new', 'warm'), ms, {
      ratio: BUDGETS.ratio.warm,
    });
    const coldOverWarm = (visits, name, judged = true) => {
      const ratio = (which) => median(visits[which].map((f) => f.cold / f.warm));
      const cw = ratio('new');
      const verdict = judged
        ? `<= ${BUDGETS.coldOverWarm} ${cw <= BUDGETS.coldOverWarm ? 'ok' : 'OVER'}`
        : '';
      console.log(
        `  ${name.padEnd(44)} ${ratio('old').toFixed(2).padStart(10)} ${cw.toFixed(2).padStart(10)}         ${verdict}`,
      );
      if (judged && cw > BUDGETS.coldOverWarm) over++;
    };
    coldOverWarm(figures, 'cold / warm, same page', !slow);
    if (slow) {
      // What the click at once waited for: the run's scripts that came after it.
      const waited = (which) => median(figures[which].map((f) => f.bytes.finished - f.bytes.clicked));
      row('  bytes between the click and run:finished', waited('old'), waited('new'), kb);
      const floorMs = (waited('new') / SLOW_NETWORK.downloadThroughput) * 1000 + SLOW_NETWORK.latency;
      console.log(
        `    (those bytes alone take ${ms(floorMs)} on this link, with one round trip: the floor under this cold click)`,
      );
    }
    if (read.new.length) {
      const r = (which, key) => median(read[which].map((f) => f[key]));
      const after = `${READ_MS / 1000} s`;
      row(`clicked ${after} after the button: cold`, r('old', 'cold'), r('new', 'cold'), ms);
      row(`clicked ${after} after the button: warm`, r('old', 'warm'), r('new', 'warm'), ms);
      coldOverWarm(read, `clicked ${after} after the button: cold / warm`);
    }
    row('bytes before first contentful paint', b('old', 'fcp'), b('new', 'fcp'), kb);
    row('bytes before sandbox:ready', b('old', 'ready'), b('new', 'ready'), kb);
    row('bytes before run:finished', b('old', 'finished'), b('new', 'finished'), kb);
    console.log(
      `  the browser's floor: a fresh page's first script at ${ms(floor.script)}, an empty worker's first line at ${ms(floor.worker)}` +
        (slow ? ` (navigator.connection.effectiveType here: ${figures.new[0].effectiveType || 'none'})` : ''),
    );
  }
  if (over > 0) {
    console.log(`\n${over} figure(s) over budget`);
    process.exitCode = 1;
  }
}

/**
 * What the page does ahead of time (src/page/ahead.ts) against the switch off (`ahead=off`), in
 * one run of this tree, on Lighthouse's mobile profile (the slow network and MOBILE_CPU_SLOWDOWN):
 * `pages` fresh pages of each, interleaved, the order alternating, both clicked at once and read
 * first. Prints each side's medians and the ratio on / off: what is done ahead is kept when it
 * saves at least AHEAD_PAYS.ms or AHEAD_PAYS.ratio on a first visit (first paint, `sandbox:ready`,
 * `run:finished` after navigation) or a first click (cold). Each commit of `refs` is one more
 * side, with its own defaults (what another commit does ahead is measured there).
 */
export async function aheadBench(pages = 3, refs = []) {
  const scratch = mkdtempSync(join(tmpdir(), 's04-ahead-'));
  const load = [loadavg()[0]];
  const trees = refs.map((_, k) => join(scratch, `tree-${k}`));
  try {
    console.log(`ahead bench: building this tree${refs.length ? ` and ${refs.join(', ')}` : ''}`);
    build(root, join(scratch, 'app'));
    precompress(join(scratch, 'app'));
    refs.forEach((ref, k) => {
      buildRef(ref, trees[k], join(scratch, `ref-${k}`));
      precompress(join(scratch, `ref-${k}`));
    });
    const serve = (dir) =>
      serveStatic({ dir: join(scratch, dir), isolation: true, brotli: true, cacheAssets: true });
    const app = await serve('app');
    const sides = { on: { server: app, query: '' }, off: { server: app, query: 'ahead=off' } };
    for (const [k, ref] of refs.entries()) sides[ref] = { server: await serve(`ref-${k}`), query: '' };
    const names = Object.keys(sides);
    const figures = Object.fromEntries(names.map((name) => [name, []]));
    const read = Object.fromEntries(names.map((name) => [name, []]));
    const browser = await chromium.launch(await chromiumLaunchOptions(['--no-sandbox', '--disable-gpu']));
    try {
      console.log(`ahead bench: ${pages} fresh pages of each side, mobile profile`);
      for (let i = 0; i < pages; i++) {
        // Interleaved, the order turning: no side always goes first.
        const order = names.map((_, k) => names[(k + i) % names.length]);
        for (const side of order) {
          const profile = { cpu: MOBILE_CPU_SLOWDOWN, query: sides[side].query };
          figures[side].push(await firstVisit(browser, sides[side].server.url, true, undefined, profile));
          read[side].push(await firstVisit(browser, sides[side].server.url, true, READ_MS, profile));
        }
        load.push(loadavg()[0]);
      }
    } finally {
      await browser.close();
      for (const server of new Set(Object.values(sides).map((side) => side.server))) await server.close();
    }
    reportAhead(pages, figures, read, load, refs);
    return { figures, read };
  } finally {
    trees.forEach(removeTree);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** What a trick ahead must save to be kept: this many ms, or this share of the time with it off. */
export const AHEAD_PAYS = { ms: 50, ratio: 0.1 };

function reportAhead(pages, figures, read, load, refs) {
  console.log(
    `\nahead=on against ahead=off${refs.length ? ` (and ${refs.join(', ')})` : ''}: ${pages} fresh pages each, ` +
      `mobile profile (${MOBILE_CPU_SLOWDOWN}x CPU, 150 ms RTT, 1.6 Mbps down, 750 kbps up), interleaved (medians)`,
  );
  console.log(`  load average (1 min) during the run: ${load.map((l) => l.toFixed(2)).join(' ')}`);
  const refHead = refs.map((ref) => `${ref.slice(0, 8).padStart(10)}  on/ref`).join('');
  console.log(
    `  ${''.padEnd(44)} ${'on'.padStart(10)} ${'off'.padStart(10)}  on/off  saved  pays ${refHead}`,
  );
  const ms = (n) => `${Math.round(n)} ms`.padStart(10);
  const row = (name, visits, key) => {
    const m = (side) => median(visits[side].map((f) => f[key]));
    const [on, off] = [m('on'), m('off')];
    const saved = off - on;
    const pays = saved >= AHEAD_PAYS.ms || saved >= off * AHEAD_PAYS.ratio;
    const refCells = refs.map((ref) => `${ms(m(ref))}  ${(on / m(ref)).toFixed(2).padStart(6)}`).join('');
    console.log(
      `  ${name.padEnd(44)} ${ms(on)} ${ms(off)} ${(on / off).toFixed(2).padStart(6)} ` +
        `${`${Math.round(saved)}`.padStart(6)}  ${(pays ? 'yes' : 'no').padEnd(4)} ${refCells}`,
    );
  };
  row('first contentful paint', figures, 'fcp');
  row('sandbox:ready', figures, 'ready');
  row('prompt 1 run:finished, after navigation', figures, 'finished');
  row('first click to run:finished (cold)', figures, 'cold');
  row('second click to run:finished (warm)', figures, 'warm');
  const after = `${READ_MS / 1000} s`;
  row(`clicked ${after} after the button: run:finished`, read, 'finished');
  row(`clicked ${after} after the button: cold`, read, 'cold');
  row(`clicked ${after} after the button: warm`, read, 'warm');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [ref, pages, networks] = process.argv.slice(2);
  await releaseBench(ref || undefined, Number(pages ?? 5), networks?.split(','));
}
