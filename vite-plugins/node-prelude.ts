import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { rolldown } from 'rolldown';
import type { Plugin } from 'vite';

/**
 * `import PRELUDE from './node-prelude/index.js?prelude'`: that module, the modules of its lazy/
 * folder and the npm packages they import (path-browserify, events, buffer, string_decoder),
 * bundled for QuickJS, which runs source strings, not modules. The bundling happens when Vite or
 * Vitest loads the import: nothing generated is committed, and `npm ci` is all a clone needs.
 *
 * The result is CommonJS chunks, by file name, and `script`: a small loader that QuickJS
 * evaluates first. It runs index.js's chunk and returns its default export; a lazy/ module's
 * chunk is compiled only when the prelude first asks for it (`host.load(name)`), since QuickJS
 * parses all of every script it is given: a run that uses no Buffer, assert or util parses none
 * of them. Chunks are minified with their names kept, so what users see of the prelude's
 * classes and functions (`Stats {`, `AssertionError`) keeps its name.
 */
const QUERY = '?prelude';

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
      },
    },
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
