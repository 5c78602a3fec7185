#!/usr/bin/env node
/**
 * The pictures of docs/embedding.md: sample prompt 1 run on the demo model, its link framed as a
 * slide would frame it, at 640x360 and 960x540, at the step the link names and presented (the
 * caption over the array it tells about). Written to docs/embed-*.png, small: 256 colours when
 * pngquant is on the machine, else as Chromium draws them.
 *
 * Usage: node scripts/embed-shots.mjs   (builds, serves on 127.0.0.1:41747, shoots, stops the server)
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { chromium } from 'playwright';
import { chromiumPath, LOOPBACK_ONLY, serveBuiltApp } from './built-app.mjs';

const PORT = Number(process.env.SCREENSHOT_PORT ?? 41747);
const PROMPT = 'Use a subtask to find what testing framework this project uses';
const SIZES = [
  [640, 360],
  [960, 540],
];

const BASE = await serveBuiltApp(PORT);
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: ['--no-sandbox', LOOPBACK_ONLY],
});
const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
await page.goto(`${BASE}/?speed=instant&lang=en`);
await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0, null, {
  timeout: 60_000,
});
await page.getByRole('button', { name: PROMPT, exact: true }).click();
await page.waitForFunction(() => performance.getEntriesByName('run:finished').length > 0, null, {
  timeout: 60_000,
});
// The step where the subagent has read its files: the moment a slide shows best.
const slider = page.getByRole('slider', { name: 'Step' });
await slider.fill(String(Math.round(Number(await slider.getAttribute('max')) * 0.6)));
await page.getByRole('button', { name: 'Copy link' }).click();
const link = (await page.getByRole('textbox', { name: 'Link to this step' }).inputValue()).replace(
  '/?',
  '/?embed=1&',
);

/** Waits for the frame's pictures to settle: Markdown drawn, the arrays scrolled. */
const settle = (frame) =>
  frame.evaluate(
    () =>
      new Promise((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 300))),
      ),
  );

const written = [];
for (const [width, height] of SIZES) {
  const shot = await browser.newPage({ viewport: { width, height } });
  await shot.goto(link);
  await shot.getByRole('listitem').filter({ visible: true }).first().waitFor();
  await settle(shot);
  written.push(`docs/embed-${width}x${height}.png`);
  await shot.screenshot({ path: written.at(-1) });
  // Presented: from the start of the run to the result arriving in the parent's array.
  await shot.getByRole('button', { name: 'Present' }).click();
  const caption = shot.getByRole('region', { name: 'Caption' }).getByRole('paragraph');
  for (let i = 0; i < 20; i++) {
    const said = await caption.textContent();
    if (/^The result arrives/.test(said)) break;
    await shot.getByRole('button', { name: 'Continue' }).click();
    await shot.waitForFunction(
      (before) => document.querySelector('section.caption p')?.textContent !== before,
      said,
    );
  }
  await settle(shot);
  written.push(`docs/embed-${width}x${height}-present.png`);
  await shot.screenshot({ path: written.at(-1) });
  await shot.close();
}
await browser.close();

const quantize = spawnSync('pngquant', ['--version']).status === 0;
for (const path of written) {
  if (quantize) spawnSync('pngquant', ['--force', '--skip-if-larger', '--output', path, '256', path]);
  console.log(`${path}: ${Math.round(statSync(path).size / 1024)} KB`);
}
process.exit(0);
