import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './scripts/built-app.mjs';

const PORT = Number(process.env.E2E_PORT ?? 41731);
/** The mock Messages API's port; the specs read the same variable. */
const MOCK_API_PORT = Number(process.env.MOCK_API_PORT ?? 41801);
/** dist/'s build, unless scripts/test-all.mjs made it already, beside the type check (S04_E2E_BUILT=1). */
const BUILD = process.env.S04_E2E_BUILT === '1' ? '' : 'npx vite build --mode test --logLevel warn && ';

/**
 * The specs whose tests mostly wait: on timers (a service worker's install, WebContainer's boot
 * giving up, the demo at a person's pace) or on an emulated slow link. Their
 * time was 30-52% idle where the others' was 11-18%. scripts/test-all.mjs runs them in a second
 * Playwright run beside the others (S04_E2E_LANE=waiting, then =busy for the rest); with no lane
 * named, a run has every spec. (The relay's spec waits too, on the SDK's retries, but it counts the
 * pieces of a reply 100 ms apart as the page draws them: beside the busy run it once saw one.)
 */
const WAITING = ['mixed-deploy', 'states', 'sandbox', 'first-visit', 'quiet-header', 'service-worker'].map(
  (name) => `**/${name}.spec.ts`,
);
const LANE = process.env.S04_E2E_LANE;

export default defineConfig({
  testDir: 'e2e',
  ...(LANE === 'waiting' && { testMatch: WAITING }),
  ...(LANE === 'busy' && { testIgnore: WAITING }),
  fullyParallel: false,
  workers: 1,
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
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1440, height: 900 },
        // Motion off, as a person may ask of their system: the pulsing dots (the header's, the
        // run's) and the streaming caret drew frames all along, 7% of four specs' CPU time.
        reducedMotion: 'reduce',
        launchOptions: await chromiumLaunchOptions([
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ]),
      },
    },
  ],
  webServer: [
    {
      command: `${BUILD}npx vite preview --port ${PORT} --strictPort --host 127.0.0.1`,
      url: `http://127.0.0.1:${PORT}`,
      reuseExistingServer: !process.env.CI,
      timeout: 600_000, // a build on a busy two-core machine takes minutes
      // The relay reaches the mock API on loopback only because this allows it (docs/relay.md).
      env: { S04_RELAY_ALLOW_LOCAL: `127.0.0.1:${MOCK_API_PORT}` },
    },
    {
      // The mock Messages API the SDK path is tested against (real HTTP and CORS on loopback).
      command: `node scripts/mock-api.mjs --port ${MOCK_API_PORT} --retry-after-ms 20 --quiet`,
      url: `http://127.0.0.1:${MOCK_API_PORT}/_health`,
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
    },
  ],
});
