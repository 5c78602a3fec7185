/// <reference lib="webworker" />
/**
 * The playground's one service worker: it keeps the app for offline use and, where the host
 * cannot send headers (GitHub Pages), makes the page cross-origin isolated.
 *
 *   request ──► navigation to the app?  ──► index.html from the precache ─┐
 *          ├──► a file of this build?   ──► the precache (hash-checked) ──┤ + COOP/COEP headers
 *          ├──► <base>pyodide/…?        ──► cache first (hash-checked) ───┘   when missing
 *          └──► anything else (the relay, model APIs, StackBlitz): not touched, straight to the network
 *
 * - **Precache**: every file of the build (the page, the workers, the just-bash commands,
 *   QuickJS's wasm) is fetched at install with the SHA-384 the build wrote into the manifest
 *   (`integrity`: the browser refuses other bytes, and the install fails), and served from the
 *   cache from then on. A kept file that was not checked against this hash is not served: Workbox
 *   fetches it again, checked, and keeps it anew (`checkedKeeping`). index.html has a revision
 *   instead (a host may rewrite HTML, and a hash would then refuse it).
 * - **Pyodide** (the biggest download by far) is not fetched at install: the first `python3` loads it, and its files are
 *   kept then (cache first), checked against their hashes the same way. Its cache is named by its
 *   version; other versions' caches go when this worker activates.
 * - **Isolation**: without COOP/COEP the page has no SharedArrayBuffer and WebContainer will not
 *   boot. The worker adds both headers to what it serves (as coi-serviceworker does); the page
 *   reloads once after the first install to be served by it (src/page/service-worker.svelte.ts).
 * - **Updates** never mix two builds: a new build's worker installs its files beside the old
 *   ones and waits; the page offers "Update available" and only its Reload asks the waiting worker
 *   to take over (`skip-waiting`). The first install takes over only a page of its own build, when
 *   that page asks (CLAIM, naming its entry script), so the first visit's lazily loaded files and
 *   Pyodide come from, and are kept by, this worker. A page of another build (a deploy landed
 *   between the page's load and this worker's fetch) is left to the network, and offers this
 *   build as its update: its files are not this worker's to serve.
 */
import type { WorkboxPlugin } from 'workbox-core';
import { PrecacheController, PrecacheRoute, type PrecacheEntry } from 'workbox-precaching';
import { Route, Router } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { isEmbedAddress, NO_FRAMING_HEADERS } from '../framed';
import { ISOLATION_HEADERS } from '../sandbox/isolation';
import { CLAIM, RUNS, SKIP_WAITING, type ClaimAnswer } from './protocol';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };
/** Pyodide's files and their SHA-384 (vite-plugins/pyodide-assets.ts), and its version. */
declare const __S04_PYODIDE__: { version: string; integrity: Record<string, string> };

const scope = new URL(self.registration.scope);
const PYODIDE_PATH = `${scope.pathname}pyodide/`;
const PYODIDE_CACHE_PREFIX = 's04-pyodide-';
const PYODIDE_CACHE = `${PYODIDE_CACHE_PREFIX}${__S04_PYODIDE__.version}`;
/** At most this many files are fetched at once at install (Workbox alone fetches one at a time). */
const INSTALL_CONCURRENCY = 8;
/** The longest the install waits at once for the pages' runs (a page may never say it ended). */
const INSTALL_WAITS_AT_MOST_MS = 30_000;
/** How often the waiting install looks whether a busy page was closed. */
const INSTALL_WAIT_POLL_MS = 200;

/** Where a kept response says which SHA-384 its bytes were checked against when fetched. */
const CHECKED_HEADER = 'X-S04-Integrity';

/** The SHA-384 the build gave a URL's bytes, or undefined when it has none. */
type IntegrityOf = (url: string) => string | undefined;

/** COOP and COEP on a response that lacks them (a host that cannot set headers). */
function isolated(response: Response): Response {
  if (response.type === 'opaque' || response.type === 'opaqueredirect' || response.status === 0)
    return response;
  if (Object.keys(ISOLATION_HEADERS).every((name) => response.headers.has(name))) return response;
  return withHeaders(response, ISOLATION_HEADERS);
}

