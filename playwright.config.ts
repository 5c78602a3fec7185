import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './scripts/built-app.mjs';

const PORT = Number(process.env.E2E_PORT ?? 41731);
/** The mock Messages API's port; the specs read the same variable. */
const MOCK_API_PORT = Number(process.env.MOCK_API_PORT ?? 41801);
/** dist/'s build, unless scripts/test-all.mjs made it already, beside the type check (S04_E2E_BUILT=1). */
const BUILD = process.env.S04_E2E_BUILT === '1' ? '' : 'npx vite build --mode test --logLevel warn && ';

export default defineConfig({
  testDir: 'e2e',
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
