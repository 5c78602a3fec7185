/**
 * The sample projects the agents work on, as data: the real files under `samples/<name>/`,
 * bundled as raw strings by Vite (and Vitest) at build time, so they load offline.
 */
import type { ProjectFiles } from './sandbox';

export type SampleName = 'python' | 'typescript';

export const SAMPLE_NAMES: readonly SampleName[] = ['python', 'typescript'];

// Globs must be literals for Vite to expand them. Dotfiles are matched too, should a sample get
// any; caches left by running a sample's tests in place are not.
const RAW: Record<SampleName, Record<string, string>> = {
  python: import.meta.glob(
    [
      '/samples/python/**/*',
      '/samples/python/**/.*',
      '!**/__pycache__/**',
      '!**/.pytest_cache/**',
      '!**/node_modules/**',
    ],
    {
      query: '?raw',
      import: 'default',
      eager: true,
    },
  ),
  typescript: import.meta.glob(
    [
      '/samples/typescript/**/*',
      '/samples/typescript/**/.*',
      '!**/__pycache__/**',
      '!**/.pytest_cache/**',
      '!**/node_modules/**',
    ],
    {
      query: '?raw',
      import: 'default',
      eager: true,
    },
  ),
};

/** One sample project: paths relative to its root (`src/main.py`), sorted, and their contents. */
export function loadSample(name: SampleName): ProjectFiles {
  const raw = RAW[name];
  if (!raw) throw new Error(`Unknown sample: ${name}`);
  const prefix = `/samples/${name}/`;
  const files: ProjectFiles = {};
  for (const path of Object.keys(raw).sort()) files[path.slice(prefix.length)] = raw[path];
  return files;
}
