/**
 * The big record shapes of scripts/records.mjs (`recordShapes`: 150k log lines, 150k errors, 232k
 * text deltas, 20k tool calls, each under the 25 MB cap), opened and stepped through in Chromium:
 * `npm run bench -- records`, and part of `npm run bench -- figures`.
 */
import { recordShapes } from './records.mjs';
import { median, round } from './stats.mjs';

/** A scrub: a new step every frame, back and forth across the whole record, drawn each time; each frame's time. */
async function scrub(playground, steps) {
  const frames = [];
  let last = performance.now();
  for (let i = 0; i < 120; i++) {
    const x = i < 60 ? i / 59 : (119 - i) / 59;
    playground.stepTo(Math.round(x * steps));
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const now = performance.now();
    frames.push(now - last);
    last = now;
  }
  return frames;
}

/** Gives a page `window.__scrub(playground, steps)` (see scrub): `await page.evaluate(SCRUB_SCRIPT)`. */
export const SCRUB_SCRIPT = `window.__scrub = ${scrub.toString()}`;

/**
 * A record shape's budgets (#23): it opens in a second, and stepping through it keeps the step
 * budgets of the 10,000-event record: a replay to any step in 50 ms, a scrub at 30 frames a second.
 * (The 40 jumps' longest drawn step is printed beside them, to compare builds by.)
 */
export function shapeTargets(figures) {
  return [
    ['open (ms)', figures.openMs, 1000],
    ['replay to a step (max, ms)', figures.replayToStepMaxMs, 50],
    ['scrub (frames/s)', figures.scrubFps, 30, true],
  ];
}

/**
 * One record shape (`json`, named `name`) in a fresh page of `browser` on the app at `url`: from
 * Import run to its end drawn (open), then 40 steps to places across it, each from the step before
 * as a learner's scrubbing goes, computed and drawn (the longest is the figure), a scrub (see
 * scrub), and 20 replays to a step from a replay just made (cold). Returns its figures.
 */
export async function shapeFigures(browser, url, name, json) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${url}/?speed=instant`);
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
  await page.evaluate(SCRUB_SCRIPT);
  // The browser's own counts of layouts and style recalculations, read around the scrub alone.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const counts = async () =>
    Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  await page.exposeFunction('__counts', counts);
  const measured = await page.evaluate(
    async ({ json, name }) => {
      const playground = window.__s04;
      const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
      const file = new File([json], `${name}.json`, { type: 'application/json' });
      const openStart = performance.now();
      await playground.importFile(file);
      void playground.shown.parent.messages.length;
      await frame();
      await frame();
      const openMs = performance.now() - openStart;
      if (!playground.opened) throw new Error(`${name} did not open: ${JSON.stringify(playground.notice)}`);
      const steps = playground.steps;
      const stepMs = [];
      for (let i = 0; i < 40; i++) {
        const step = Math.floor((((i * 7919) % 101) / 100) * steps);
        const start = performance.now();
        playground.stepTo(step);
        void playground.shown.log.length;
        await frame();
        stepMs.push(performance.now() - start);
      }
      // As the 10,000-event record is scrubbed: its budget is 30 frames a second.
      const countsBefore = await window.__counts();
      const scrubFrames = await window.__scrub(playground, steps);
      const countsAfter = await window.__counts();
      const perFrame = (name) => (countsAfter[name] - countsBefore[name]) / scrubFrames.length;
      const scrubLayouts = perFrame('LayoutCount');
      const scrubStyles = perFrame('RecalcStyleCount');
      // Replay to a step as computation alone, from a fresh replay each time (budget 50 ms).
      const coldMs = [];
      const record = playground.opened.record;
      for (let i = 0; i < 20; i++) {
        playground.open(record, { kind: 'file', name });
        const start = performance.now();
        playground.stepTo(Math.floor((((i * 7919) % 101) / 100) * steps));
        void playground.shown.log.length;
        coldMs.push(performance.now() - start);
      }
      return {
        events: record.events.length,
        steps,
        openMs,
        stepMs,
        scrubFrames,
        scrubLayouts,
        scrubStyles,
        coldMs,
      };
    },
    { json, name },
  );
  await page.close();
  return {
    megabytes: round(json.length / 1024 / 1024),
    events: measured.events,
    steps: measured.steps,
    openMs: round(measured.openMs),
    stepMedianMs: round(median(measured.stepMs)),
    stepMaxMs: round(Math.max(...measured.stepMs)),
    scrubFps: round(1000 / median(measured.scrubFrames)),
    scrubLayoutsPerFrame: round(measured.scrubLayouts),
    scrubStyleRecalcsPerFrame: round(measured.scrubStyles),
    replayToStepMaxMs: round(Math.max(...measured.coldMs)),
  };
}

/** Each big record shape, in a page of its own (see shapeFigures); prints and returns their figures. */
export async function bigShapes(browser, url) {
  const figures = {};
  for (const [name, make] of Object.entries(recordShapes)) {
    figures[name] = await shapeFigures(browser, url, name, JSON.stringify(make()));
    console.log(`  ${name}: ${JSON.stringify(figures[name])}`);
  }
  return figures;
}
