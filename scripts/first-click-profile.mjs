#!/usr/bin/env node
/**
 * Where a fresh page's first click spends the time its second click does not: a built app served as
 * the release bench serves it (brotli, isolation headers, loopback, fast network), prompt 1 clicked
 * as soon as its button is drawn and again once the first run has settled, with a Chromium trace of
 * the page and its workers (V8's sampling profiler on every thread). For each click it prints the
 * phases (click -> first model call -> subagent spawn -> first tool -> run:finished) and, per thread,
 * the CPU time spent between the click and `run:finished`, by kind (script, compile, GC, style and
 * layout, paint) and by the functions that took it (self time), the first click beside the second.
 *
 * Usage: node scripts/first-click-profile.mjs <built dir> [pages = 3] [top = 25]
 *        (build one with `npx vite build --minify false --outDir <dir>` for readable names)
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright';
import { chromiumLaunchOptions, clickPromptAtOnce } from './built-app.mjs';
import { precompress } from './release-bench.mjs';
import { serveStatic } from './serve-static.mjs';

const PROMPT = 'Use a subtask to find what testing framework this project uses';
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'disabled-by-default-v8.cpu_profiler',
  'disabled-by-default-v8.compile',
  'blink.user_timing',
  'toplevel',
].join(',');

/** Trace event names grouped by what the thread did (the DevTools performance panel's kinds). */
const KINDS = {
  compile: ['v8.compile', 'V8.CompileCode', 'v8.compileModule', 'CacheScript', 'v8.produceModuleCache'],
  parse: ['v8.parseOnBackground', 'V8.ParseLazy', 'V8.ParseFunction'],
  gc: ['MinorGC', 'MajorGC', 'V8.GC_SCAVENGER', 'BlinkGC.AtomicPhase', 'V8.GCFinalizeMC'],
  style: ['UpdateLayoutTree', 'RecalculateStyles', 'ParseAuthorStyleSheet'],
  layout: ['Layout', 'UpdateLayerTree', 'PrePaint', 'Layerize'],
  paint: ['Paint', 'PaintImage', 'Commit', 'CompositeLayers'],
};

/** One fresh page: its trace and the page's marks (trace clock, µs) around both clicks. */
async function tracedPage(browser, url) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  // Each click's press (both clicks the mouse's, as the release bench clicks).
  await page.addInitScript(() =>
    addEventListener('pointerdown', () => performance.mark('profile:click'), { capture: true }),
  );
  await browser.startTracing(page, { categories: CATEGORIES.split(',') });
  await page.goto(`${url}?speed=instant`, { waitUntil: 'commit' });
  await clickPromptAtOnce(page, PROMPT);
  await page.waitForFunction(() => performance.getEntriesByName('run:finished').length > 0, null, {
    timeout: 60_000,
  });
  await page.waitForTimeout(500);
  await page.getByRole('button', { name: PROMPT, exact: true }).click();
  await page.waitForFunction(() => performance.getEntriesByName('run:finished').length > 1, null, {
    timeout: 60_000,
  });
  const entries = await page.evaluate(() =>
    performance
      .getEntries()
      .filter((e) => e.entryType === 'mark' || e.entryType === 'measure')
      .map((e) => ({ name: e.name, start: e.startTime, duration: e.duration })),
  );
  await page.waitForTimeout(100);
  const buffer = await browser.stopTracing();
  await context.close();
  return { trace: JSON.parse(buffer.toString()), entries };
}

