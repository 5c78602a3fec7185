import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { rolldown } from 'rolldown';
import type { Plugin } from 'vite';

/**
 * `import PRELUDE from './node-prelude/index.js?prelude'`: that module, the modules of its lazy/
 * folder and the npm packages they import (path-browserify, events, buffer, util, assert...),
 * bundled for QuickJS, which runs source strings, not modules. The bundling happens when Vite or
 * Vitest loads the import: nothing generated is committed, and `npm ci` is all a clone needs.
 *
 * The result is CommonJS chunks, by file name, and `script`: a small loader that QuickJS
 * evaluates first. It runs index.js's chunk and returns its default export; a lazy/ module's
 * chunk is compiled only when the prelude first asks for it (`host.load(name)`), since QuickJS
 * parses all of every script it is given: parsing the packages' chunks takes about six times as
 * long as parsing the rest, which every `node` run needs. Chunks are minified with their names kept, so what users see of
 * the prelude's classes and functions (`Stats {`, `AssertionError`) keeps its name.
 */
const QUERY = '?prelude';

/**
 * node-inspect-extracted 3.3.3 (pinned) is Node's inspect for browsers, which cannot tell it an
 * error's V8 stack or a promise's state; in QuickJS the prelude can (inspect-quickjs.js). These
 * replacements in its one minified file hand it those; each must match exactly once, so a new
 * version of the package fails the build here instead of printing differently.
 */
const INSPECT_FILE = /node_modules\/node-inspect-extracted\/dist\/inspect\.js$/;
const INSPECT_PATCHES: [string, string][] = [
  // getStackString(ctx, error): reads error.stack.
  ['try{n=e.stack}catch{}', 'try{n=__stackOf(e)}catch{}'],
  // The binding's promise details: always pending in a browser. g and h are kPending, kRejected.
  ['kPending:g,kRejected:h,', 'kPending:g,kRejected:h,'],
  ['getPromiseDetails:()=>[g,void 0]', 'getPromiseDetails:(p)=>__promiseDetails(p,g,h)'],
];

export function patchInspect(code: string): string {
  for (const [from, to] of INSPECT_PATCHES) {
    const count = code.split(from).length - 1;
    if (count !== 1)
      throw new Error(`node-inspect-extracted: expected "${from}" once, found it ${count} times`);
    code = code.replace(from, to);
  }
  return code;
}

/** Runs index.js's chunk; `host.load(name)` runs lazy/<name>.js's, each chunk once. */
const LOADER = `(() => {
  const host = globalThis.__nodeHost;
  const chunks = Object.create(null);
  const load = (file) => {
    const name = file.replace(/^\\.\\//, '');
    if (chunks[name]) return chunks[name].exports;
    const module = (chunks[name] = { exports: {} });
    const [run, error] = host.compile(
      '(function (exports, require, module) {' + host.chunk(name) + '\\n})',
      'node:internal/prelude/' + name,
    );
    if (error) throw error;
    run(module.exports, load, module);
    return module.exports;
  };
  host.load = (name) => load(name + '.js');
  return load('index.js').default;
})()`;

export interface Prelude {
  /** What QuickJS evaluates first: its value is the entry points. */
  script: string;
  /** CommonJS chunks by file name. */
  chunks: Record<string, string>;
}

/** The prelude whose main module is `entry`, and the files it was made of. */
export async function bundlePrelude(entry: string): Promise<{ prelude: Prelude; files: string[] }> {
  const folder = dirname(entry);
  const lazyFolder = join(folder, 'lazy');
  const input: Record<string, string> = { index: entry };
  for (const file of readdirSync(lazyFolder)) {
    if (file.endsWith('.js')) input[basename(file, '.js')] = join(lazyFolder, file);
  }
  const bundle = await rolldown({
    input,
    platform: 'browser',
    logLevel: 'warn',
    transform: {
      inject: {
        // Packages written for browserify find Node's `process` as a free variable: this run's.
        process: [join(folder, 'process.js'), 'process'],
        // What node-inspect-extracted needs from QuickJS (see INSPECT_PATCHES).
        URL: [join(folder, 'inspect-quickjs.js'), 'URL'],
        __stackOf: [join(folder, 'inspect-quickjs.js'), 'stackOf'],
        __promiseDetails: [join(folder, 'inspect-quickjs.js'), 'promiseDetails'],
      },
    },
    plugins: [
      {
        name: 'prelude-util',
        // Every `util` a package imports (assert's messages) prints with Node's own inspect.
        resolveId(source) {
          if (source === 'util' || source === 'util/') return join(lazyFolder, 'util.js');
        },
        transform(code, id) {
          if (INSPECT_FILE.test(id)) return patchInspect(code);
        },
      },
    ],
  });
  try {
    const { output } = await bundle.generate({
      format: 'cjs',
      exports: 'named',
      entryFileNames: '[name].js',
      chunkFileNames: '[name]-[hash].js',
      minify: true,
      keepNames: true,
    });
    const chunks: Record<string, string> = {};
    for (const chunk of output) if (chunk.type === 'chunk') chunks[chunk.fileName] = chunk.code;
    return { prelude: { script: LOADER, chunks }, files: await bundle.watchFiles };
  } finally {
    await bundle.close();
  }
}

/** Serves `<module>?prelude` imports as a {@link Prelude}. */
export function nodePrelude(): Plugin {
  return {
    name: 's04:node-prelude',
    async load(id) {
      if (!id.endsWith(QUERY)) return;
      const { prelude, files } = await bundlePrelude(id.slice(0, -QUERY.length));
      for (const file of files) this.addWatchFile(file);
      return `export default ${JSON.stringify(prelude)};`;
    },
  };
}
