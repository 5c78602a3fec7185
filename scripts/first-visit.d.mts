/** Types of scripts/first-visit.mjs: the files a first visit to the built app transfers. */

/** The bodies of the page's inline scripts. */
export declare function inlineScripts(html: string): string[];

/** `entries` (paths inside `dir`) and every script they import statically, each once, in order. */
export declare function staticClosure(dir: string, entries: string[]): string[];

/** The files before the first paint and before `sandbox:ready` (which includes the first). */
export declare function firstVisitFiles(
  dir: string,
  base?: string,
): { firstPaint: string[]; sandboxReady: string[] };

/** The files an embedded run (`embed=1`) transfers before its first paint. */
export declare function embedFirstPaintFiles(dir: string, base?: string): string[];

/** The bytes of `paths` inside `dir`, each file compressed on its own: raw, gzip 9, brotli 9. */
export declare function transferSizes(
  dir: string,
  paths: string[],
): { files: number; bytes: number; gzip: number; brotli: number };

/** A phase's budget, in bytes: gzip 9 and brotli 9. */
export interface ByteBudget {
  gzip: number;
  brotli: number;
}

/** The first visit's byte budgets: before the first paint, before `sandbox:ready`, an embed's first paint. */
export declare const BYTE_BUDGETS: {
  firstPaint: ByteBudget & { files: number };
  sandboxReady: ByteBudget;
  embedFirstPaint: ByteBudget;
};
