import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { compileHints } from './vite-plugins/compile-hints.ts';
import { earlySandbox } from './vite-plugins/early-sandbox.ts';
import { embedEntry } from './vite-plugins/embed-entry.ts';
import { firstScreen } from './vite-plugins/first-screen.ts';
import { framePolicy } from './vite-plugins/frame-policy.ts';
import { justBashSplit } from './vite-plugins/just-bash-split.ts';
import { nodePrelude } from './vite-plugins/node-prelude.ts';
import { precacheIntegrity } from './vite-plugins/precache-integrity.ts';
import { pyodideAssets, pyodideIntegrity } from './vite-plugins/pyodide-assets.ts';
import { relay } from './relay/node.ts';
import { staticAssets } from './vite-plugins/static-assets.ts';
import { ISOLATION_HEADERS } from './src/sandbox/isolation.ts';

/** Cross-origin isolation: needed by WebContainer and by SharedArrayBuffer in the workers. */
const isolation = { ...ISOLATION_HEADERS };
const integrity = precacheIntegrity();

/**
 * Every script ASCII-only (non-ASCII escaped): one character outside Latin-1 (a "…" in a message)
 * makes the browser decode and parse the whole file as two-byte text. In traces of a fresh page,
 * decoding the sandbox's 736 KB script took 35 ms of its worker's start-up, 10 ms once ASCII, and
 * the page's own script 25 ms, under 2 once ASCII. Gzipped, the scripts stay the same size.
 */
const ascii = { charset: 'ascii' } as const;

/** An embedded run's script (`embed=1`), built apart from the app's: see vite-plugins/embed-entry.ts. */
const embed = embedEntry({
  input: 'src/embed.ts',
  plugins: () => [svelte({ compilerOptions: { css: 'injected' } })],
  output: ascii,
});

/**
 * Where the app is served from: `/` by default, `BASE_PATH=/<repo>/` for a sub-path such as
 * GitHub Pages' `https://<user>.github.io/<repo>/`. Absolute, because the workers, Pyodide and
 * the service worker's scope are found from it, whatever the worker's own URL.
 */
function basePath(value = process.env.BASE_PATH): string {
  if (!value) return '/';
  if (!value.startsWith('/')) throw new Error(`BASE_PATH must start with "/" (like /my-repo/), not ${value}`);
  return value.endsWith('/') ? value : `${value}/`;
}

export default defineConfig({
  base: basePath(),
  // The service worker keeps Pyodide's files once loaded and checks them against these.
  define: { __S04_PYODIDE__: JSON.stringify(pyodideIntegrity()) },
  plugins: [
    svelte(),
    justBashSplit(),
    nodePrelude(),
    embed,
    earlySandbox(embed.files),
    firstScreen(),
    compileHints(['index']),
    pyodideAssets(isolation),
    staticAssets(isolation),
    framePolicy(),
    relay(),
    integrity.plugin,
    // One service worker for offline use and isolation (src/service-worker/service-worker.ts); the page
    // registers it itself (src/page/service-worker.svelte.ts), and never on the dev server.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/service-worker',
      filename: 'service-worker.ts',
      injectRegister: false,
      manifest: false,
      devOptions: { enabled: false },
      injectManifest: {
        rollupFormat: 'iife',
        // Every file of the build but Pyodide (13 MB, kept on its first use) and the compressed
        // copies beside the files (static-assets.ts).
        globPatterns: ['**/*.{html,js,css,wasm,json,svg}'],
        globIgnores: ['pyodide/**', '**/*.br'],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        // Each file's SHA-384 (vite-plugins/precache-integrity.ts), checked when fetched and when served.
        manifestTransforms: [integrity.transform],
      },
    }),
  ],
  server: { headers: isolation },
  preview: { headers: isolation },
  worker: {
    format: 'es',
    plugins: () => [justBashSplit(), nodePrelude(), compileHints(['agent'])],
    rolldownOptions: { output: ascii },
  },
  build: { target: 'es2022', rolldownOptions: { output: ascii } },
  test: {
    include: ['src/**/*.test.ts', 'vite-plugins/**/*.test.ts', 'relay/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // Vitest's default on two cores is one worker, and the suite's files spend much of their time
    // waiting (timers, child processes, workers): two workers took 88 s where one took 146 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A test's own limit, not its expected time: the sandbox's commands (a shell over memory,
    // QuickJS, Pyodide) take seconds each on two cores shared with other work.
    testTimeout: 30_000,
  },
});
