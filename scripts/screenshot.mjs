#!/usr/bin/env node
/**
 * Screenshots of the playground after each sample prompt on the demo model, to look at:
 * screenshots/1-framework.png, 2-summaries.png, 3-module.png (1440x900, built app, Chromium).
 *
 * Usage: npm run screenshot   (builds, serves on 127.0.0.1:41733, shoots, stops the server)
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { chromium } from 'playwright';

const PORT = Number(process.env.SCREENSHOT_PORT ?? 41733);
const BASE = `http://127.0.0.1:${PORT}`;
const SHOTS = [
  ['1-framework', 'Use a subtask to find what testing framework this project uses'],
  ['2-summaries', 'Delegate: read all .py files and summarize what each one does'],
  ['3-module', 'Use a task to create a new module, then verify it from here'],
];

if (spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' }).status !== 0)
  process.exit(1);
const server = spawn(
  'npx',
  ['vite', 'preview', '--port', String(PORT), '--strictPort', '--host', '127.0.0.1'],
  {
    stdio: 'ignore',
    detached: true,
  },
);
const stopServer = () => {
  try {
    process.kill(-server.pid);
  } catch {
    // already gone
  }
};
process.on('exit', stopServer);

for (let i = 0; ; i++) {
  try {
    if ((await fetch(BASE)).ok) break;
  } catch {
    if (i > 100) throw new Error(`the preview server did not start on ${BASE}`);
  }
  await new Promise((r) => setTimeout(r, 100));
}

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p) => p && existsSync(p),
);
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
stopServer();
