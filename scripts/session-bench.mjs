#!/usr/bin/env node
/**
 * How long a 50 MB Claude Code session takes to open (target: 2 s or less): a parent and three
 * subagents reading large files (scripts/claude-sessions.mjs `bigSession`), picked as several
 * files in `Import run`. Per fresh page: the `session:open` measure (reading and converting in the
 * session worker, checking the record, opening it), the time from the file input's change to the
 * first frame that shows the session's banner, the longest task on the page's thread meanwhile,
 * and whether the progress bar was shown. What the session shows is the end-to-end test's
 * (e2e/claude-session.spec.ts); how long it takes is measured here.
 *
 * Usage: node scripts/session-bench.mjs http://127.0.0.1:41731 [runs=3] [megabytes=50]
 * (npm run bench runs it against the server it starts; `npm run bench -- session` alone.)
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright';
import { chromiumLaunchOptions, readyPage } from './built-app.mjs';
import { bigSession } from './claude-sessions.mjs';

/** Writes the session's files (flat, as a file chooser gives them); returns their paths and size. */
function writeSession(megabytes) {
  const dir = mkdtempSync(join(tmpdir(), 's04-session-bench-'));
  let bytes = 0;
  const paths = Object.entries(bigSession(megabytes)).map(([path, text]) => {
    const file = join(dir, path.slice(path.lastIndexOf('/') + 1));
    writeFileSync(file, text);
    bytes += Buffer.byteLength(text);
    return file;
  });
  return { paths, bytes };
}

/** Opens the session once in a fresh page of `browser`; returns its figures. */
export async function sessionOpen(browser, appURL, paths) {
  const page = await readyPage(browser, appURL);
  await page.evaluate(() => {
    window.__bench = { longTasks: [], progress: false, changed: 0 };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__bench.longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
    document.addEventListener('change', () => (window.__bench.changed = performance.now()), true);
    new MutationObserver(() => {
      if (document.querySelector('progress')) window.__bench.progress = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import run' }).click();
  await (await chooser).setFiles(paths);
  const shown = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const check = () => {
          const note = document.querySelector('[role="note"]');
          if (note?.textContent?.includes('Claude Code session'))
            resolve(performance.now() - window.__bench.changed);
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
  );
  const figures = await page.evaluate(() => ({
    openMs: performance.getEntriesByName('session:open')[0]?.duration ?? null,
    longTasks: window.__bench.longTasks,
    progress: window.__bench.progress,
    subagents: window.__s04.shown.subagents.length,
    events: window.__s04.record.events.length,
  }));
  await page.context().close();
  return { ...figures, shownMs: shown };
}

/** The figures of `runs` fresh pages opening a session of `megabytes` MB. */
export async function sessionBench(browser, appURL, runs = 3, megabytes = 50) {
  const { paths, bytes } = writeSession(megabytes);
  const opens = [];
  for (let i = 0; i < runs; i++) opens.push(await sessionOpen(browser, appURL, paths));
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return {
    runs,
    megabytes: Math.round((bytes / 1024 / 1024) * 10) / 10,
    events: opens[0].events,
    subagents: opens[0].subagents,
    openMedianMs: Math.round(median(opens.map((o) => o.openMs))),
    shownMedianMs: Math.round(median(opens.map((o) => o.shownMs))),
    shownMs: opens.map((o) => Math.round(o.shownMs)),
    longestTaskMs: opens.map((o) => Math.round(Math.max(0, ...o.longTasks))),
    progressShown: opens.every((o) => o.progress),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [appURL, runs, megabytes] = process.argv.slice(2);
  if (!appURL) {
    console.log('Usage: node scripts/session-bench.mjs <playground server URL> [runs=3] [megabytes=50]');
    process.exit(1);
  }
  const browser = await chromium.launch(
    await chromiumLaunchOptions(['--no-sandbox', '--disable-gpu', '--disable-background-networking']),
  );
  console.log(
    JSON.stringify(
      await sessionBench(browser, appURL.replace(/\/+$/, ''), Number(runs ?? 3), Number(megabytes ?? 50)),
      null,
      2,
    ),
  );
  await browser.close();
}
