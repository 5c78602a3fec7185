/**
 * Parts of the page loaded on demand (the example, the Markdown renderer, the chart, the SDK,
 * Chinese and Japanese, ...) that could not be loaded: a build deployed since this page was
 * opened no longer has them on the host, or the network is off. Vite announces each dynamic import
 * that fails with a `vite:preloadError` event on window, carrying the error that import then
 * rejects with; that error is said as one sentence (`update.chunkFailed`, sentence.ts), and the page
 * offers the reload that gets the current build (UpdateNotice).
 */

/** The errors of dynamic imports that failed, as Vite announced them. */
const failures = new WeakSet<object>();

/** Whether a part of the page failed to load (the reload is offered). */
export const chunks = $state({ failed: false });

/** Listens for failed dynamic imports on `target` (window); returns the way to stop. */
export function watchChunkFailures(target: EventTarget): () => void {
  const listener = (event: Event) => {
    const error = (event as Event & { payload?: unknown }).payload;
    if (typeof error === 'object' && error !== null) failures.add(error);
    chunks.failed = true;
  };
  target.addEventListener('vite:preloadError', listener);
  return () => target.removeEventListener('vite:preloadError', listener);
}

/** Whether an error is that of a part of the page that could not be loaded. */
export function isChunkFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && failures.has(error);
}
