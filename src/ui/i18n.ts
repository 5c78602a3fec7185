/**
 * Every string the screen shows goes through `t`. English is bundled and loaded synchronously, so
 * the first render already has its text; other languages add a file under `locales/` and a line
 * to `resources`. The sample prompts are protocol text (SPEC.md) and are never translated.
 */
import i18next, { type TOptions } from 'i18next';
import en from './locales/en.json';

export const resources = {
  en: { translation: en },
} as const;

export type Language = keyof typeof resources;

const i18n = i18next.createInstance();
void i18n.init({
  lng: 'en',
  fallbackLng: 'en',
  resources,
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** The translated string for a key such as `prompt.run`, with `{{name}}` values and plural `count`. */
export function t(key: string, options?: TOptions): string {
  return i18n.t(key, options) as string;
}
