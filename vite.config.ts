import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';
import { earlySandbox } from './build/early-sandbox.ts';
import { justBashSplit } from './build/just-bash-split.ts';
import { nodePrelude } from './build/node-prelude.ts';
import { pyodideAssets } from './build/pyodide-assets.ts';
import { relay } from './build/relay.ts';
import { staticAssets } from './build/static-assets.ts';

/** Cross-origin isolation: needed by WebContainer and by SharedArrayBuffer in the workers. */
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  plugins: [
    svelte(),
    justBashSplit(),
    nodePrelude(),
    earlySandbox(),
    pyodideAssets(isolation),
    staticAssets(isolation),
    relay(),
  ],
  server: { headers: isolation },
  preview: { headers: isolation },
  worker: { format: 'es', plugins: () => [justBashSplit(), nodePrelude()] },
  build: { target: 'es2022' },
  test: {
    include: ['src/**/*.test.ts', 'build/**/*.test.ts'],
    environment: 'node',
  },
});
