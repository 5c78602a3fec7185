import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import type { ManifestTransform } from 'workbox-build';

/**
 * Adds each precached file's SHA-384 to the service worker's manifest (Subresource Integrity
 * form). Workbox fetches the file with it at install, so a wrong or damaged download fails the
 * install instead of being kept; the worker checks a cached file against it again before serving
 * it (src/service-worker/service-worker.ts). Not index.html's: a host may rewrite HTML (an analytics
 * snippet), which would then fail every install; its revision, an MD5 of it, is enough.
 *
 * The plugin learns where the build is written (`--outDir` included); the transform reads the
 * files from there.
 */
export function precacheIntegrity(): { plugin: Plugin; transform: ManifestTransform } {
  let outDir = 'dist';
  return {
    plugin: {
      name: 's04:precache-integrity',
      apply: 'build',
      configResolved(config) {
        outDir = resolve(config.root, config.build.outDir);
      },
    },
    transform: (entries) => ({
      manifest: entries.map((entry) =>
        entry.url.endsWith('.html') ? entry : { ...entry, integrity: sriOf(resolve(outDir, entry.url)) },
      ),
      warnings: [],
    }),
  };
}

/** `sha384-<base64>` of a file's bytes. */
export function sriOf(file: string): string {
  return `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;
}
