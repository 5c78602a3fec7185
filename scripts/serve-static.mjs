#!/usr/bin/env node
/**
 * A plain static host for a built `dist/`, as GitHub Pages is one: files and nothing else, no
 * Cross-Origin-Opener-Policy or Cross-Origin-Embedder-Policy headers (unless `--isolation`), no
 * relay. The end-to-end tests of the service worker (e2e/offline.spec.ts) serve builds with it;
 * by hand it shows what a deploy does where headers cannot be set.
 *
 * Usage: node scripts/serve-static.mjs [dir=dist] [--port 41734] [--base /] [--isolation]
 */
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import sirv from 'sirv';

/** The headers a host configured as public/_headers says sends (vite.config.ts sends the same). */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** What public/_headers and vercel.json send for `assets/`, whose names carry a hash of their content. */
export const ASSETS_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * Serves `dir` under `base` (`/s04/`: files at /s04/..., anything else 404) on 127.0.0.1:`port`
 * (0: any free port), with the `.br` copies beside the files when `brotli`, and `assets/` kept by
 * the browser as those hosts say when `cacheAssets` (else every reuse asks the server again, one
 * round trip). `serve(otherDir)` swaps the files served from then on, as a new deploy does;
 * `close()` stops the server and cuts its open connections, as going offline does.
 */
export async function serveStatic({
  dir,
  port = 0,
  base = '/',
  isolation = false,
  brotli = false,
  cacheAssets = false,
}) {
  const options = (root) =>
    sirv(resolve(root), {
      dev: true, // read from disk on every request: the folder may be swapped or changed
      etag: true,
      brotli, // `name.br` beside a file, sent to a browser that accepts it (see precompress in release-bench.mjs)
      setHeaders: (response, pathname) => {
        if (cacheAssets && pathname.startsWith('/assets/'))
          response.setHeader('Cache-Control', ASSETS_CACHE_CONTROL);
        if (isolation)
          for (const [name, value] of Object.entries(ISOLATION_HEADERS)) response.setHeader(name, value);
      },
    });
  let files = options(dir);
  const notFound = (response) => {
    response.statusCode = 404;
    response.end('Not found');
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://host');
    if (!url.pathname.startsWith(base)) return notFound(response);
    request.url = `/${url.pathname.slice(base.length)}${url.search}`;
    files(request, response, () => notFound(response));
  });
  await new Promise((done) => server.listen(port, '127.0.0.1', done));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}${base}`,
    serve(otherDir) {
      files = options(otherDir);
    },
    close() {
      server.closeAllConnections();
      return new Promise((done) => server.close(() => done(undefined)));
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(name);
    return at >= 0 ? args.splice(at, 2)[1] : fallback;
  };
  const isolation = args.includes('--isolation');
  const port = Number(option('--port', 41734));
  const base = option('--base', '/');
  const dir = args.find((arg) => !arg.startsWith('--')) ?? 'dist';
  const { url } = await serveStatic({ dir, port, base, isolation });
  console.log(`Serving ${dir} at ${url} ${isolation ? 'with' : 'without'} isolation headers`);
}
