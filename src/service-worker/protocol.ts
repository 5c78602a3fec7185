/**
 * What the page says to the service worker (src/service-worker/service-worker.ts): three things. A new
 * build's worker waits until the learner chooses Reload on "Update available"; SKIP_WAITING then
 * lets it take over (the page reloads when it has). A page says when a run starts and ends
 * (RUNS): an installing worker waits between files while any page has a run under way. And a page
 * asks the active worker to take it over (CLAIM), which it does only for a page of its own build.
 */
export const SKIP_WAITING = 's04:skip-waiting';

/**
 * `busy`: a run is under way on the page that sends it. The install downloads every file of the
 * build and Chromium compiles each script it keeps; beside a run on a machine of few cores, that
 * slows the run, so the install waits.
 */
export const RUNS = 's04:runs';
export interface RunsMessage {
  type: typeof RUNS;
  busy: boolean;
}

/** The service worker's file, beside index.html (vite.config.ts builds it there). */
export const SERVICE_WORKER_FILE = 'service-worker.js';

/**
 * A page asks the active worker whether it is of the worker's build, naming its own script: the
 * build's entry chunk, whose hashed name changes with any file of the build it loads. The worker
 * answers on the port sent with the message (`ClaimAnswer`) and, for a page of its build, takes it
 * over first (clients.claim). So a first install never takes over a page of another build (one
 * deployed between the page's load and the worker's fetch): for that page it is an update.
 */
export const CLAIM = 's04:claim';
export interface ClaimMessage {
  type: typeof CLAIM;
  /** The page's entry script, as an absolute URL. */
  script: string;
}
export interface ClaimAnswer {
  /** The page is of the worker's build (and is now controlled by it). */
  ours: boolean;
}
