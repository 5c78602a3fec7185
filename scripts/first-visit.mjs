/**
 * The built app's files a first visit transfers, phase by phase, found from the built page itself
 * (no browser): shared by the bench (the bytes before the first paint) and the byte budgets of
 * `npm test` (test/production-build.test.ts).
 *
 * - before the first paint: index.html (its inline script included), its module script (a tag, or
 *   added by the inline script once the sandbox's script is in) and every
 *   script that one imports statically, its modulepreloads, and its stylesheets;
 * - before `sandbox:ready`: those, plus the offline sandbox's worker that the page's inline script
 *   starts (vite-plugins/early-sandbox.ts) and every script it imports statically. The worker mounts the
 *   sample from its bundle: nothing else is fetched before it is ready (checked in a browser: the
 *   commands' chunks, the agents' workers, the chart library and the Markdown renderer all come
 *   after), so a new fetch on that path shows up here only as a static import.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** A script's static imports of its sibling chunks, as the minified build writes them. */
const STATIC_IMPORT = /import\s*(?:[\w{}\s,*$]+from\s*)?"(\.\/[^"]+\.js)"/g;

/**
 * The first visit's byte budgets, in bytes, each file compressed on its own
 * (`transferSizes`): sizes, not times, so they hold on any machine. `npm test` checks them
 * (test/production-build.test.ts) and the bench prints the first paint's beside its figures. Each
 * is the size measured when it was set plus 3%. A change that goes over one adds weight to the
 * first visit: move that weight after `sandbox:ready` (a dynamic import, idle time), or, if it
 * belongs on the first screen, raise the budget to the size the test prints plus 3% and say why
 * in the commit. Lower them when a change makes the first visit lighter (docs/budgets.md).
 */
export const BYTE_BUDGETS = {
  /**
   * index.html, the page's first script and its static imports, its stylesheet; and how many files
   * those are (on a 150 ms link each wave of six requests is another round trip before the paint).
   */
  firstPaint: { gzip: 152_600, brotli: 140_600, files: 10 },
  /** The first paint's, plus the offline sandbox's worker and its static imports. */
  sandboxReady: { gzip: 306_500, brotli: 278_100 },
  /**
   * An embedded run's first paint (`embed=1`): index.html, what its tags fetch whatever the
   * address (the page's stylesheet), and the embed's own script, which holds none of the sandbox,
   * the agents and the settings (src/embed.ts, vite-plugins/embed-entry.ts): well under the app's
   * first paint, because its script is its own.
   */
  embedFirstPaint: { gzip: 118_600, brotli: 111_000 },
};

/** The bodies of the page's inline scripts. */
export function inlineScripts(html) {
  return [...html.matchAll(/<script>([^]*?)<\/script>/g)].map(([, code]) => code);
}

/** `entries` (paths inside `dir`) and every script they import statically, each once, in order. */
export function staticClosure(dir, entries) {
  const seen = new Set();
  const add = (path) => {
    if (seen.has(path)) return;
    seen.add(path);
    const code = readFileSync(join(dir, path), 'latin1');
    for (const [, imported] of code.matchAll(STATIC_IMPORT)) add(join(dirname(path), imported));
  };
  entries.forEach(add);
  return [...seen];
}

/** An attribute's URLs in tags matching `tag`, as paths inside the build (without `base`). */
function urls(html, tag, attribute, base) {
  const paths = [];
  for (const [element] of html.matchAll(tag)) {
    const url = element.match(new RegExp(`\\s${attribute}="([^"]+)"`))?.[1];
    if (url?.startsWith(base)) paths.push(url.slice(base.length));
  }
  return paths;
}

/**
 * The files of the first visit to the build in `dir` served under `base`, as paths inside `dir`:
 * `firstPaint` and `sandboxReady` (which includes `firstPaint`). Throws when the page has no module
 * script or starts no sandbox worker, so that a changed page cannot make a phase come out empty.
 */
export function firstVisitFiles(dir, base = '/') {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const entries = [
    ...urls(html, /<script type="module"[^>]*>/g, 'src', base),
    // Or added by the page's first script once the sandbox's script is in (vite-plugins/early-sandbox.ts).
    ...inlineScripts(html)
      .map((code) => code.match(/\.src=("[^"]+")/)?.[1])
      .filter((url) => url !== undefined && JSON.parse(url).startsWith(base))
      .map((url) => JSON.parse(url).slice(base.length)),
    ...urls(html, /<link rel="modulepreload"[^>]*>/g, 'href', base),
  ];
  if (entries.length === 0) throw new Error(`${dir}/index.html has no module script`);
  const styles = urls(html, /<link rel="stylesheet"[^>]*>/g, 'href', base);
  const firstPaint = ['index.html', ...staticClosure(dir, entries), ...styles];
  const worker = inlineScripts(html)
    .map((code) => code.match(/new Worker\("([^"]+)"/)?.[1])
    .find((url) => url?.startsWith(base));
  if (!worker)
    throw new Error(`${dir}/index.html starts no sandbox worker (see vite-plugins/early-sandbox.ts)`);
  const sandbox = staticClosure(dir, [worker.slice(base.length)]).filter(
    (path) => !firstPaint.includes(path),
  );
  return { firstPaint, sandboxReady: [...firstPaint, ...sandbox] };
}

/**
 * The files an embedded run (`embed=1`) transfers before its first paint, as paths inside `dir`:
 * index.html, what its tags fetch whatever the address (modulepreloads, stylesheets), and the
 * embed's own script with its static imports, which the page's first script loads instead of the
 * app's (`var E={...}`: vite-plugins/early-sandbox.ts, embed-entry.ts). Throws when the page loads
 * no embed's script.
 */
export function embedFirstPaintFiles(dir, base = '/') {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const embed = inlineScripts(html)
    .map((code) => code.match(/var E=(\{[^}]*\})/)?.[1])
    .find((json) => json !== undefined);
  if (!embed)
    throw new Error(`${dir}/index.html loads no embed's script (see vite-plugins/early-sandbox.ts)`);
  const { script } = JSON.parse(embed);
  if (!script.startsWith(base)) throw new Error(`the embed's script ${script} is not under ${base}`);
  const preloads = urls(html, /<link rel="modulepreload"[^>]*>/g, 'href', base);
  const tagged = [
    ...staticClosure(dir, preloads),
    ...urls(html, /<link rel="stylesheet"[^>]*>/g, 'href', base),
  ];
  const own = staticClosure(dir, [script.slice(base.length)]).filter((path) => !tagged.includes(path));
  return ['index.html', ...tagged, ...own];
}

/**
 * The bytes of `paths` inside `dir`, each file compressed on its own as a static host sends it:
 * raw, gzip (level 9) and brotli (quality 9, as the build's own `.br` copies: vite-plugins/static-assets.ts;
 * quality 11 saves 7-8% more and takes ten times as long).
 */
export function transferSizes(dir, paths) {
  const sizes = { files: paths.length, bytes: 0, gzip: 0, brotli: 0 };
  for (const path of paths) {
    const content = readFileSync(join(dir, path));
    sizes.bytes += content.length;
    sizes.gzip += gzipSync(content, { level: 9 }).length;
    sizes.brotli += brotliCompressSync(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
    }).length;
  }
  return sizes;
}
