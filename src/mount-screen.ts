/**
 * Builds a page's screen, the whole playground's (main.ts) or an embedded run's (embed.ts), in the
 * learner's language from its first paint.
 */
import { mount, type Component } from 'svelte';
import { chooseLanguage } from './settings/language';
import { readUrlSettings } from './settings/url-settings';
import { watchChunkFailures } from './ui/chunk-failures.svelte';
import { loadLanguage } from './ui/i18n';
import { loadMarkdown } from './ui/markdown.svelte';
import { storedLanguage } from './ui/language.svelte';

/**
 * Mounts `screen` in #app one task later, in the learner's language; then calls `mounted`, and
 * loads the Markdown renderer once `markdownAfter` has settled (without it, on first use).
 */
export function mountScreen(
  screen: Component,
  { mounted, markdownAfter }: { mounted?: () => void; markdownAfter?: () => Promise<unknown> } = {},
): void {
  // Before any part of the page is loaded on demand: one that cannot be is said, and the reload offered.
  watchChunkFailures(window);

  // Chinese and Japanese are chunks of their own, fetched alongside (English is in this script).
  const language = chooseLanguage({
    url: readUrlSettings(location.search).lang,
    stored: storedLanguage(),
    browser: navigator.languages ?? [],
  });
  const strings = loadLanguage(language).catch(() => {}); // without them, English

  // The app's sandbox worker may have been created ahead by boot.ts (an embed starts none); its
  // script is fetched in a task of this thread, so the screen is built one task later, to let that
  // fetch start first.
  setTimeout(
    () =>
      void strings.then(() => {
        const target = document.getElementById('app')!;
        target.replaceChildren(); // the built page's line saying it is loading (vite-plugins/first-screen.ts)
        mount(screen, { target });
        mounted?.();
        // The Markdown renderer too: a first run clicked at once then finds it loaded.
        void markdownAfter?.().then(loadMarkdown, loadMarkdown);
      }),
    0,
  );
}
