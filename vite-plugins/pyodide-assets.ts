import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Serves Pyodide from the app's own origin, under `<base>pyodide/`: the offline sandbox's
 * `python3` loads it on first use (src/sandbox/runtimes/python-host.ts), and there is no CDN to
 * fall back on. The files come from node_modules/pyodide at dev and build time, so its many
 * megabytes are never committed: the dev server streams them, the build copies them into dist/pyodide/.
 */
export const PYODIDE_FILES = [
  'pyodide.mjs',
  'pyodide.asm.mjs',
  'pyodide.asm.wasm',
  'python_stdlib.zip',
  'pyodide-lock.json',
];

const CONTENT_TYPES: Record<string, string> = {
  mjs: 'text/javascript',
  wasm: 'application/wasm',
  zip: 'application/zip',
  json: 'application/json',
};

/** Where the pyodide package is installed. */
function pyodideDir(): string {
  return dirname(createRequire(import.meta.url).resolve('pyodide/package.json'));
}

/**
 * Pyodide's version and each served file's SHA-384 (Subresource Integrity form): the service
 * worker keeps the files once loaded, under a cache named by the version, and checks the bytes.
 */
export function pyodideIntegrity(): { version: string; integrity: Record<string, string> } {
  const dir = pyodideDir();
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  const integrity = Object.fromEntries(
    PYODIDE_FILES.map((name) => [
      name,
      `sha384-${createHash('sha384')
        .update(readFileSync(join(dir, name)))
        .digest('base64')}`,
    ]),
  );
  return { version, integrity };
}

export function pyodideAssets(headers: Record<string, string> = {}): Plugin {
  const dir = pyodideDir();
  let base = '/';
  return {
    name: 's04:pyodide-assets',
    configResolved(config) {
      base = config.base;
    },
    configureServer(server) {
      server.middlewares.use(`${base}pyodide`, (request, response, next) => {
        const name = (request.url ?? '').split('?')[0].replace(/^\//, '');
        if (!PYODIDE_FILES.includes(name)) return next();
        const file = join(dir, name);
        response.setHeader('Content-Type', CONTENT_TYPES[name.split('.').pop()!]);
        response.setHeader('Content-Length', String(statSync(file).size));
        response.setHeader('Cache-Control', 'no-cache');
        for (const [key, value] of Object.entries(headers)) response.setHeader(key, value);
        response.end(readFileSync(file));
      });
    },
    generateBundle() {
      if (this.environment && this.environment.name !== 'client') return;
      for (const name of PYODIDE_FILES) {
        this.emitFile({ type: 'asset', fileName: `pyodide/${name}`, source: readFileSync(join(dir, name)) });
      }
    },
  };
}
