#!/usr/bin/env node
/**
 * How long `Model call` takes to open on a 5 MB array: the last model call of the 10,000-event
 * record (scripts/records.mjs `bigRecord`: its parent's 500th call sends 999 messages, 5 MB), from
 * the click to the dialog drawn (two frames), first as that record was made (no request bodies),
 * then with a body on every call as the playground records them now. The first open of a page
 * loads the dialog's code too; the target is 100 ms. What the dialog shows is the
 * end-to-end test's (e2e/model-call.spec.ts); how long it takes is measured here.
 *
 * Usage: node scripts/model-call-bench.mjs http://127.0.0.1:41731
 * (npm run bench runs it against the server it starts.)
 */
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright';
import { chromiumLaunchOptions, readyPage } from './built-app.mjs';
import { bigRecord } from './records.mjs';

const OPENS = 5;

/** The big record with each call's body as the loop records it (its messages as their count). */
function withBodies(record) {
  let sent = 0;
  const events = record.events.map((event) => {
    if (event.type === 'message' && event.agent === 'parent') sent = Math.max(sent, event.index + 1);
    if (event.type !== 'model_start') return event;
    return {
      ...event,
      request: {
        model: 'demo',
        system: 'You are a coding agent.',
        tools: [],
        messages: sent,
        max_tokens: 8000,
      },
    };
  });
  return { ...record, events };
}

/** Opens `Model call` of the parent's last call `OPENS` times in a fresh page; returns the times (ms). */
async function openTimes(browser, appURL, record) {
  const page = await readyPage(browser, appURL);
  const measured = await page.evaluate(
    async ({ json, opens }) => {
      const playground = window.__s04;
      await playground.importFile(new File([json], 'big.json', { type: 'application/json' }));
      const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
      // The record settles first (its figures, the chart drawn after the first paint).
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await frame();
      const region = document.querySelector('[aria-label="Parent messages"]');
      const buttons = region.querySelectorAll('[role="group"] button');
      const last = buttons[buttons.length - 1];
      const times = [];
      for (let i = 0; i < opens; i++) {
        const start = performance.now();
        last.click();
        let dialog = null;
        // Drawn: open, with its first messages listed, and a frame painted after that.
        await frame();
        while (!dialog?.open || !dialog.querySelector('[role="list"] [role="listitem"]')) {
          await frame();
          dialog = document.querySelector('dialog.model-call');
        }
        await frame();
        times.push(performance.now() - start);
        dialog.close();
        await frame();
        await frame();
      }
      return { times, label: last.getAttribute('aria-label') };
    },
    { json: JSON.stringify(record), opens: OPENS },
  );
  await page.context().close();
  return measured;
}

const round = (n) => Math.round(n * 10) / 10;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The figures: the first open of a page and the median of the opens after it, for both records. */
export async function modelCallBench(browser, appURL) {
  const results = {};
  for (const [name, record] of [
    ['recordedBefore', bigRecord()],
    ['withBodies', withBodies(bigRecord())],
  ]) {
    const { times, label } = await openTimes(browser, appURL, record);
    results[name] = {
      call: label,
      megabytes: Math.round((JSON.stringify(record).length / 1e6) * 10) / 10,
      firstOpenMs: round(times[0]),
      medianAfterMs: round(median(times.slice(1))),
      maxAfterMs: round(Math.max(...times.slice(1))),
    };
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [appURL] = process.argv.slice(2);
  if (!appURL) {
    console.log('Usage: node scripts/model-call-bench.mjs <playground server URL>');
    process.exit(1);
  }
  const browser = await chromium.launch(
    await chromiumLaunchOptions(['--no-sandbox', '--disable-gpu', '--disable-background-networking']),
  );
  console.log(JSON.stringify(await modelCallBench(browser, appURL.replace(/\/+$/, '')), null, 2));
  await browser.close();
}
