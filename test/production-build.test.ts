import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BYTE_BUDGETS,
  embedFirstPaintFiles,
  firstVisitFiles,
  transferSizes,
} from '../scripts/first-visit.mjs';
import { COMPILE_HINT } from '../vite-plugins/compile-hints';

/*
 * Checks over one production build, made here in a temporary folder as `npm run build` makes it
 * (dist/ may be the e2e specs' test build): what a first visit transfers, and what the shipped app
 * must not hold.
 *
 * Byte budgets of a first visit: BYTE_BUDGETS in scripts/first-visit.mjs says what each
 * counts and how to change one; docs/budgets.md has today's figures.
 */
const {
  firstPaint: FIRST_PAINT,
  sandboxReady: SANDBOX_READY,
  embedFirstPaint: EMBED_FIRST_PAINT,
} = BYTE_BUDGETS;

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every file under `dir`, as paths. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('a production build', () => {
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 's04-first-visit-'));
    // A production build, as deployed: without the test run's NODE_ENV and VITEST (which turns off
    // vite-plugins/just-bash-split.ts), nor a BASE_PATH of the shell.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'BASE_PATH'),
    );
    env.NODE_ENV = 'production';
    await promisify(execFile)(
      process.execPath,
      [
        join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '--outDir',
        dir,
        '--emptyOutDir',
        '--logLevel',
        'error',
      ],
      { cwd: root, env, maxBuffer: 16 * 1024 * 1024 },
    );
  }, 600_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('transfers no more bytes than its budgets before the first paint and before sandbox:ready', () => {
    const files = firstVisitFiles(dir);
    expect(files.firstPaint.filter((path) => path.endsWith('.js')).length).toBeGreaterThan(0);
    expect(files.firstPaint.filter((path) => path.endsWith('.css')).length).toBeGreaterThan(0);
    expect(files.sandboxReady.some((path) => /^assets\/sandbox-[\w-]+\.js$/.test(path))).toBe(true);
    const firstPaint = transferSizes(dir, files.firstPaint);
    const sandboxReady = transferSizes(dir, files.sandboxReady);
    console.log(
      [
        'First visit (bytes, each file compressed on its own):',
        `  before the first paint: ${firstPaint.files} files (budget ${FIRST_PAINT.files}), ${firstPaint.bytes} raw, ` +
          `${firstPaint.gzip} gzip (budget ${FIRST_PAINT.gzip}), ${firstPaint.brotli} brotli (budget ${FIRST_PAINT.brotli})`,
        `  before sandbox:ready: ${sandboxReady.files} files, ${sandboxReady.bytes} raw, ` +
          `${sandboxReady.gzip} gzip (budget ${SANDBOX_READY.gzip}), ${sandboxReady.brotli} brotli (budget ${SANDBOX_READY.brotli})`,
        `  files: ${files.sandboxReady.join(', ')}`,
      ].join('\n'),
    );
    expect(firstPaint.files).toBeLessThanOrEqual(FIRST_PAINT.files);
    expect(firstPaint.gzip).toBeLessThanOrEqual(FIRST_PAINT.gzip);
    expect(firstPaint.brotli).toBeLessThanOrEqual(FIRST_PAINT.brotli);
    expect(sandboxReady.gzip).toBeLessThanOrEqual(SANDBOX_READY.gzip);
    expect(sandboxReady.brotli).toBeLessThanOrEqual(SANDBOX_READY.brotli);
  }, 60_000);

  it("leaves just-bash's regular-expression engine (RE2) out of what comes before sandbox:ready, in a chunk of its own", () => {
    // The shell calls it only while a command runs (vite-plugins/just-bash-split.ts): 46 KB brotli
    // that a 1.6 Mbps link took 0.23 s to bring before the sandbox could be ready.
    const holdsRe2 = (path: string) => readFileSync(join(dir, path), 'utf8').includes('RE2JSSyntaxException');
    const before = firstVisitFiles(dir).sandboxReady.filter((path) => path.endsWith('.js'));
    expect(before.filter(holdsRe2)).toEqual([]);
    const engine = filesUnder(join(dir, 'assets'))
      .map((path) => relative(dir, path))
      .filter((path) => path.endsWith('.js') && holdsRe2(path));
    expect(engine.length).toBeGreaterThan(0);
    // The sandbox's script can load it: the chunk is named in it, by a dynamic import.
    const sandbox = before.find((path) => /^assets\/sandbox-[\w-]+\.js$/.test(path))!;
    const text = readFileSync(join(dir, sandbox), 'utf8');
    const imported = [...text.matchAll(/import\(["'`]\.\/([\w-]+\.js)["'`]\)/g)].map((match) => match[1]);
    expect(engine.some((path) => imported.includes(path.split('/').pop()!))).toBe(true);
  });

  it("an embedded run transfers its own script and no more bytes than its budget before its first paint, the app's none", () => {
    const app = firstVisitFiles(dir);
    const embed = embedFirstPaintFiles(dir);
    const appScript = app.firstPaint.find((path) => /^assets\/index-[\w-]+\.js$/.test(path));
    expect(appScript).toBeDefined();
    expect(embed).not.toContain(appScript);
    expect(embed.filter((path) => /^assets\/embed-[\w-]+\.js$/.test(path))).toHaveLength(1);
    // Nothing of the sandbox's nor the agents' reaches it: no worker of theirs is even named.
    const scripts = embed.filter((path) => path.endsWith('.js'));
    for (const path of scripts) {
      const text = readFileSync(join(dir, path), 'utf8');
      expect(text, path).not.toMatch(/sandbox-[\w-]+\.js|parent-[\w-]+\.js|subagent-[\w-]+\.js/);
    }
    const sizes = transferSizes(dir, embed);
    const appSizes = transferSizes(dir, app.firstPaint);
    console.log(
      `An embedded run's first paint: ${sizes.files} files, ${sizes.bytes} raw, ${sizes.gzip} gzip ` +
        `(budget ${EMBED_FIRST_PAINT.gzip}), ${sizes.brotli} brotli (budget ${EMBED_FIRST_PAINT.brotli}); ` +
        `the app's ${appSizes.brotli} brotli\n  files: ${embed.join(', ')}`,
    );
    expect(sizes.gzip).toBeLessThanOrEqual(EMBED_FIRST_PAINT.gzip);
    expect(sizes.brotli).toBeLessThanOrEqual(EMBED_FIRST_PAINT.brotli);
  });

  /** The build's scripts, by path under the build folder. */
  function scripts(): Array<{ path: string; text: string }> {
    return filesUnder(dir)
      .filter((path) => path.endsWith('.js'))
      .map((path) => ({ path: path.slice(dir.length + 1), text: readFileSync(path, 'utf8') }));
  }

  // The shipped app holds nothing for tests: no `window.__s04` and none of the getters
  // kept for the bench (they are in a test build only, `vite build --mode test`), and no chunk of
  // the Node-only Python host (python-inprocess.ts).
  it('holds the app and its workers, and no test hook', () => {
    const all = scripts();
    expect(all.some((s) => /^assets\/index-[\w-]+\.js$/.test(s.path))).toBe(true);
    // The agents' one worker script (the parent and every subagent: src/workers/agent/agent.ts).
    expect(all.some((s) => /^assets\/agent[-.][\w-]*\.js$/.test(s.path))).toBe(true);
    // (__s04EarlySandbox and __s04EarlyAgentScript are the page's first script's handoffs at boot,
    // not hooks for tests.)
    for (const hook of [
      /__s04(?!Early(Sandbox|AgentScript)\b)/,
      /spareWorker/,
      /liveWorkers/,
      /exposeForTests/,
    ]) {
      expect(
        all.filter((s) => hook.test(s.text)).map((s) => s.path),
        String(hook),
      ).toEqual([]);
    }
  });

  it('holds no Node-only chunk', () => {
    const all = scripts();
    expect(all.map((s) => s.path).filter((p) => /inprocess/i.test(p))).toEqual([]);
    expect(all.filter((s) => s.text.includes('InProcessPythonHost')).map((s) => s.path)).toEqual([]);
  });

  // A first run's code compiled as it loads (vite-plugins/compile-hints.ts): the page's script and
  // its static imports, and the agents' worker. Not the sandbox's: just-bash's every command
  // compiled at once would come before sandbox:ready.
  it("starts the page's script, its static imports and the agents' worker with V8's compile hint, and nothing else", () => {
    const hinted = scripts()
      .filter((s) => s.text.startsWith(COMPILE_HINT))
      .map((s) => s.path);
    const page = firstVisitFiles(dir).firstPaint.filter((path) => path.endsWith('.js'));
    expect(page.length).toBeGreaterThan(0);
    expect(hinted).toEqual(expect.arrayContaining(page));
    expect(hinted.filter((path) => /^assets\/agent[-.][\w-]*\.js$/.test(path))).toHaveLength(1);
    expect(hinted.filter((path) => /sandbox|pyodide|quickjs/i.test(path))).toEqual([]);
    expect(hinted.length).toBeLessThanOrEqual(page.length + 2);
  });
});

/** A built app of a few bytes in a temporary folder: `files` by path. */
function fakeBuild(files: Record<string, string>): string {
  const fake = mkdtempSync(join(tmpdir(), 's04-fake-build-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(fake, path, '..'), { recursive: true });
    writeFileSync(join(fake, path), content);
  }
  return fake;
}

const PAGE = (base: string) =>
  `<script>if(1){const w=new Worker("${base}assets/sandbox-a1.js",{type:'module',name:'sandbox'})}</script>` +
  `<script type="module" crossorigin src="${base}assets/index-b2.js"></script>` +
  `<link rel="modulepreload" crossorigin href="${base}assets/preloaded-c3.js">` +
  `<link rel="stylesheet" crossorigin href="${base}assets/index-d4.css">`;

describe('the files of a first visit', () => {
  it("follow the page's and the sandbox worker's static imports, not their dynamic ones", () => {
    const fake = fakeBuild({
      'index.html': PAGE('/repo/'),
      'assets/index-b2.js': 'import{a as e}from"./shared-e5.js";import"./side-f6.js";import("./later-g7.js")',
      'assets/preloaded-c3.js': '',
      'assets/index-d4.css': 'body{}',
      'assets/shared-e5.js': 'export const a=1',
      'assets/side-f6.js': '',
      'assets/later-g7.js': '',
      'assets/sandbox-a1.js': 'import{a}from"./shared-e5.js";import{b}from"./shell-h8.js";',
      'assets/shell-h8.js': 'export const b=2',
    });
    try {
      expect(firstVisitFiles(fake, '/repo/')).toEqual({
        firstPaint: [
          'index.html',
          'assets/index-b2.js',
          'assets/shared-e5.js',
          'assets/side-f6.js',
          'assets/preloaded-c3.js',
          'assets/index-d4.css',
        ],
        sandboxReady: [
          'index.html',
          'assets/index-b2.js',
          'assets/shared-e5.js',
          'assets/side-f6.js',
          'assets/preloaded-c3.js',
          'assets/index-d4.css',
          'assets/sandbox-a1.js',
          'assets/shell-h8.js',
        ],
      });
      const sizes = transferSizes(fake, ['assets/index-d4.css', 'assets/shared-e5.js']);
      expect(sizes).toMatchObject({ files: 2, bytes: 'body{}'.length + 'export const a=1'.length });
      expect(sizes.gzip).toBeGreaterThan(0);
      expect(sizes.brotli).toBeGreaterThan(0);
    } finally {
      rmSync(fake, { recursive: true });
    }
  });

  it('cannot come out empty: a page without a module script or a sandbox worker is an error', () => {
    const noScript = fakeBuild({ 'index.html': '<p>Hello</p>' });
    const noWorker = fakeBuild({
      'index.html': PAGE('/').replace(/<script>.*?<\/script>/, ''),
      'assets/index-b2.js': '',
      'assets/preloaded-c3.js': '',
    });
    try {
      expect(() => firstVisitFiles(noScript)).toThrow('has no module script');
      expect(() => firstVisitFiles(noWorker)).toThrow('starts no sandbox worker');
    } finally {
      rmSync(noScript, { recursive: true });
      rmSync(noWorker, { recursive: true });
    }
  });
});

describe('the files of a first visit, the page script added by the first script', () => {
  it('finds the module script that the first script adds once the sandbox’s is in (early-sandbox.ts)', () => {
    const fake = fakeBuild({
      'index.html':
        `<script>(function(){var g=function(){var s=document.createElement('script');s.src="/repo/assets/index-b2.js"};` +
        `const w=new Worker("/repo/assets/sandbox-a1.js",{type:'module',name:'sandbox'})})()</script>` +
        `<link rel="stylesheet" crossorigin href="/repo/assets/index-d4.css">`,
      'assets/index-b2.js': 'import"./side-f6.js"',
      'assets/side-f6.js': '',
      'assets/index-d4.css': 'body{}',
      'assets/sandbox-a1.js': '',
    });
    try {
      expect(firstVisitFiles(fake, '/repo/')).toEqual({
        firstPaint: ['index.html', 'assets/index-b2.js', 'assets/side-f6.js', 'assets/index-d4.css'],
        sandboxReady: [
          'index.html',
          'assets/index-b2.js',
          'assets/side-f6.js',
          'assets/index-d4.css',
          'assets/sandbox-a1.js',
        ],
      });
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });
});

describe("the files of an embedded run's first paint", () => {
  it("are the page's tags and the embed's own script with its static imports, not the app's script", () => {
    const fake = fakeBuild({
      'index.html':
        `<script>(function(){var g=function(){var s=document.createElement('script');s.src="/repo/assets/index-b2.js"};` +
        `var e=function(){var E={"script":"/repo/assets/embed-e1.js"};s.src=E.script};` +
        `const w=new Worker("/repo/assets/sandbox-a1.js",{type:'module',name:'sandbox'})})()</script>` +
        `<link rel="modulepreload" crossorigin href="/repo/assets/preloaded-c3.js">` +
        `<link rel="stylesheet" crossorigin href="/repo/assets/index-d4.css">`,
      'assets/index-b2.js': 'import"./shared-e5.js"',
      'assets/embed-e1.js': 'import"./shared-e5.js";import"./preloaded-c3.js";import("./later-g7.js")',
      'assets/shared-e5.js': '',
      'assets/preloaded-c3.js': '',
      'assets/later-g7.js': '',
      'assets/index-d4.css': 'body{}',
      'assets/sandbox-a1.js': '',
    });
    try {
      expect(embedFirstPaintFiles(fake, '/repo/')).toEqual([
        'index.html',
        'assets/preloaded-c3.js',
        'assets/index-d4.css',
        'assets/embed-e1.js',
        'assets/shared-e5.js',
      ]);
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });

  it("cannot come out as the app's: a page that loads no embed's script is an error", () => {
    const fake = fakeBuild({ 'index.html': PAGE('/') });
    try {
      expect(() => embedFirstPaintFiles(fake)).toThrow("loads no embed's script");
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });
});
