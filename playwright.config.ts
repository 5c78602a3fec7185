import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './scripts/built-app.mjs';

const PORT = Number(process.env.E2E_PORT ?? 41731);
/** The first mock Messages API's port; the specs read the same variable (see e2e/fixtures.ts). */
const MOCK_API_PORT = Number(process.env.MOCK_API_PORT ?? 41801);
/**
 * Browser test workers. Each has a mock API of its own (MOCK_API_PORT + its parallel index),
 * since a test clears and reads the mock's request log.
 */
const WORKERS = Number(process.env.E2E_WORKERS ?? 1);
/**
 * Specs that install service workers, load python3 or time a page's first visit, or whose runs
 * are long: they run in the project `alone`, which scripts/test-all.mjs runs with one worker
 * after the others (run two at a time). Under a machine twice as busy as it is with one worker,
 * their waits (an install, a build deployed, axe over the whole page) ran out of time.
 */
const ALONE = [
  'offline',
  'mixed-deploy',
  'service-worker',
  'python-preload',
  'first-visit',
  'slow-network',
  'accessibility',
  'hostile-files',
].map((name) => `**/${name}.spec.ts`);
const MOCK_API_PORTS = Array.from({ length: WORKERS }, (_, index) => MOCK_API_PORT + index);
/** dist/'s build, unless scripts/test-all.mjs made it already, beside the type check (S04_E2E_BUILT=1). */
const BUILD = process.env.S04_E2E_BUILT === '1' ? '' : 'npx vite build --mode test --logLevel warn && ';

/** One desktop Chromium for every spec. */
const browser = {
  ...devices['Desktop Chrome'],
  viewport: { width: 1440, height: 900 },
  launchOptions: await chromiumLaunchOptions([
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ]),
};

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  // A `test.only` left in a spec would silently skip every other test: CI refuses it.
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  reporter: process.env.PW_JSON_OUTPUT
    ? [['list'], ['json', { outputFile: process.env.PW_JSON_OUTPUT }]]
    : 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'chromium', testIgnore: ALONE, use: browser },
    { name: 'alone', testMatch: ALONE, use: browser },
  ],
  webServer: [
    {
      command: `${BUILD}npx vite preview --port ${PORT} --strictPort --host 127.0.0.1`,
      url: `http://127.0.0.1:${PORT}`,
      reuseExistingServer: !process.env.CI,
      timeout: 600_000, // a build on a busy two-core machine takes minutes
      // The relay reaches the mock API on loopback only because this allows it (docs/relay.md).
      env: { S04_RELAY_ALLOW_LOCAL: MOCK_API_PORTS.map((port) => `127.0.0.1:${port}`).join(',') },
    },
    // The mock Messages API the SDK path is tested against (real HTTP and CORS on loopback).
    ...MOCK_API_PORTS.map((port) => ({
      command: `node scripts/mock-api.mjs --port ${port} --retry-after-ms 20 --quiet`,
      url: `http://127.0.0.1:${port}/_health`,
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
    })),
  ],
});
