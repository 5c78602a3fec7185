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

/** The translated string for a key such as `prompt.run`, with `{{name}}` values and plural `count`. */
export function t(key: string, options?: TOptions): string {
  return i18n.t(key, { ...options, lng: locale.current }) as string;
}
