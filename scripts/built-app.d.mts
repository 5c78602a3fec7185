/** Types of scripts/built-app.mjs. */

/** Debian's Chromium path (CHROMIUM_PATH overrides), or undefined when none is installed. */
export declare function chromiumPath(): string | undefined;

/** Builds the app and serves it on 127.0.0.1:`port` until the process exits; the base URL. */
export declare function serveBuiltApp(port: number): Promise<string>;
