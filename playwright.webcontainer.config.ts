/**
 * `npm run test:webcontainer`: the real WebContainer (e2e-webcontainer/), which needs internet.
 * The built app is served with the isolation headers WebContainer needs; the suite skips, saying
 * why, where stackblitz.com cannot be reached.
 */
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export default defineConfig({
  ...base,
  testDir: 'e2e-webcontainer',
  timeout: 180_000,
  webServer: Array.isArray(base.webServer) ? base.webServer.slice(0, 1) : base.webServer,
});
