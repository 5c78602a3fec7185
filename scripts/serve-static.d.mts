/** Types of scripts/serve-static.mjs. */

/** The headers `--isolation` sends (those of public/_headers). */
export declare const ISOLATION_HEADERS: Record<string, string>;

/** The Cache-Control of `assets/` on the hosts (public/_headers, vercel.json). */
export declare const ASSETS_CACHE_CONTROL: string;

export interface StaticServer {
  /** Where the served folder is: the base path included, with a trailing slash. */
  url: string;
  /** Serves another folder from now on, as a new deploy does. */
  serve(dir: string): void;
  /** Stops the server and cuts its open connections. */
  close(): Promise<void>;
}

/** Serves `dir` under `base` on 127.0.0.1:`port` (0: any free port), with no headers of its own. */
export declare function serveStatic(options: {
  dir: string;
  port?: number;
  base?: string;
  isolation?: boolean;
  brotli?: boolean;
  /** `assets/` sent with ASSETS_CACHE_CONTROL, as the hosts' headers say. */
  cacheAssets?: boolean;
}): Promise<StaticServer>;
