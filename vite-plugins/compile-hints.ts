import type { Plugin } from 'vite';

/** V8's explicit compile hint: every function of the file compiled as the file loads, off the thread that runs it. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/**
 * Marks the entry chunks named `entries` and what they import statically with V8's compile hint,
 * so that a first run finds its code compiled instead of compiling each function on its first call.
 */
export function compileHints(entries: readonly string[]): Plugin {
  return {
    name: 's04:compile-hints',
    apply: 'build',
    // The hint is added after the files' names are made: it goes into their hashes here, so that
    // a file that changed by it never keeps a name a browser has cached without it.
    augmentChunkHash: () => COMPILE_HINT,
    generateBundle: {
      // After Vite's own additions at the top of a chunk (its preload list): the hint comes first.
      order: 'post',
      handler(_options, bundle) {
        const seen = new Set<string>();
        const visit = (fileName: string) => {
          const chunk = bundle[fileName];
          if (seen.has(fileName) || chunk?.type !== 'chunk') return;
          seen.add(fileName);
          chunk.code = COMPILE_HINT + chunk.code;
          chunk.imports.forEach(visit);
        };
        for (const chunk of Object.values(bundle))
          if (chunk.type === 'chunk' && chunk.isEntry && entries.includes(chunk.name)) visit(chunk.fileName);
      },
    },
  };
}
