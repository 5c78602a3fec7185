/**
 * The demo model's words (words/<lang>.json) are checked like the screen's locales: every language
 * has English's keys and no other, each with the same `{{slots}}`, and the plural forms the
 * language uses; say.ts asks for every key there is.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { differences, flatten, type Tree } from '../../../test/locale-keys';
import { DEMO_TEXT } from './say';
import en from './words/en.json';
import ja from './words/ja.json';
import zh from './words/zh.json';

const WORDS: Record<'en' | 'zh' | 'ja', Tree> = { en, zh, ja };

describe("the demo model's words", () => {
  it.each(['zh', 'ja'] as const)('%s has every English key and no other, with the same slots', (lang) => {
    expect(differences(WORDS.en, WORDS[lang], ['other'])).toEqual([]);
  });

  it('English has both plural forms of every plural key', () => {
    expect(differences(WORDS.en, WORDS.en, ['one', 'other'])).toEqual([]);
  });

  it('the comparison finds a missing key, a dropped slot and a wrong plural form', () => {
    const broken = structuredClone(WORDS.zh);
    delete broken.willRun;
    broken.runThem = '运行测试。';
    broken.skipped_one = '（还有 {{count}} 个文件没有读。）';
    expect(differences(WORDS.en, broken, ['other'])).toEqual([
      'other: skipped_one is not a plural form of this language',
      'runThem: uses {{}}, English {{run}}',
      'missing: willRun',
    ]);
  });

  it('say.ts asks for every key (a key it never names is words nobody says)', () => {
    const code = readFileSync(new URL('./say.ts', import.meta.url), 'utf8');
    const named = new Set([...code.matchAll(/'([\w.]+)'/g)].map((m) => m[1]));
    const keys = [...flatten(WORDS.en).keys()]
      .map((key) => key.replace(/_(one|other)$/, ''))
      .filter((key) => !key.startsWith('evidence.knownPlugins.'));
    expect([...new Set(keys)].filter((key) => !named.has(key))).toEqual([]);
  });

  it('says plurals by the language: one and other in English, one form in Chinese and Japanese', () => {
    expect(DEMO_TEXT.en.readStats(1, '10')).toBe('Read 1 file (10 characters).');
    expect(DEMO_TEXT.en.readStats(2, '10')).toBe('Read 2 files (10 characters).');
    expect(DEMO_TEXT.en.readStats(0, '0')).toBe('Read 0 files (0 characters).');
    expect(DEMO_TEXT.zh.readStats(1, '10')).toBe('共读取 1 个文件（10 个字符）。');
    expect(DEMO_TEXT.ja.fileCounts(1, 'Python', 2, 1)).toBe(
      '- ファイルは 1 個で、主に Python です：ソースファイルが 2 個、テストファイルが 1 個。',
    );
    expect(DEMO_TEXT.en.fileCounts(1, 'Python', 2, 1)).toBe(
      '- 1 file, mostly Python: 2 source files and 1 test file.',
    );
  });

  it('fills a slot once: words from a project that look like a slot stay as they are', () => {
    expect(DEMO_TEXT.en.runThem('`echo {{run}}`')).toBe('Run them with `echo {{run}}`.');
  });
});
