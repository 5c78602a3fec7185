/**
 * What a scrub of a long record makes the browser lay out. A followed long array was read for its
 * end in the frame a step had just changed it, which laid the page out there and then again once
 * the step was drawn. Counted from a trace of the scrub (layouts a script forced, never a time; the
 * time is the bench's, `npm run bench -- records`).
 */
import type { Page } from '@playwright/test';
import { toolCallsRecord } from '../scripts/records.mjs';
import { SCRUB_SCRIPT } from '../scripts/shapes-bench.mjs';
import { expect, importFile, open, parentList, status, test } from './fixtures';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  args?: { beginData?: { stackTrace?: unknown[] } };
}

/** Runs `work` under a trace of the page's layouts; returns the layouts a script forced, by the main thread's. */
async function forcedLayouts(
  page: Page,
  work: () => Promise<number>,
): Promise<{ forced: number; frames: number }> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as TraceEvent[])));
  const complete = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
  await cdp.send('Tracing.start', {
    traceConfig: {
      includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline.stack'],
    },
    transferMode: 'ReportEvents',
  });
  const frames = await work();
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  // The page's main thread: the one that ran the frames' callbacks.
  const threads = new Map<string, number>();
  for (const e of events)
    if (e.name === 'FireAnimationFrame')
      threads.set(`${e.pid}:${e.tid}`, (threads.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const main = [...threads].sort((a, b) => b[1] - a[1])[0]?.[0];
  const layouts = events.filter((e) => e.name === 'Layout' && e.ph === 'X' && `${e.pid}:${e.tid}` === main);
  // A layout a script asked for (a read of a size or an offset) carries the script's stack.
  return { forced: layouts.filter((e) => e.args?.beginData?.stackTrace).length, frames };
}

test('scrubbing a long followed array reads its end after the frame, not inside it', async ({ page }) => {
  test.setTimeout(90_000);
  await open(page);
  // 2,000 model calls: the parent's array of 4,001 messages is a virtual list, followed.
  await importFile(page, 'calls.json', JSON.stringify(toolCallsRecord(2000)));
  await expect(status(page)).toHaveText(/^Finished/);
  await page.evaluate(SCRUB_SCRIPT);
  const { forced, frames } = await forcedLayouts(page, () =>
    page.evaluate(async () => {
      const w = window as unknown as {
        __s04: { steps: number; stepTo(n: number): void };
        __scrub(playground: unknown, steps: number): Promise<number[]>;
      };
      return (await w.__scrub(w.__s04, w.__s04.steps)).length;
    }),
  );
  expect(frames).toBe(120);
  // Read in the frame, the end forced a layout of the step's changes there on every frame (119 of
  // 120); read once the frame is drawn, what is left is mostly virtua reading its offset in its
  // scroll listener (59 of 120 on the day this was written).
  expect(forced / frames, `${forced} forced layouts in ${frames} frames`).toBeLessThan(0.75);

  // And the array still follows its end: the last step shows the last of its 4,001 messages.
  await page.evaluate(() => {
    const w = window as unknown as { __s04: { steps: number; stepTo(n: number): void } };
    w.__s04.stepTo(w.__s04.steps);
  });
  const last = parentList(page).and(page.locator('[data-index="4000"]'));
  await expect(last).toBeInViewport();
});
