/**
 * Which language the screen speaks. The URL's `lang=` wins for that page load, then the choice
 * kept on this device, then the browser's own list (the first of its languages we have), else
 * English. Pure: the page passes in what it read from the URL, localStorage and `navigator`.
 */

export const LANGUAGES = ['en', 'zh', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Where the learner's choice is kept (localStorage). */
export const LANGUAGE_KEY = 's04.language';

/** The BCP 47 tag for `<html lang>` and for formatting dates and numbers. */
export const LANGUAGE_TAGS: Record<Language, string> = { en: 'en', zh: 'zh-CN', ja: 'ja' };

/** A stored or given value, if it names a language we have. */
export function asLanguage(value: string | null | undefined): Language | undefined {
  return LANGUAGES.find((language) => language === value);
}

/** The first of the browser's languages (`navigator.languages`, in its order) that we have. */
export function browserLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    const language = asLanguage(primary);
    if (language) return language;
  }
  return 'en';
}

/** The language of this page load: the URL's, else the stored one, else the browser's. */
export function chooseLanguage(from: {
  url?: Language;
  stored?: string | null;
  browser: readonly string[];
}): Language {
  return from.url ?? asLanguage(from.stored) ?? browserLanguage(from.browser);
}
