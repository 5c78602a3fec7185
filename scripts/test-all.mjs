#!/usr/bin/env node
/**
 * Runs every check of the project and prints one plain summary line, `N passed, N failed`:
 * type check, lint and format, unit tests (Vitest) and end-to-end tests (Playwright in Chromium).
 * Exits non-zero when anything failed.
 *
 * The type check, lint, format and the three builds the browser tests serve (dist/, the offline
 * spec's and the mixed-deploy spec's, which Playwright would otherwise make one after the other)
 * run in two lanes at once: none of them is timed, and each keeps about one core of two busy.
 * Their output is printed whole when each ends, with its time. The unit tests then run alone:
 * some of their tests are bounded in time (a command's timeout, a test's), and on a CI run where
 * the unit tests shared the two cores with the browser tests, seven unit tests and two browser
 * tests ran out of time. The browser tests run in two Playwright runs at once, each with its own
 * servers: the specs that mostly wait (on timers, on an emulated slow link; playwright.config.ts
 * names them) beside all the others, whose tests keep both cores busy on their own; after the
 * waiting ones, the sample prompts' spec once more with the page doing nothing ahead of time.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

/** Runs a step beside another one: its output is kept and printed whole when it ends, with its time. */
function runKept(label, command, args, env = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env } });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(`\n=== ${label}: ${command} ${args.join(' ')} (${seconds} s)`);
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });
}

/** Runs a step beside another one, its output as it comes; resolves with its success. */
function runLive(label, command, args, env = {}) {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

/** A step that counts as one check. */
async function check(label, command, args) {
  if (await runKept(label, command, args)) passed++;
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
function count(label, ok, report, counts) {
  const verdict = suiteVerdict({
    ok,
    counts: existsSync(report) ? counts(JSON.parse(readFileSync(report, 'utf8'))) : null,
  });
  passed += verdict.passed;
  failed += verdict.failed;
  if (verdict.failedSuite) failures.push(`${label} (${verdict.reason})`);
}

/** A suite run alone, its output as it comes. */
function suite(label, command, args, report, env, counts) {
  count(label, run(label, command, args, env), report, counts);
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

const offlineBuild = join(out, 'offline-build');
const secondBuild = join(out, 'mixed-deploy-second');
// The same commands playwright.config.ts, e2e/offline.spec.ts and e2e/mixed-deploy.spec.ts run
// when no build is handed to them.
const quiet = ['--logLevel', 'error', '--emptyOutDir'];
const handed = Object.assign(
  {},
  ...(await Promise.all([
    (async () => {
      await check('types', 'npx', ['svelte-check', '--tsconfig', './tsconfig.json', '--threshold', 'error']);
      const second = ['--config', 'e2e/mixed-deploy.config.ts', ...quiet, '--outDir', secondBuild];
      return {
        ...((await build('build for e2e', ['--mode', 'test', '--logLevel', 'warn'])) && {
          S04_E2E_BUILT: '1',
        }),
        ...((await build('build for e2e/mixed-deploy', second)) && { S04_E2E_SECOND_BUILD: secondBuild }),
      };
    })(),
    (async () => {
      await check('lint', 'npx', ['eslint', '.']);
      await check('format', 'npx', ['prettier', '--check', '.']);
      const offline = [...quiet, '--outDir', offlineBuild];
      const built = await build('build for e2e/offline', offline, { BASE_PATH: '/s04/' });
      return built ? { S04_E2E_OFFLINE_BUILD: offlineBuild } : {};
    })(),
  ])),
);

const vitestReport = join(out, 'vitest.json');
suite(
  'unit',
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
  vitestReport,
  {},
  (r) => [r.numPassedTests, r.numFailedTests],
);

/**
 * One of the two Playwright runs (playwright.config.ts's lanes), on its own ports; or, as lane
 * `ahead off`, the sample prompts' specs again with the page doing nothing ahead of time
 * (`ahead=off`: src/page/ahead.ts), which must behave the same, only later.
 */
function e2eLane(lane, ports) {
  const report = join(out, `playwright-${lane.replace(' ', '-')}.json`);
  const aheadOff = lane === 'ahead off';
  const env = {
    ...(aheadOff ? { S04_E2E_AHEAD: 'off' } : { S04_E2E_LANE: lane }),
    PW_JSON_OUTPUT: report,
    ...ports,
    ...handed,
  };
  const args = ['playwright', 'test', ...(aheadOff ? AHEAD_OFF_SPECS : [])];
  // The busy lane's output comes as it goes; the waiting lane's is printed whole when it ends.
  const done = (lane === 'busy' ? runLive : runKept)(`e2e (${lane})`, 'npx', args, env);
  return done.then((ok) => ({ lane, ok, report }));
}
/** The sample prompts' specs, run once more with `ahead=off`. */
const AHEAD_OFF_SPECS = ['e2e/playground.spec.ts'];
const busy = () => e2eLane('busy', { E2E_PORT: '41731', MOCK_API_PORT: '41801' });
const waiting = () => e2eLane('waiting', { E2E_PORT: '41732', MOCK_API_PORT: '41802' });
// After the waiting lane, on its ports: it ends long before the busy one.
const aheadOff = () => e2eLane('ahead off', { E2E_PORT: '41732', MOCK_API_PORT: '41802' });
// Without dist/'s build handed over, each run builds it first, into the same folder: one at a time.
const lanes = handed.S04_E2E_BUILT
  ? await Promise.all([busy(), waiting().then(async (done) => [done, await aheadOff()])]).then((all) =>
      all.flat(),
    )
  : [await busy(), await waiting(), await aheadOff()];
for (const { lane, ok, report } of lanes)
  count(`e2e (${lane})`, ok, report, (r) => [r.stats.expected, r.stats.unexpected + r.stats.flaky]);
rmSync(offlineBuild, { recursive: true, force: true });
rmSync(secondBuild, { recursive: true, force: true });

if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
