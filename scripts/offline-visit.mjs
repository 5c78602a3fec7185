#!/usr/bin/env node
/**
 * `sandbox:ready` on a second visit with no network: one visit saves the app (its service
 * worker's precache), then each later visit is a new tab, offline (the browser's network is
 * off), with the service worker stopped before it as after closing the browser, so every figure
 * includes starting it again. Part of `npm run bench`.
 *
 * Usage alone: node scripts/offline-visit.mjs <URL of a served build, e.g. http://127.0.0.1:41731> [visits]
 */
import { launchBenchBrowser } from './built-app.mjs';

const ready = (page) =>
  page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0, null, {
    timeout: 60_000,
  });

/** Milliseconds from navigation to `sandbox:ready`, one figure per offline visit. */
export async function offlineSecondVisits(browser, url, visits = 11) {
  const context = await browser.newContext();
  const first = await context.newPage();
  await first.goto(`${url}/?speed=instant`);
  await ready(first);
  // The first visit is over once the worker has saved the app and serves this page.
  await first.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
  await first.goto('about:blank');
  await context.setOffline(true);
  const cdp = await context.newCDPSession(first);
  await cdp.send('ServiceWorker.enable');
  const figures = [];
  for (let i = 0; i < visits; i++) {
    await cdp.send('ServiceWorker.stopAllWorkers');
    const page = await context.newPage();
    await page.goto(`${url}/?speed=instant`);
    await ready(page);
    figures.push(
      await page.evaluate(() => {
        const [mark] = performance.getEntriesByName('sandbox:ready');
        if (!crossOriginIsolated) throw new Error('the offline page is not cross-origin isolated');
        return mark.startTime;
      }),
    );
    await page.close();
  }
  await context.close();
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [url, visits = '11'] = process.argv.slice(2);
  if (!url) {
    console.error('Usage: node scripts/offline-visit.mjs <URL of a served build> [visits]');
    process.exit(2);
  }
  const browser = await launchBenchBrowser();
  const figures = await offlineSecondVisits(browser, url.replace(/\/$/, ''), Number(visits));
  await browser.close();
  const sorted = [...figures].sort((a, b) => a - b);
  console.log(
    `offline second visit, sandbox:ready: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, ` +
      `min ${sorted[0].toFixed(0)}, max ${sorted.at(-1).toFixed(0)} (${figures.map((f) => f.toFixed(0)).join(' ')})`,
  );
}
