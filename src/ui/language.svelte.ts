/**
 * The screen's language, as state: `t` reads `locale.current`, so every template, `$derived` and
 * effect that translated something re-runs when it changes, and the screen is re-rendered in place
 * (no reload, nothing else lost). Which language a page load starts in is decided by
 * src/settings/language.ts; this module only holds it, keeps the learner's choice and tells the
 * document (`<html lang>`, the title).
 */
import { LANGUAGE_KEY, LANGUAGE_TAGS, type Language } from '../settings/language';

class Locale {
  current = $state<Language>('en');
  /** The BCP 47 tag of the current language (`zh-CN`), for `<html lang>` and `Intl`. */
  get tag(): string {
    return LANGUAGE_TAGS[this.current];
  }
}

export const locale = new Locale();

/** Shows the screen in a language (from the start of a page load, or the learner's choice). */
export function useLanguage(language: Language): void {
  locale.current = language;
  if (typeof document !== 'undefined') document.documentElement.lang = LANGUAGE_TAGS[language];
}

/** The learner picked a language: use it, keep it on this device, and keep it in the URL if the URL named one. */
export function chooseLanguageNow(language: Language, start = performance.now()): void {
  // `language:switch` measures from the choice (`start`: before its strings were loaded, if they
  // had to be) to the first frame painted after it (docs/automation-contract.md, User Timing; the
  // e2e test and the benchmark read it).
  requestAnimationFrame(() =>
    setTimeout(() => performance.measure('language:switch', { start, end: performance.now() }), 0),
  );
  useLanguage(language);
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // Without storage the choice holds for this page load only.
  }
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- read once and written back, not state
  const url = new URL(location.href);
  if (url.searchParams.has('lang')) {
    // A reload would otherwise bring back the language the link named.
    url.searchParams.set('lang', language);
    history.replaceState(history.state, '', url);
  }
}

/** The stored choice, if any (localStorage throws in some privacy modes). */
export function storedLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
}
