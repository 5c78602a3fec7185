/**
 * What the page says to the service worker (src/workers/service-worker.ts): two things. A new
 * build's worker waits until the learner chooses Reload on "Update available"; SKIP_WAITING then
 * lets it take over (the page reloads when it has). And a page says when a run starts and ends
 * (RUNS): an installing worker waits between files while any page has a run under way.
 */
export const SKIP_WAITING = 's04:skip-waiting';

/**
 * `busy`: a run is under way on the page that sends it. The install downloads every file of the
 * build and Chromium compiles each script it keeps; beside a run on two cores, that made the run
 * 300-400 ms slower.
 */
export const RUNS = 's04:runs';
export interface RunsMessage {
  type: typeof RUNS;
  busy: boolean;
}

/** The service worker's file, beside index.html (vite.config.ts builds it there). */
export const SERVICE_WORKER_FILE = 'service-worker.js';
