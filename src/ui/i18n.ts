/**
 * Every string the screen shows goes through `t`. The locales are small and bundled, so the first
 * render already has its text in any language and a switch needs no fetch. `t` reads the current
 * language from `locale` (a `$state`), which is what makes the screen follow a switch: Svelte
 * re-runs whatever called `t`. A key missing in a language falls back to English.
 *
 * The sample prompts are protocol text (SPEC.md) and are never translated. Pure modules (run,
 * settings, core, models) do not import this: their errors carry a code and parameters, turned
 * into a sentence here (see sentence.ts).
 */
import i18next, { type TOptions } from 'i18next';
import type { Language } from '../settings/language';
import { locale } from './language.svelte';
import en from './locales/en.json';
import ja from './locales/ja.json';
import zh from './locales/zh.json';

export const resources = {
  en: { translation: en },
  zh: { translation: zh },
  ja: { translation: ja },
} as const satisfies Record<Language, unknown>;

const i18n = i18next.createInstance();
void i18n.init({
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: ['en', 'zh', 'ja'],
  resources,
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/**
 * Translated strings, per language, by key and values. i18next resolves, pluralises and
 * interpolates on every call (about 20 µs); a long array or a scrubbed record asks for the same
 * few hundred strings thousands of times a second.
 */
const memo = new Map<string, string>();
const MEMO_MAX = 20_000;
/** Values this long (a whole task description, a reason) are rare; they are not kept. */
const MEMO_ID_MAX = 500;

/** Forgets the translated strings kept so far (after a locale's strings change). */
export function forgetTranslations(): void {
  memo.clear();
}

/** The translated string for a key such as `prompt.run`, with `{{name}}` values and plural `count`. */
export function t(key: string, options?: TOptions): string {
  const lng = locale.current;
  let id = `${lng}\u0000${key}`;
  if (options) {
    for (const name in options) {
      const value = options[name];
      if (typeof value === 'object' && value !== null) return i18n.t(key, { ...options, lng }) as string;
      id += `\u0000${name}\u0001${typeof value}\u0001${String(value)}`;
    }
  }
  if (id.length > MEMO_ID_MAX) return i18n.t(key, { ...options, lng }) as string;
  let text = memo.get(id);
  if (text === undefined) {
    text = i18n.t(key, { ...options, lng }) as string;
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(id, text);
  }
  return text;
}
