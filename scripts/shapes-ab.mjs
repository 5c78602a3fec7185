#!/usr/bin/env node
/**
 * The record shapes (scripts/shapes-bench.mjs) on two builds in one run: both served side by side
 * on loopback, a fresh page of each in turn for every shape and round, the order alternating, so
 * that the machine's speed of the moment weighs on both alike. Prints each build's medians and the
 * ratio after/before (scrub frames a second: higher is better; times: lower is better).
 *
 * Usage: node scripts/shapes-ab.mjs <before> [after = this tree] [rounds = 3] [shape names, comma-separated]
 * A side is a folder holding a test build (`npx vite build --mode test --outDir <folder>`) or a
 * commit, built in a temporary worktree with its own `npm ci`; `.` is this tree, built.
 * Example: node scripts/shapes-ab.mjs 6f605e6 . 3 '232k text deltas,20k tool calls'
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchBenchBrowser } from './built-app.mjs';
import { recordShapes } from './records.mjs';
import { serveStatic } from './serve-static.mjs';
import { shapeFigures } from './shapes-bench.mjs';
import { median, round } from './stats.mjs';

const [before, after = '.', roundsArg = '3', shapesArg] = process.argv.slice(2);
if (!before) throw new Error('usage: node scripts/shapes-ab.mjs <before> [after] [rounds] [shapes]');
const ROUNDS = Number(roundsArg);
const names = shapesArg ? shapesArg.split(',') : Object.keys(recordShapes);
for (const name of names) if (!recordShapes[name]) throw new Error(`unknown shape "${name}"`);
const root = resolve(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 's04-shapes-ab-'));
const worktrees = [];

/** A test build (it has `window.__s04`) of the tree at `cwd` in `outDir`. */
function build(cwd, outDir) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  execFileSync('npx', ['vite', 'build', '--mode', 'test', '--logLevel', 'error', '--outDir', outDir], {
    cwd,
    env,
    stdio: 'inherit',
  });
}

/** The folder of a side's build: the folder given, this tree built, or a commit built apart. */
function side(which, name) {
  if (which !== '.' && existsSync(which) && statSync(which).isDirectory()) return which;
  const outDir = join(scratch, name);
  if (which === '.') {
    build(root, outDir);
    return outDir;
  }
  const tree = join(scratch, `${name}-tree`);
  execFileSync('git', ['worktree', 'add', '--detach', tree, which], { cwd: root, stdio: 'ignore' });
  worktrees.push(tree);
  // Its own node_modules: the build's plugins find their packages by real path.
  execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: tree, stdio: 'ignore' });
  build(tree, outDir);
  return outDir;
}

try {
  const dirs = { before: side(before, 'before'), after: side(after, 'after') };
  const servers = {
    before: await serveStatic({ dir: dirs.before, isolation: true }),
    after: await serveStatic({ dir: dirs.after, isolation: true }),
  };
  const browser = await launchBenchBrowser();
  const loads = [loadavg()[0]];
  const figures = {};
  for (const name of names) {
    const json = JSON.stringify(recordShapes[name]());
    figures[name] = { before: [], after: [] };
    for (let i = 0; i < ROUNDS; i++) {
      for (const which of i % 2 ? ['after', 'before'] : ['before', 'after']) {
        const measured = await shapeFigures(browser, servers[which].url.replace(/\/$/, ''), name, json);
        figures[name][which].push(measured);
        console.log(
          `  ${name} ${which}: scrub ${measured.scrubFps} frames/s (${measured.scrubLayoutsPerFrame} layouts a frame), open ${measured.openMs} ms`,
        );
      }
      loads.push(loadavg()[0]);
    }
  }
  await browser.close();
  for (const server of Object.values(servers)) await server.close();
  const keys = [
    ['scrubFps', 'scrub (frames/s)'],
    ['scrubLayoutsPerFrame', 'scrub: layouts a frame'],
    ['scrubStyleRecalcsPerFrame', 'scrub: style recalculations a frame'],
    ['openMs', 'open (ms)'],
    ['stepMedianMs', '40 jumps: median (ms)'],
    ['stepMaxMs', '40 jumps: longest (ms)'],
    ['replayToStepMaxMs', 'replay to a step, max (ms)'],
  ];
  console.log(
    `\n${before} -> ${after}: ${ROUNDS} fresh pages each, interleaved, medians; load average ${round(Math.min(...loads))}-${round(Math.max(...loads))}`,
  );
  for (const name of names) {
    console.log(`  ${name}`);
    for (const [key, label] of keys) {
      const b = median(figures[name].before.map((f) => f[key]));
      const a = median(figures[name].after.map((f) => f[key]));
      console.log(`    ${label}: ${round(b)} -> ${round(a)} (ratio ${(a / b).toFixed(2)})`);
    }
  }
} finally {
  for (const tree of worktrees)
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: root, stdio: 'ignore' });
  rmSync(scratch, { recursive: true, force: true });
}
