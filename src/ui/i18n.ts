/**
 * Every string the screen shows goes through `t`. English is in the page's first script; Chinese
 * and Japanese are chunks of their own, loaded before the first render that needs them (see
 * main.ts) and otherwise in idle time, so that a switch rarely waits for one. `t` reads the current
 * language from `locale` (a `$state`), which is what makes the screen follow a switch: Svelte
 * re-runs whatever called `t`. A key missing in a language falls back to English.
 *
 * The sample prompts are protocol text (docs/protocol.md) and are never translated. Pure modules (run,
 * settings, core, models) do not import this: their errors carry a code and parameters, turned
 * into a sentence here (see sentence.ts).
 */
import i18next, { type TOptions } from 'i18next';
import { LANGUAGE_TAGS, type Language } from '../settings/language';
import { formatNumber } from './format';
import { locale } from './language.svelte';
import en from './locales/en.json';

/** A locale's strings: keys, nested by screen part. */
interface Strings {
  [key: string]: string | Strings;
}

/** The strings of each language loaded so far (English always). */
export const resources: { en: { translation: Strings } } & Partial<
  Record<Language, { translation: Strings }>
> = { en: { translation: en } };

const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<{ default: Strings }>> = {
  zh: () => import('./locales/zh.json'),
  ja: () => import('./locales/ja.json'),
};
const loading = new Map<Language, Promise<void>>();

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
// `{{count, number}}` with one formatter per language, the one the chart uses too (by its BCP 47
// tag). i18next's own keeps a formatter per language *and options*, and its options hold the value
// itself: a new Intl.NumberFormat for every count shown, and a cache that only grows.
i18n.services.formatter?.add('number', (value: number, lng: string | undefined) =>
  formatNumber(value, LANGUAGE_TAGS[(lng ?? 'en') as Language] ?? lng),
);

/**
 * Translated strings, per language, by key and values. i18next resolves, pluralises and
 * interpolates on every call (about 20 µs); a long array or a scrubbed record asks for the same
 * few hundred strings thousands of times a second.
 */
const memo = new Map<string, string>();
const MEMO_MAX = 20_000;
/** Values this long (a whole task description, a reason) are rare; they are not kept. */
const MEMO_ID_MAX = 500;

/** Loads a language's strings if they are not loaded yet; English is always there. */
export function loadLanguage(language: Language): Promise<void> {
  if (language === 'en') return Promise.resolve();
  let done = loading.get(language);
  if (!done) {
    done = LOADERS[language]().then((module) => {
      resources[language] = { translation: module.default };
      i18n.addResourceBundle(language, 'translation', module.default);
      forgetTranslations();
    });
    done.catch(() => loading.delete(language)); // a failed fetch is tried again next time
    loading.set(language, done);
  }
  return done;
}

/** Forgets the translated strings kept so far (after a locale's strings change). */
export function forgetTranslations(): void {
  memo.clear();
  templates.clear();
}

/**
 * A key's string in a language split at its `{{name}}` and `{{name, number}}` values (at odd
 * places), or null when it holds anything else for i18next to resolve (nesting, other formats). A scrub renumbers
 * what it shows on every step ("Model call 812", a column's counts): each new value missed the
 * memo and went through i18next again, several milliseconds a step on a long record.
 */
const templates = new Map<string, readonly string[] | null>();

/** How many strings i18next resolved: counted so that a test can tell a filled template from it. */
export const resolvedByI18next = { count: 0 };
const SIMPLE = /^(?:[^{$]|\{(?!\{)|\$(?!t\()|\{\{\w+(?:, number)?\}\})*$/;

function template(lng: Language, key: string): readonly string[] | null {
  const id = `${lng}\u0000${key}`;
  let parts = templates.get(id);
  if (parts === undefined) {
    const own: unknown = i18n.getResource(lng, 'translation', key);
    const raw = own ?? (lng === 'en' ? undefined : i18n.getResource('en', 'translation', key));
    parts = typeof raw === 'string' && SIMPLE.test(raw) ? raw.split(/\{\{(\w+(?:, number)?)\}\}/) : null;
    templates.set(id, parts);
  }
  return parts;
}

/** `parts` (see template) with `options`' values in place, or null when one is missing or not plain. */
function filled(parts: readonly string[], options: TOptions | undefined, lng: Language): string | null {
  let text = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const [name, format] = parts[i].split(', ');
    const value: unknown = options?.[name];
    if (format) {
      // `{{value, number}}`: the formatter i18next is given above, called as it calls it.
      if (typeof value !== 'number') return null;
      text += formatNumber(value, LANGUAGE_TAGS[lng]) + parts[i + 1];
    } else {
      if (typeof value !== 'string' && typeof value !== 'number') return null;
      text += String(value) + parts[i + 1];
    }
  }
  return text;
}

/**
 * Direction controls (embeddings, overrides, isolates: U+202A-202E, U+2066-2069) a value set into
 * one of our sentences may carry: a file's or a model's text could otherwise turn the sentence's
 * own words around it. The text itself, where the screen shows it as content, keeps them, isolated
 * by its element (`unicode-bidi: isolate` on `[lang=""]`, app.css).
 */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
const BIDI_CONTROLS = new RegExp(BIDI_CONTROL.source, 'g');

/** The values with the direction controls taken out of their strings (the same object when none has any). */
function withoutBidiControls(options: TOptions): TOptions {
  let out: TOptions | null = null;
  for (const name in options) {
    const value = options[name];
    if (typeof value !== 'string' || !BIDI_CONTROL.test(value)) continue;
    out ??= { ...options };
    out[name] = value.replace(BIDI_CONTROLS, '');
  }
  return out ?? options;
}

/** The translated string for a key such as `prompt.run`, with `{{name}}` values and plural `count`. */
export function t(key: string, given?: TOptions): string {
  const options = given && withoutBidiControls(given);
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
    const parts = options?.count === undefined && options?.context === undefined ? template(lng, key) : null;
    const plain = parts && filled(parts, options, lng);
    if (plain === null) resolvedByI18next.count++;
    text = plain ?? (i18n.t(key, { ...options, lng }) as string);
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(id, text);
  }
  return text;
}
