/** Types of scripts/built-app.mjs. */

/** Debian's Chromium path (CHROMIUM_PATH overrides), or undefined when none is installed. */
export declare function chromiumPath(): string | undefined;

/** Builds the app and serves it on 127.0.0.1:`port` until the process exits; the base URL. */
export declare function serveBuiltApp(port: number): Promise<string>;

/** Chromium's switch that resolves no name but the loopback ones. */
export declare const LOOPBACK_ONLY: string;

/**
 * Chromium's launch options: `args` added to Playwright's and to LOOPBACK_ONLY, with the omnibox
 * popup's WebUI (a renderer per new window in headless Chromium 156) turned off unless
 * PLAYWRIGHT_OMNIBOX=1.
 */
export declare function chromiumLaunchOptions(args?: string[]): Promise<{
  executablePath: string | undefined;
  args: string[];
  ignoreDefaultArgs?: string[];
}>;

/** A fresh page on the app (a context of its own, no service worker), once its sandbox is ready. */
export declare function readyPage(
  browser: import('playwright').Browser,
  appURL: string,
): Promise<import('playwright').Page>;

/** The browser every bench launches: headless Chromium, no GPU, nothing of its own on the network. */
export declare function launchBenchBrowser(): Promise<import('playwright').Browser>;

/** Clicks the sample prompt `prompt` as soon as its button is there and enabled (looked for at every frame). */
export declare function clickPromptAtOnce(page: import('playwright').Page, prompt: string): Promise<void>;
