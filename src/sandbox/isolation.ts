/**
 * Cross-origin isolation: what makes `SharedArrayBuffer` available to the page and its workers
 * (the Stop of a command stuck in a loop, python3's interrupt) and lets WebContainer boot.
 *
 * The page gets it from these two response headers, wherever they come from: the dev and preview
 * servers (vite.config.ts), a host's header file (public/_headers, vercel.json), or, on a host
 * that cannot set headers (GitHub Pages), the service worker (src/service-worker/service-worker.ts),
 * which adds them to the responses it serves.
 */

/** The page's Cross-Origin-Embedder-Policy. WebContainer's `coep` boot option must say the same. */
export const COEP = 'require-corp';

export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': COEP,
} as const;
