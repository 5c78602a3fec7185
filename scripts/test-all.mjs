#!/usr/bin/env node
/**
 * Runs every check of the project and prints one plain summary line, `N passed, N failed`:
 * type check, lint and format, unit tests (Vitest) and end-to-end tests (Playwright in Chromium).
 * Exits non-zero when anything failed.
 *
 * Two lanes run at once, because the browser tests keep less than one core of the two busy (a
 * test mostly waits on the page): the three builds the browser tests serve (dist/, the offline
 * spec's and the mixed-deploy spec's, which Playwright would otherwise make one after the other)
 * then the browser tests; and beside them, at a lower priority, the type check, lint, format and
 * the unit tests. The browser tests print as they go; the other steps' output is printed whole when each ends (after
 * the browser tests, if they are still going), with its time.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumPath } from './built-app.mjs';
import { suiteVerdict } from './verdict.mjs';

const out = mkdtempSync(join(tmpdir(), 's04-tests-'));
let passed = 0;
let failed = 0;
const failures = [];

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

/** Output held back while a step prints as it goes (null when none does). */
let held = null;

/** Prints a finished step's output now, or after the step printing as it goes. */
function print(text) {
  if (held) held.push(text);
  else process.stdout.write(text);
}

/** Runs a step that prints as it goes, beside the kept ones (whose output waits for its end). */
function runLive(label, command, args, env = {}) {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  held = [];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', (error) => console.log(error.message));
    child.on('close', (code) => {
      for (const text of held) process.stdout.write(text);
      held = null;
      resolve(code === 0);
    });
  });
}

/**
 * Runs a step beside another one: its output is kept and printed whole when it ends, with its time.
 * A step `beside` the browser tests runs at a lower priority (nice 10, inherited by the processes
 * it starts): it takes the core they leave, never their time, and their timeouts stay as they are.
 */
function runKept(label, command, args, env = {}, { beside = false } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env } });
    if (beside && child.pid) setPriority(child.pid, 10);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      const header = `\n=== ${label}: ${command} ${args.join(' ')} (${seconds} s)\n`;
      print(Buffer.concat([Buffer.from(header), ...output]));
      resolve(code === 0);
    });
  });
}

/** A step that counts as one check. */
async function check(label, command, args) {
  if (await runKept(label, command, args, {}, { beside: true })) passed++;
  else {
    failed++;
    failures.push(label);
  }
}

/** A build the browser tests serve: a failed one counts as a failed check (the specs then build their own). */
async function build(label, args, env = {}) {
  const ok = await runKept(label, 'npx', ['vite', 'build', ...args], env);
  if (!ok) {
    failed++;
    failures.push(label);
  }
  return ok;
}

/** Counts test cases from a runner's JSON report (scripts/verdict.mjs says what fails a suite). */
async function suite(label, command, args, report, env, count, runner = runKept) {
  const ok = await runner(label, command, args, env, { beside: true });
  const counts = existsSync(report) ? count(JSON.parse(readFileSync(report, 'utf8'))) : null;
  const verdict = suiteVerdict({ ok, counts });
  passed += verdict.passed;
  failed += verdict.failed;
  if (verdict.failedSuite) failures.push(`${label} (${verdict.reason})`);
}

/** Playwright drives Debian's Chromium here; install it once when it is missing and we may. */
function ensureChromium() {
  if (chromiumPath()) return;
  if (process.getuid?.() !== 0) {
    console.log('Chromium not found: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.');
    return;
  }
  console.log('Installing Chromium from Debian...');
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get update', 'apt-get', ['update', '-qq'], env);
  run(
    'install chromium',
    'apt-get',
    ['install', '-y', '-qq', '-o', 'DPkg::Lock::Timeout=300', 'chromium'],
    env,
  );
}

ensureChromium();

const vitestReport = join(out, 'vitest.json');
const pwReport = join(out, 'playwright.json');
const offlineBuild = join(out, 'offline-build');
const secondBuild = join(out, 'mixed-deploy-second');
await Promise.all([
  (async () => {
    // The same commands playwright.config.ts, e2e/offline.spec.ts and e2e/mixed-deploy.spec.ts run
    // when no build is handed to them.
    const env = {};
    if (await build('build for e2e', ['--mode', 'test', '--logLevel', 'warn'])) env.S04_E2E_BUILT = '1';
    const quiet = ['--logLevel', 'error', '--emptyOutDir'];
    if (await build('build for e2e/offline', [...quiet, '--outDir', offlineBuild], { BASE_PATH: '/s04/' }))
      env.S04_E2E_OFFLINE_BUILD = offlineBuild;
    const second = ['--config', 'e2e/mixed-deploy.config.ts', ...quiet, '--outDir', secondBuild];
    if (await build('build for e2e/mixed-deploy', second)) env.S04_E2E_SECOND_BUILD = secondBuild;
    await suite(
      'e2e',
      'npx',
      ['playwright', 'test'],
      pwReport,
      { PW_JSON_OUTPUT: pwReport, ...env },
      (r) => [r.stats.expected, r.stats.unexpected + r.stats.flaky],
      runLive,
    );
  })(),
  (async () => {
    await check('types', 'npx', ['svelte-check', '--tsconfig', './tsconfig.json', '--threshold', 'error']);
    await check('lint', 'npx', ['eslint', '.']);
    await check('format', 'npx', ['prettier', '--check', '.']);
    await suite(
      'unit',
      'npx',
      ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
      vitestReport,
      {},
      (r) => [r.numPassedTests, r.numFailedTests],
    );
  })(),
]);
rmSync(offlineBuild, { recursive: true, force: true });
rmSync(secondBuild, { recursive: true, force: true });

if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
