import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import sirv from 'sirv';
import type { Plugin, ResolvedConfig } from 'vite';

/** Files worth compressing, and the size below which compressing does not pay. */
const COMPRESSIBLE = /\.(?:js|mjs|css|wasm|json|svg)$/;
const MIN_BYTES = 1024;

/**
 * The built app's files under /assets/ (their names carry their content's hash), served as a
 * static host serves them, by `vite preview` too (the benchmark and the end-to-end tests use it):
 *
 * - compressed once at build time (`name.br` beside each file), not on every request: Vite's
 *   preview gzips on the fly, and on a machine of few cores that work competes with the page's
 *   start (`sandbox:ready` comes later);
 * - cacheable for good (`immutable`), so starting a subagent worker does not ask the server
 *   again. index.html, which names them, stays `no-cache`.
 */
export function staticAssets(headers: Record<string, string>): Plugin {
  let config: ResolvedConfig;
  return {
    name: 's04:static-assets',
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle: {
      sequential: true,
      handler() {
        const dir = resolve(config.root, config.build.outDir, config.build.assetsDir);
        for (const name of readdirSync(dir)) {
          const file = join(dir, name);
          if (!COMPRESSIBLE.test(name) || statSync(file).size < MIN_BYTES) continue;
          const compressed = brotliCompressSync(readFileSync(file), {
            params: { [constants.BROTLI_PARAM_QUALITY]: 9 },
          });
          writeFileSync(`${file}.br`, compressed);
        }
      },
    },
    configurePreviewServer(server) {
      const dir = resolve(config.root, config.build.outDir, config.build.assetsDir);
      // Before Vite's own static files and compression: a file not here falls through to them.
      server.middlewares.use(
        `/${config.build.assetsDir}`,
        sirv(dir, {
          brotli: true,
          immutable: true,
          maxAge: 31_536_000,
          setHeaders: (res) => {
            for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
          },
        }),
      );
    },
  };
}
