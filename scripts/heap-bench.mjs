#!/usr/bin/env node
/**
 * Whether the page holds on to what a run leaves behind: sample prompt 1 run 50 times in one page
 * (instant speed, the offline sandbox), a new conversation after each, as a learner trying it again
 * and again. The page's JavaScript heap after a full garbage collection is read after the first
 * run and after the last (target: at most 1.2x). History keeps every run, so some growth is the
 * runs themselves; the figure says whether anything else stays.
 *
 * Usage: node scripts/heap-bench.mjs http://127.0.0.1:41731 [runs=50]
 * (`npm run bench -- heap` builds, serves and runs it.)
 */
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright';
import { chromiumLaunchOptions } from './built-app.mjs';

const PROMPT = 'Use a subtask to find what testing framework this project uses';

/**
 * The page's heap after a full collection, in bytes: `used` in all, and `code`, what of it is the
 * engine's compiled code (from a heap snapshot), which grows as functions get hot, not with what
 * the page keeps.
 */
async function heapAfterGc(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const chunks = [];
  const take = (event) => chunks.push(event.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', take);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', take);
  const { snapshot, nodes } = JSON.parse(chunks.join(''));
  const fields = snapshot.meta.node_fields;
  const type = fields.indexOf('type');
  const size = fields.indexOf('self_size');
  const codeType = snapshot.meta.node_types[type].indexOf('code');
  let code = 0;
  for (let i = 0; i < nodes.length; i += fields.length)
    if (nodes[i + type] === codeType) code += nodes[i + size];
  return { used: usedSize, code };
}

/** Runs prompt 1 `runs` times; the heap after the first run and after each tenth. */
export async function heapBench(browser, appURL, runs = 50) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await page.goto(`${appURL}/?speed=instant&sandbox=local&sample=typescript`);
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
  const status = page.getByRole('status').first();
  const newConversation = page.getByRole('button', { name: 'New conversation' });
  const heap = [];
  const ready = await heapAfterGc(cdp);
  for (let run = 1; run <= runs; run++) {
    await page.getByRole('button', { name: PROMPT, exact: true }).click();
    await status.filter({ hasText: /^(Finished|Failed)/ }).waitFor({ timeout: 60_000 });
    const text = (await status.textContent())?.trim() ?? '';
    if (text.startsWith('Failed')) throw new Error(`run ${run}: ${text}`);
    await newConversation.click();
    if (run === 1 || run % 10 === 0) heap.push({ run, ...(await heapAfterGc(cdp)) });
  }
  await context.close();
  const first = heap[0];
  const last = heap[heap.length - 1];
  const ratio = (a, b) => Math.round((a / b) * 100) / 100;
  return {
    runs,
    readyMB: mb(ready.used),
    afterRuns: heap.map(({ run, used, code }) => ({ run, MB: mb(used), codeMB: mb(code) })),
    ratio: ratio(last.used, first.used),
    ratioWithoutCode: ratio(last.used - last.code, first.used - first.code),
  };
}

const mb = (bytes) => Math.round((bytes / 1e6) * 10) / 10;

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const browser = await chromium.launch(await chromiumLaunchOptions(['--no-sandbox', '--disable-gpu']));
  try {
    console.log(
      JSON.stringify(await heapBench(browser, process.argv[2], Number(process.argv[3] ?? 50)), null, 2),
    );
  } finally {
    await browser.close();
  }
}
