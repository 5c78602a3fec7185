import { describe, expect, it } from 'vitest';
import { chunks, isChunkFailure, watchChunkFailures } from './chunk-failures.svelte';
import { say, sentenceOf } from './sentence';

/** What Vite's preload helper does when a dynamic import fails: the event, then the same error thrown. */
function failImport(target: EventTarget, error: Error): Error {
  const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload: error });
  target.dispatchEvent(event);
  return error;
}

describe('a part of the page that could not be loaded on demand', () => {
  it('is said in one sentence, with the reload offered; other errors stay as they came', () => {
    const window = new EventTarget();
    const stop = watchChunkFailures(window);
    expect(chunks.failed).toBe(false);
    const other = new TypeError('Failed to fetch dynamically imported module: https://x/assets/a.js');
    expect(sentenceOf(other)).toEqual({ text: other.message }); // not announced by Vite

    const failed = failImport(window, new TypeError('Failed to fetch dynamically imported module: b.js'));
    expect(chunks.failed).toBe(true);
    expect(isChunkFailure(failed)).toBe(true);
    expect(sentenceOf(failed)).toEqual({ key: 'update.chunkFailed' });
    expect(say(sentenceOf(failed))).toBe(
      'A part of the playground could not be loaded (a newer version was published since this page opened, or the network is off): reload the page to get it.',
    );

    stop();
    const later = failImport(window, new TypeError('later'));
    expect(isChunkFailure(later)).toBe(false);
  });
});
