/**
 * What the page says to the service worker (src/workers/service-worker.ts): only one thing. A new
 * build's worker waits until the learner chooses Reload on "Update available"; this message then
 * lets it take over (the page reloads when it has).
 */
export const SKIP_WAITING = 's04:skip-waiting';

/** The service worker's file, beside index.html (vite.config.ts builds it there). */
export const SERVICE_WORKER_FILE = 'service-worker.js';