/** The threads of the trace: `pid:tid` -> a name (the page's main thread, each worker by its script). */
function threadNames(events) {
  const names = new Map();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  // A worker's script, from its first script evaluation or the worker's start.
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    const name = names.get(key) ?? '';
    if (!/Worker/.test(name)) continue;
    const url = e.args?.data?.url ?? e.args?.data?.frame?.url;
    if (url && !names.get(`${key}:url`)) names.set(`${key}:url`, url.replace(/^.*\/assets\//, ''));
  }
  return names;
}

/** Samples of every thread's CPU profile: [{ thread, ts, frame }] (trace clock, µs). */
function samples(events) {
  const profiles = new Map(); // id -> { thread, start, nodes: Map(id -> {callFrame, parent}) }
  for (const e of events) {
    // Profile ids are per process; the chunks come from the profiler's own thread.
    if (e.name === 'Profile')
      profiles.set(`${e.pid}:${e.id}`, {
        thread: `${e.pid}:${e.tid}`,
        start: e.args.data.startTime,
        nodes: new Map(),
        last: e.args.data.startTime,
        out: [],
      });
  }
  const result = [];
  for (const e of events) {
    if (e.name !== 'ProfileChunk') continue;
    const profile = profiles.get(`${e.pid}:${e.id}`);
    if (!profile) continue;
    const data = e.args.data;
    for (const node of data.cpuProfile?.nodes ?? []) profile.nodes.set(node.id, node);
    const deltas = data.timeDeltas ?? [];
    (data.cpuProfile?.samples ?? []).forEach((id, i) => {
      profile.last += deltas[i] ?? 0;
      result.push({ thread: profile.thread, ts: profile.last, node: id, profile });
    });
  }
  // The outermost frame of a script of ours (or the outermost one): what the task was for.
  const entryOf = (profile, id) => {
    let entry;
    for (let node = profile.nodes.get(id); node; node = profile.nodes.get(node.parent)) {
      const f = node.callFrame;
      if (f?.url && !f.url.startsWith('chrome')) entry = f;
      else if (!entry && f && !f.functionName.startsWith('(')) entry = f;
    }
    return entry;
  };
  return result.map((s) => {
    const frame = s.profile.nodes.get(s.node)?.callFrame ?? { functionName: '?', url: '' };
    return { thread: s.thread, ts: s.ts, frame, entry: entryOf(s.profile, s.node) };
  });
}

/** Sums of the complete events of each thread inside [from, to], by kind (µs, top level only per kind). */
function kindsIn(events, from, to) {
  const byThread = new Map();
  const ofName = new Map(Object.entries(KINDS).flatMap(([kind, names]) => names.map((n) => [n, kind])));
  for (const e of events) {
    if (e.ph !== 'X' || e.ts < from || e.ts > to) continue;
    const kind =
      ofName.get(e.name) ??
      ([
        'FunctionCall',
        'EvaluateScript',
        'v8.evaluateModule',
        'RunMicrotasks',
        'TimerFire',
        'EventDispatch',
        'FireAnimationFrame',
        'v8.run',
      ].includes(e.name)
        ? 'script'
        : e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask'
          ? 'task'
          : undefined);
    if (!kind) continue;
    const key = `${e.pid}:${e.tid}`;
    const kinds = byThread.get(key) ?? {};
    kinds[kind] ??= [];
    kinds[kind].push([e.ts, e.ts + (e.dur ?? 0)]);
    byThread.set(key, kinds);
  }
  // Nested events of one kind count once: the union of their intervals.
  const sums = new Map();
  for (const [thread, kinds] of byThread) {
    const out = {};
    for (const [kind, spans] of Object.entries(kinds)) {
      spans.sort((a, b) => a[0] - b[0]);
      let total = 0;
      let end = -Infinity;
      for (const [s, e] of spans) {
        if (e <= end) continue;
        total += e - Math.max(s, end);
        end = e;
      }
      out[kind] = total;
    }
    sums.set(thread, out);
  }
  return sums;
}

const ms = (us) => (us / 1000).toFixed(1);

/** The tasks of 5 ms and more of the page's main thread (or of every thread of it: `all`) in [from, to]. */
function tasksIn(events, samplesList, names, pagePid, from, to, everyThread) {
  const mainTid = events.find(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pagePid && e.args.name === 'CrRendererMain',
  )?.tid;
  const label = (tid) => {
    const key = `${pagePid}:${tid}`;
    return tid === mainTid ? 'page' : (names.get(`${key}:url`) ?? names.get(key) ?? String(tid)).slice(0, 18);
  };
  return events
    .filter(
      (e) =>
        e.ph === 'X' &&
        e.name === 'RunTask' &&
        e.pid === pagePid &&
        (everyThread
          ? /Worker|CrRendererMain/.test(names.get(`${e.pid}:${e.tid}`) ?? '')
          : e.tid === mainTid) &&
        e.ts + e.dur >= from &&
        e.ts <= to &&
        e.dur >= 5000,
    )
    .sort((a, b) => a.ts - b.ts)
    .map((e) => {
      const byEntry = new Map();
      const key = `${e.pid}:${e.tid}`;
      for (const s of samplesList) {
        if (s.thread !== key || s.ts < e.ts || s.ts > e.ts + e.dur) continue;
        const f = s.entry;
        const name = f
          ? `${f.functionName || '(anonymous)'} ${(f.url ?? '').replace(/^.*\/assets\//, '')}:${f.lineNumber}`
          : s.frame.functionName;
        byEntry.set(name, (byEntry.get(name) ?? 0) + 1);
      }
      const what = [...byEntry]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([n, k]) => `${n} (${k})`)
        .join('; ');
      return `${everyThread ? label(e.tid).padEnd(19) : ''}+${ms(e.ts - from).padStart(6)} ${ms(e.dur).padStart(6)} ms  ${what}`;
    });
}

