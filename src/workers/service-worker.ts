/// <reference lib="webworker" />
/**
 * The playground's one service worker: it keeps the app for offline use and, where the host
 * cannot send headers (GitHub Pages), makes the page cross-origin isolated.
 *
 *   request ──► navigation to the app?  ──► index.html from the precache ─┐
 *          ├──► a file of this build?   ──► the precache (bytes checked) ─┤ + COOP/COEP headers
 *          ├──► <base>pyodide/…?        ──► cache first (bytes checked) ──┘   when missing
 *          └──► anything else (the relay, model APIs, StackBlitz): not touched, straight to the network
 *
 * - **Precache**: every file of the build (the page, the workers, the just-bash commands,
 *   QuickJS's wasm) is fetched at install, checked against the SHA-384 the build wrote into the
 *   manifest (`integrity`), and served from the cache from then on. A file whose cached bytes
 *   no longer match is dropped and fetched again (Workbox repairs the entry), never served.
 *   index.html has a revision instead (a host may rewrite HTML, and a hash would then refuse it).
 * - **Pyodide** (13 MB) is not fetched at install: the first `python3` loads it, and its files are
 *   kept then (cache first), checked against their hashes the same way. Its cache is named by its
 *   version; other versions' caches go when this worker activates.
 * - **Isolation**: without COOP/COEP the page has no SharedArrayBuffer and WebContainer will not
 *   boot. The worker adds both headers to what it serves (as coi-serviceworker does); the page
 *   reloads once after the first install to be served by it (src/page/service-worker.svelte.ts).
 * - **Updates** never mix two builds: a new build's worker installs its files beside the old
 *   ones and waits; the page offers "Update available" and only its Reload asks the waiting worker
 *   to take over (`skip-waiting`). The first install takes the page over at once (claim), so the
 *   first visit's lazily loaded files and Pyodide come from, and are kept by, this worker.
 */
import type { WorkboxPlugin } from 'workbox-core';
import { PrecacheController, PrecacheRoute, type PrecacheEntry } from 'workbox-precaching';
import { Route, Router } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { ISOLATION_HEADERS } from '../sandbox/isolation';
import { SKIP_WAITING } from './service-worker-protocol';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };
/** Pyodide's files and their SHA-384 (build/pyodide-assets.ts), and its version. */
declare const __S04_PYODIDE__: { version: string; integrity: Record<string, string> };

const scope = new URL(self.registration.scope);
const PYODIDE_PATH = `${scope.pathname}pyodide/`;
const PYODIDE_CACHE_PREFIX = 's04-pyodide-';
const PYODIDE_CACHE = `${PYODIDE_CACHE_PREFIX}${__S04_PYODIDE__.version}`;
/** At most this many files are fetched at once at install (Workbox alone fetches one at a time). */
const INSTALL_CONCURRENCY = 8;

/** The expected SHA-384 of a cached request's bytes, or undefined when it has none. */
type IntegrityOf = (request: Request) => string | undefined;

/**
 * Serves a cached response only if its bytes hash to what the build said; otherwise reports a
 * miss, so the strategy fetches it again (and, with an integrity to check, caches it again).
 * A response is checked once per life of this worker.
 */
function checkedBytes(integrityOf: IntegrityOf): WorkboxPlugin {
  const checked = new Set<string>();
  return {
    async cachedResponseWillBeUsed({ request, cachedResponse }) {
      const expected = integrityOf(request);
      if (!cachedResponse || !expected || checked.has(request.url)) return cachedResponse ?? null;
      if ((await sha384(cachedResponse.clone())) !== expected) {
        console.warn(`Dropped a damaged cache entry, fetching it again: ${request.url}`);
        return null;
      }
      checked.add(request.url);
      return cachedResponse;
    },
  };
}

async function sha384(response: Response): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', await response.arrayBuffer()));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `sha384-${btoa(binary)}`;
}

/** COOP and COEP on a response that lacks them (a host that cannot set headers). */
function isolated(response: Response): Response {
  if (response.type === 'opaque' || response.type === 'opaqueredirect' || response.status === 0)
    return response;
  const names = Object.keys(ISOLATION_HEADERS);
  if (names.every((name) => response.headers.has(name))) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Kept with COOP/COEP already on (only whole 200 responses are kept): served as they are, with no
 * copy per request, which also keeps the browser's compiled code of a cached script usable.
 */
const keptIsolated: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => (response.status === 200 ? isolated(response) : null),
};

const precache: PrecacheController = new PrecacheController({
  plugins: [
    keptIsolated,
    checkedBytes((request): string | undefined => precache.getIntegrityForCacheKey(request.url)),
  ],
});
precache.addToCacheList(self.__WB_MANIFEST);

/** The SHA-384 of one of Pyodide's files, or undefined for any other URL. */
function pyodideIntegrity(url: string): string | undefined {
  const { origin, pathname } = new URL(url);
  if (origin !== scope.origin || !pathname.startsWith(PYODIDE_PATH)) return undefined;
  return __S04_PYODIDE__.integrity[pathname.slice(PYODIDE_PATH.length)];
}

const router = new Router();
// Any navigation to the app (whatever its query: `?sample=typescript`) is the precached page.
router.registerRoute(
  new Route(
    ({ request, url }) =>
      request.mode === 'navigate' &&
      url.origin === scope.origin &&
      (url.pathname === scope.pathname || url.pathname === `${scope.pathname}index.html`),
    precache.createHandlerBoundToURL(new URL('index.html', scope).href),
  ),
);
router.registerRoute(new PrecacheRoute(precache));
router.registerRoute(
  new Route(
    ({ url }) => pyodideIntegrity(url.href) !== undefined,
    new CacheFirst({
      cacheName: PYODIDE_CACHE,
      plugins: [
        keptIsolated,
        checkedBytes((request) => pyodideIntegrity(request.url)),
        // Fetched with its hash: a wrong file (a host's "not found" page) is refused, not kept.
        {
          requestWillFetch: async ({ request }) =>
            request.mode === 'no-cors'
              ? request
              : new Request(request, { integrity: pyodideIntegrity(request.url) }),
        },
      ],
    }),
  ),
);

self.addEventListener('install', (event) => {
  event.waitUntil(installPrecache(event));
});

/** PrecacheController.install, with several files in flight at once. */
async function installPrecache(event: ExtendableEvent): Promise<void> {
  const entries = [...precache.getURLsToCacheKeys()];
  const next = async (): Promise<void> => {
    const entry = entries.shift();
    if (!entry) return;
    const [url, cacheKey] = entry;
    const request = new Request(url, {
      integrity: precache.getIntegrityForCacheKey(cacheKey),
      // A file whose name has no hash in it is looked up past the HTTP cache.
      cache: cacheKey === url ? 'default' : 'reload',
      credentials: 'same-origin',
    });
    await Promise.all(precache.strategy.handleAll({ request, event, params: { cacheKey } }));
    return next();
  };
  await Promise.all(Array.from({ length: INSTALL_CONCURRENCY }, next));
}

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      await precache.activate(event); // drops the files of builds before this one
      for (const name of await caches.keys()) {
        if (name.startsWith(PYODIDE_CACHE_PREFIX) && name !== PYODIDE_CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === SKIP_WAITING) void self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const responding = router.handleRequest({ event, request: event.request });
  if (responding) event.respondWith(responding.then(isolated));
});
