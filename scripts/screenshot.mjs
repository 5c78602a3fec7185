#!/usr/bin/env node
/**
 * Screenshots of the playground after each sample prompt on the demo model, to look at:
 * screenshots/1-framework.png, 2-summaries.png, 3-module.png (1440x900, built app, Chromium);
 * then prompt 1, asked in each language, on a phone, a laptop and a projector:
 * screenshots/phone-{en,zh,ja}.png (390x844, scrolled to the arrays),
 * screenshots/laptop-{en,zh,ja}.png (1366x768) and screenshots/projector-{en,zh,ja}.png
 * (1920x1080); and the Workers timeline of twelve subagents
 * running at once (screenshots/timeline-12.png, a made record opened as a file), and the 10,000-event
 * record stepped to its middle (screenshots/big-record.png).
 *
 * Usage: npm run screenshot   (builds, serves on 127.0.0.1:41733, shoots, stops the server)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright';
import { chromiumPath, LOOPBACK_ONLY, serveBuiltApp } from './built-app.mjs';
import { bigRecord, parallelRecord } from './records.mjs';

const PORT = Number(process.env.SCREENSHOT_PORT ?? 41733);
const SHOTS = [
  ['1-framework', 'Use a subtask to find what testing framework this project uses'],
  ['2-summaries', 'Delegate: read all .py files and summarize what each one does'],
  ['3-module', 'Use a task to create a new module, then verify it from here'],
];

/** Prompt 1 in the words the demo model understands in each language (it answers in the same). */
const FRAMEWORK = {
  en: SHOTS[0][1],
  zh: '用子任务找出这个项目用的测试框架',
  ja: 'サブタスクでこのプロジェクトのテストフレームワークを調べて',
};
const SIZES = [
  ['phone', { width: 390, height: 844 }],
  ['laptop', { width: 1366, height: 768 }],
  ['projector', { width: 1920, height: 1080 }],
];

// Chinese and Japanese need a CJK font on the system; without one, Chromium draws boxes.
const cjk = spawnSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' });
if (!cjk.stdout?.trim())
  console.warn('No CJK font found (Debian: apt-get install fonts-noto-cjk): zh and ja will show boxes.');

const BASE = await serveBuiltApp(PORT);
const executablePath = chromiumPath();
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', LOOPBACK_ONLY] });
mkdirSync('screenshots', { recursive: true });
for (const [name, prompt] of SHOTS) {
  // Each prompt on a fresh page, shown once its run has ended.
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${BASE}/?speed=instant`);
  await page.getByRole('status').filter({ hasText: /^Idle/ }).waitFor();
  await page.getByRole('button', { name: prompt, exact: true }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /^(Finished|Failed)/ })
    .waitFor({ timeout: 60_000 });
  await page.waitForTimeout(300); // the Markdown renderer and the last paint
  await page.screenshot({ path: `screenshots/${name}.png` });
  console.log(`screenshots/${name}.png: ${await page.getByRole('status').innerText()}`);
  await page.close();
}
for (const [size, viewport] of SIZES) {
  for (const [lang, prompt] of Object.entries(FRAMEWORK)) {
    const page = await browser.newPage({ viewport });
    await page.goto(`${BASE}/?speed=instant&lang=${lang}`);
    await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0, null, {
      timeout: 60_000,
    });
    // The prompt typed and sent with Enter (the Run button's name is in the screen's language).
    await page.locator('textarea').fill(prompt);
    await page.locator('textarea').press('Enter');
    await page.waitForFunction(() => performance.getEntriesByName('run:finished').length > 0, null, {
      timeout: 60_000,
    });
    await page.locator('textarea').blur();
    await page.waitForTimeout(300);
    // On a phone the arrays are below the prompt: the picture starts at their heading.
    // Messages out of view are drawn once in view (content-visibility), a frame or two after the
    // jump: without the wait, about half the pictures caught their empty boxes.
    if (size === 'phone') {
      await page.locator('.arrays').evaluate((element) => element.scrollIntoView());
      await page.waitForTimeout(300);
    }
    const path = `screenshots/${size}-${lang}.png`;
    await page.screenshot({ path });
    console.log(`${path}: ${await page.getByRole('status').innerText()}`);
    await page.close();
  }
}

// Made records, opened as files: twelve subagents at once, and the benchmark's big record.
for (const [name, record, locator] of [
  ['timeline-12', parallelRecord(12), 'section:has(#timeline-title)'],
  ['big-record', bigRecord(), null],
]) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${BASE}/?speed=instant`);
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
  await page.evaluate(async (json) => {
    const playground = window.__s04;
    await playground.importFile(new File([json], 'made.json', { type: 'application/json' }));
    playground.stepTo(Math.round(playground.steps / 2));
  }, JSON.stringify(record));
  await page.waitForTimeout(800);
  const path = `screenshots/${name}.png`;
  if (locator) await page.locator(locator).screenshot({ path });
  else await page.screenshot({ path });
  console.log(path);
  await page.close();
}
await browser.close();