function withHeaders(response: Response, added: Record<string, string>): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(added)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * How a response is kept, and whether a kept one may be served.
 *
 * Kept: only a whole 200 response, with COOP/COEP already on (served as it is, no copy per
 * request, so the browser's compiled code of a cached script stays usable), and marked with the
 * hash it was fetched against: every fetch that fills these caches carries the build's
 * `integrity`, so the browser has refused bytes that differ (a host's "not found" page, a cut
 * download) before they get here.
 *
 * Served: only if it bears the mark of this build's hash for it. Anything else under that key
 * (another writer's response, a lost mark) counts as not kept, and the strategy fetches it again
 * with its hash and keeps it anew. Reading the mark costs nothing; hashing the bytes again on
 * every start of the worker would slow a second visit's start. Damage to
 * the stored bytes themselves is the browser's to catch (its disk cache checksums each entry).
 */
function checkedKeeping(integrityOf: IntegrityOf): WorkboxPlugin {
  return {
    cacheWillUpdate: async ({ request, response }) => {
      if (response.status !== 200) return null;
      const integrity = integrityOf(request.url);
      return withHeaders(isolated(response), integrity ? { [CHECKED_HEADER]: integrity } : {});
    },
    cachedResponseWillBeUsed: async ({ request, cachedResponse }) => {
      const expected = integrityOf(request.url);
      if (!cachedResponse || !expected || cachedResponse.headers.get(CHECKED_HEADER) === expected)
        return cachedResponse ?? null;
      console.warn(`Not serving a cached file that was not checked against its hash: ${request.url}`);
      return null;
    },
  };
}

/**
 * index.html is kept only if its entry script (its first module script) is a file of this build.
 * It has no hash to refuse other bytes by: a deploy that lands while this worker installs would
 * otherwise leave it with the next build's page, kept as its own ("Saved for offline use") and
 * served offline without its files. Refused, the install fails and is tried again on the next
 * visit. A script a host adds to the page (analytics) is not the first module script.
 */
const ownPage: WorkboxPlugin = {
  cacheWillUpdate: async ({ request, response }) => {
    if (new URL(request.url).pathname !== `${scope.pathname}index.html`) return response;
    // A module script's tag, or the first script adding it once the sandbox's is in (early-sandbox.ts).
    const found = /<script\b(?=[^>]*\btype="module")[^>]*\bsrc="([^"]+)"|\.src="([^"]+)"/.exec(
      await response.clone().text(),
    );
    const entry = found?.[1] ?? found?.[2];
    if (entry && precache.getCacheKeyForURL(new URL(entry, request.url).href) !== undefined) return response;
    console.warn(
      `Not keeping a page of another build: ${entry ?? 'no entry script'} is not a file of this one`,
    );
    return null;
  },
};

const precache: PrecacheController = new PrecacheController({
  // The plugin sees a file's URL when fetching it and its cache key (URL + revision) when reading.
  plugins: [
    checkedKeeping((url): string | undefined =>
      precache.getIntegrityForCacheKey(precache.getCacheKeyForURL(url) ?? url),
    ),
    ownPage,
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
        checkedKeeping(pyodideIntegrity),
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

/** The pages (client ids) with a run under way, as they said (RUNS). */
const busyPages = new Set<string>();

/** The wait under way, shared by the install's lanes: one poll of the pages, not one per lane. */
let waiting: Promise<void> | undefined;

/** Resolves once no page has a run under way (a closed page has none), or after the longest wait. */
function noRunUnderWay(): Promise<void> {
  if (busyPages.size === 0) return Promise.resolve();
  return (waiting ??= waitForPages().finally(() => (waiting = undefined)));
}

async function waitForPages(): Promise<void> {
  const until = Date.now() + INSTALL_WAITS_AT_MOST_MS;
  while (busyPages.size > 0 && Date.now() < until) {
    // Not clients.get: on a first install the pages are not controlled yet, and it misses them.
    const open = new Set((await self.clients.matchAll({ includeUncontrolled: true })).map((c) => c.id));
    for (const id of busyPages) if (!open.has(id)) busyPages.delete(id);
    if (busyPages.size > 0) await new Promise((resolve) => setTimeout(resolve, INSTALL_WAIT_POLL_MS));
  }
}

/** PrecacheController.install, with several files in flight at once, none started during a run. */
async function installPrecache(event: ExtendableEvent): Promise<void> {
  const entries = [...precache.getURLsToCacheKeys()];
  const next = async (): Promise<void> => {
    await noRunUnderWay();
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
      // No clients.claim() here: a page is taken over when it asks and is of this build (CLAIM).
    })(),
  );
});

self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown; busy?: unknown; script?: unknown } | null;
  if (data?.type === SKIP_WAITING) void self.skipWaiting();
  else if (data?.type === CLAIM && typeof data.script === 'string') {
    event.waitUntil(claim(data.script, event.ports[0]));
  } else if (data?.type === RUNS && event.source && 'id' in event.source) {
    // A page's run started or ended (RunsMessage).
    if (data.busy === true) busyPages.add(event.source.id);
    else busyPages.delete(event.source.id);
  }
});

/** Takes the pages over if the asking page's script is a file of this build (ClaimMessage), and says. */
async function claim(script: string, port: MessagePort | undefined): Promise<void> {
  const ours = precache.getCacheKeyForURL(script) !== undefined;
  // Refused while this worker is not active yet; the page asks only once it is.
  if (ours) await self.clients.claim().catch(() => {});
  const answer: ClaimAnswer = { ours };
  port?.postMessage(answer);
}

/**
 * The whole playground's page, served here, refuses to be framed as the configured hosts say
 * (src/framed.ts); the embed's (`embed=1`) does not. A host without headers (GitHub Pages) gets
 * this from the second visit on; the page's own check covers the first.
 */
function framing(request: Request, response: Response): Response {
  if (request.mode !== 'navigate' || response.type === 'opaque' || response.status === 0) return response;
  if (isEmbedAddress(new URL(request.url).search) || response.headers.has('Content-Security-Policy'))
    return response;
  return withHeaders(response, NO_FRAMING_HEADERS);
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const responding = router.handleRequest({ event, request });
  if (responding) event.respondWith(responding.then((response) => framing(request, isolated(response))));
});