function main(pagesData, top) {
  const perClick = [[], []]; // per click: list of { phases, threads: Map(name -> {kinds, functions}) }
  for (const { trace, entries } of pagesData) {
    const events = trace.traceEvents ?? trace;
    const names = threadNames(events);
    const marks = events.filter((e) => e.cat?.includes('blink.user_timing'));
    const traceClick = marks
      .filter((e) => e.name === 'profile:click')
      .map((e) => e.ts)
      .sort((a, b) => a - b);
    const traceFinished = marks
      .filter((e) => e.name === 'run:finished')
      .map((e) => e.ts)
      .sort((a, b) => a - b);
    // The page's renderer process only: its main thread and its workers (not the browser's, nor other pages').
    const pagePid = marks.find((e) => e.name === 'profile:click')?.pid;
    const all = samples(events).filter((s) => s.thread.startsWith(`${pagePid}:`));
    const pageClicks = entries.filter((e) => e.name === 'profile:click').map((e) => e.start);
    const pageFinished = entries.filter((e) => e.name === 'run:finished').map((e) => e.start);
    for (const c of [0, 1]) {
      const from = traceClick[c];
      const to = traceFinished[c];
      if (from === undefined || to === undefined) continue;
      const click = pageClicks[c];
      const finished = pageFinished[c];
      const firstAfter = (name) =>
        entries.find((e) => e.name.startsWith(name) && e.start >= click && e.start <= finished);
      const model = firstAfter('model:call');
      const spawn = firstAfter('subagent:spawn');
      const tool = firstAfter('tool:');
      const phases = {
        total: finished - click,
        'sandbox:ready': (entries.find((e) => e.name === 'sandbox:ready')?.start ?? NaN) - click,
        'first model:call start': model ? model.start - click : NaN,
        'first model:call end': model ? model.start + model.duration - click : NaN,
        'subagent:spawn start': spawn ? spawn.start - click : NaN,
        'subagent:spawn end': spawn ? spawn.start + spawn.duration - click : NaN,
        'first tool end': tool ? tool.start + tool.duration - click : NaN,
        'model:calls (sum)': entries
          .filter((e) => e.name === 'model:call' && e.start >= click && e.start <= finished)
          .reduce((s, e) => s + e.duration, 0),
        'tools (sum)': entries
          .filter((e) => e.name.startsWith('tool:') && e.start >= click && e.start <= finished)
          .reduce((s, e) => s + e.duration, 0),
      };
      const kinds = kindsIn(
        events.filter((e) => e.pid === pagePid),
        from,
        to,
      );
      const threads = new Map();
      const label = (key) => {
        const name = names.get(key) ?? key;
        const url = names.get(`${key}:url`);
        return url ? `${name} ${url}` : name;
      };
      // Threads of one name (the parent's and the subagents' workers, each renderer's main thread) add up.
      for (const [key, k] of kinds) {
        const t = threads.get(label(key)) ?? {
          kinds: {},
          functions: new Map(),
          samples: 0,
          chunks: new Map(),
        };
        for (const [kind, v] of Object.entries(k)) t.kinds[kind] = (t.kinds[kind] ?? 0) + v;
        threads.set(label(key), t);
      }
      let previous = new Map();
      for (const s of all) {
        if (s.ts < from || s.ts > to) continue;
        const name = label(s.thread);
        const t = threads.get(name) ?? { kinds: {}, functions: new Map(), samples: 0, chunks: new Map() };
        threads.set(name, t);
        const prev = previous.get(s.thread) ?? s.ts;
        const dt = Math.min(s.ts - prev, 2000);
        previous.set(s.thread, s.ts);
        const f = s.frame;
        if (f.functionName === '(idle)') continue;
        const fname = `${f.functionName || '(anonymous)'} ${(f.url ?? '').replace(/^.*\/assets\//, '')}:${f.lineNumber ?? ''}`;
        t.functions.set(fname, (t.functions.get(fname) ?? 0) + dt);
        const chunk = (f.url ?? '').replace(/^.*\/assets\//, '') || f.functionName;
        t.chunks.set(chunk, (t.chunks.get(chunk) ?? 0) + dt);
        t.samples += dt;
      }
      // The page thread's tasks of 5 ms and more, in order: when each began after the click, what it ran.
      const tasks = tasksIn(events, all, names, pagePid, from, to, false);
      // With PRELUDE=1, before the first click too: every thread of the page, from the navigation on.
      if (c === 0 && process.env.PRELUDE) {
        const navigation =
          marks.find((e) => e.name === 'navigationStart' && e.pid === pagePid)?.ts ?? from - 3e6;
        tasks.unshift(
          ...tasksIn(events, all, names, pagePid, navigation, from, true).map((l) => `before: ${l}`),
        );
      }
      perClick[c].push({ phases, threads, tasks });
    }
  }
  const avg = (list) => list.reduce((a, b) => a + b, 0) / Math.max(1, list.length);
  for (const c of [0, 1]) {
    const clicks = perClick[c];
    console.log(`\n=== click ${c + 1} (${clicks.length} pages, means) ===`);
    for (const phase of Object.keys(clicks[0]?.phases ?? {}))
      console.log(
        `  ${phase.padEnd(26)} ${avg(clicks.map((x) => x.phases[phase])).toFixed(1)} ms  [${clicks.map((x) => x.phases[phase].toFixed(0)).join(', ')}]`,
      );
    clicks.forEach((x, i) => {
      console.log(
        `  page ${i + 1}: the page thread's tasks of 5 ms and more (start after the click, length, entry functions by samples)`,
      );
      for (const line of x.tasks) console.log(`    ${line}`);
    });
    const threadKeys = new Set(clicks.flatMap((x) => [...x.threads.keys()]));
    for (const thread of threadKeys) {
      const kinds = {};
      const functions = new Map();
      const chunks = new Map();
      let sampled = 0;
      for (const x of clicks) {
        const t = x.threads.get(thread);
        if (!t) continue;
        for (const [k, v] of Object.entries(t.kinds)) kinds[k] = (kinds[k] ?? 0) + v / clicks.length;
        for (const [f, v] of t.functions) functions.set(f, (functions.get(f) ?? 0) + v / clicks.length);
        for (const [f, v] of t.chunks) chunks.set(f, (chunks.get(f) ?? 0) + v / clicks.length);
        sampled += t.samples / clicks.length;
      }
      if (sampled < 2000 && Object.values(kinds).every((v) => v < 2000)) continue;
      console.log(
        `  -- ${thread}: sampled CPU ${ms(sampled)} ms; ${Object.entries(kinds)
          .map(([k, v]) => `${k} ${ms(v)}`)
          .join(', ')}`,
      );
      console.log(
        `     by script: ${[...chunks]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([f, v]) => `${f} ${ms(v)}`)
          .join(', ')}`,
      );
      for (const [f, v] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
        console.log(`     ${ms(v).padStart(7)} ms  ${f}`);
    }
  }
}

const [dir, pages = '3', top = '25'] = process.argv.slice(2);
if (!dir || !existsSync(dir)) {
  console.error('usage: node scripts/first-click-profile.mjs <built dir> [pages] [top]');
  process.exit(2);
}
precompress(dir);
const server = await serveStatic({ dir, isolation: true, brotli: true, cacheAssets: true });
const browser = await chromium.launch(await chromiumLaunchOptions(['--no-sandbox', '--disable-gpu']));
const data = [];
try {
  for (let i = 0; i < Number(pages); i++) {
    data.push(await tracedPage(browser, server.url));
    // The trace as DevTools opens it (its Performance panel), when asked for.
    if (process.env.TRACE_DIR)
      writeFileSync(
        join(process.env.TRACE_DIR, `first-click-${i + 1}.json`),
        JSON.stringify(data.at(-1).trace),
      );
  }
} finally {
  await browser.close();
  await server.close();
}
main(data, Number(top));
