/**
 * Every key the screen passes to `t()` exists in English (and so, by i18n.test.ts, in every
 * language). At run time a missing key shows the key itself, and only a person looking at that
 * corner of the screen would notice.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from './locales/en.json';

type Tree = { [key: string]: string | Tree };

/** Every key of a locale as `a.b.c`. */
function keysOf(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [path] : keysOf(value, path);
  });
}

const KEYS = new Set(keysOf(en as Tree));
/** A key `x` stands for its plural forms (`x_one`, `x_other`) as i18next resolves it. */
const exists = (key: string) => KEYS.has(key) || KEYS.has(`${key}_other`);

/** The first argument of each `t(...)` call in a source, as written. */
export function firstArguments(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?<![\w.$])t\(/g)) {
    let depth = 0;
    let quote: string | null = null;
    let i = match.index + 2;
    const start = i;
    for (; i < source.length; i++) {
      const c = source[i];
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = null;
        continue;
      }
      if (c === "'" || c === '"' || c === '`') quote = c;
      else if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) {
        if (depth === 0) break;
        depth--;
      } else if (c === ',' && depth === 0) break;
    }
    found.push(source.slice(start, i).trim());
  }
  return found;
}

/**
 * The keys an argument names: each quoted dotted string in it (`'a.b'`, or both sides of
 * `cond ? 'a.b' : 'c.d'`; every key of en.json is nested, and `x === 'pending'` names none), and
 * for a template such as `` `context.${mode}` `` its fixed prefix.
 */
export function namedKeys(argument: string): { keys: string[]; prefixes: string[] } {
  const keys = [...argument.matchAll(/'([^'\\]*)'|"([^"\\]*)"/g)].map((m) => m[1] ?? m[2]);
  const prefixes = [...argument.matchAll(/`([^`$]*)\$\{/g)].map((m) => m[1]);
  const whole = [...argument.matchAll(/`([^`$]*)`/g)].map((m) => m[1]);
  return { keys: [...keys, ...whole].filter((k) => /^\w+(\.\w+)+$/.test(k)), prefixes };
}

const SRC = resolve(import.meta.dirname, '..');
const SOURCES = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((name) => /\.(ts|svelte)$/.test(name) && !name.endsWith('.test.ts'))
  .map((name) => join(SRC, name));

const calls = SOURCES.flatMap((file) =>
  firstArguments(readFileSync(file, 'utf8')).map((argument) => ({ file, argument, ...namedKeys(argument) })),
);

describe('the keys passed to t()', () => {
  it('finds the calls of the screen', () => {
    expect(calls.length).toBeGreaterThan(100);
    expect(calls.some((c) => c.keys.includes('prompt.run'))).toBe(true);
  });

  it('every key written out exists in en.json (a plural key by its _one/_other forms)', () => {
    const missing = calls.flatMap(({ file, keys }) =>
      keys.filter((key) => !exists(key)).map((key) => `${file.slice(SRC.length + 1)}: ${key}`),
    );
    expect(missing).toEqual([]);
  });

  it('every key built from a prefix has keys under that prefix', () => {
    const orphans = calls.flatMap(({ file, prefixes }) =>
      prefixes
        .filter((prefix) => ![...KEYS].some((key) => key.startsWith(prefix)))
        .map((prefix) => `${file.slice(SRC.length + 1)}: ${prefix}…`),
    );
    expect(orphans).toEqual([]);
  });

  it('every key of en.json is nested (so a key always has a dot)', () => {
    expect([...KEYS].filter((key) => !key.includes('.'))).toEqual([]);
  });

  it('reads the shapes of call the screen uses', () => {
    const source =
      "t('a.b'); t(x ? 'c.d' : 'e.f', { count }); t(`g.${h}`); i18n.t(key); t('i.j', { name: t('k.l') })";
    expect(firstArguments(source)).toEqual(["'a.b'", "x ? 'c.d' : 'e.f'", '`g.${h}`', "'i.j'", "'k.l'"]);
    expect(namedKeys("x ? 'c.d' : 'e.f'")).toEqual({ keys: ['c.d', 'e.f'], prefixes: [] });
    expect(namedKeys("state === 'pending' ? 'a.b' : 'c.d'").keys).toEqual(['a.b', 'c.d']);
    expect(namedKeys('`g.${h}`')).toEqual({ keys: [], prefixes: ['g.'] });
    expect(exists('prompt.run')).toBe(true);
    expect(exists('prompt.noSuchKey')).toBe(false);
  });
});
