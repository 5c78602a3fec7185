#!/usr/bin/env node
/**
 * Screenshots of the playground after each sample prompt on the demo model, to look at:
 * screenshots/1-framework.png, 2-summaries.png, 3-module.png (1440x900, built app, Chromium).
 *
 * Usage: npm run screenshot   (builds, serves on 127.0.0.1:41733, shoots, stops the server)
 */
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright';
import { chromiumPath, serveBuiltApp } from './built-app.mjs';

const PORT = Number(process.env.SCREENSHOT_PORT ?? 41733);
const SHOTS = [
  ['1-framework', 'Use a subtask to find what testing framework this project uses'],
  ['2-summaries', 'Delegate: read all .py files and summarize what each one does'],
  ['3-module', 'Use a task to create a new module, then verify it from here'],
];

const BASE = await serveBuiltApp(PORT);
const executablePath = chromiumPath();
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
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
await browser.close();
