#!/usr/bin/env node
/**
 * Runs every check of the project and prints one plain summary line, `N passed, N failed`:
 * type check, lint and format, unit tests (Vitest) and end-to-end tests (Playwright in Chromium).
 * Exits non-zero when anything failed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

function check(label, command, args) {
  if (run(label, command, args)) passed++;
  else {
    failed++;
    failures.push(label);
  }
}

/** Counts test cases from a runner's JSON report (scripts/verdict.mjs says what fails a suite). */
function suite(label, command, args, report, env, count) {
  const ok = run(label, command, args, env);
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
check('types', 'npx', ['svelte-check', '--tsconfig', './tsconfig.json', '--threshold', 'error']);
check('lint', 'npx', ['eslint', '.']);
check('format', 'npx', ['prettier', '--check', '.']);

const vitestReport = join(out, 'vitest.json');
suite(
  'unit',
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
  vitestReport,
  {},
  (r) => [r.numPassedTests, r.numFailedTests],
);

const pwReport = join(out, 'playwright.json');
suite('e2e', 'npx', ['playwright', 'test'], pwReport, { PW_JSON_OUTPUT: pwReport }, (r) => [
  r.stats.expected,
  r.stats.unexpected + r.stats.flaky,
]);

if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
