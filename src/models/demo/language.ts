/**
 * How the demo model understands a prompt: which language it is written in, and which of the
 * three sample prompts it means. Both are tables, so a new phrasing or a new language is a new
 * row, not a new branch:
 *
 *   SCRIPTS   a language is recognised by its script: kana means Japanese, Han without kana
 *             means Chinese, anything else English
 *   INTENTS   per intent, per language, patterns any of which recognises the intent; the first
 *             intent with a match wins, so `create` (whose prompts mention tests) comes first
 *
 * Every language's patterns are tried on every prompt, as a real model would understand a
 * Chinese request typed on an English screen. The subagent goes through the same tables with
 * the task prompt the parent wrote, which is all it sees.
 */

/** The languages the demo model answers in. */
export type Lang = 'en' | 'zh' | 'ja';

export const LANGS: readonly Lang[] = ['en', 'zh', 'ja'];

/** The scripts that mark a language other than English, checked in order. */
export const SCRIPTS: ReadonlyArray<{ lang: Lang; pattern: RegExp }> = [
  // Japanese writes with kanji too; kana is what only Japanese has.
  { lang: 'ja', pattern: /[\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f]/u },
  { lang: 'zh', pattern: /\p{Script=Han}/u },
];

const CJK = /[\p{Script=Han}\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f]/gu;
const LATIN = /[A-Za-z]/g;

/**
 * A CJK character carries about as much as an English word, so a prompt counts as written in
 * Chinese or Japanese when it has at least one such character for every this many Latin letters.
 * File names like `.py` or a quoted Chinese file name in an English prompt then do not decide it.
 */
const LETTERS_PER_CJK = 3;

/** The language a prompt is written in, from its script. */
export function languageOf(text: string): Lang {
  const cjk = text.match(CJK)?.length ?? 0;
  const latin = text.match(LATIN)?.length ?? 0;
  if (cjk === 0 || cjk * LETTERS_PER_CJK < latin) return 'en';
  return SCRIPTS.find((s) => s.pattern.test(text))?.lang ?? 'en';
}

export type Intent = 'framework' | 'summarize' | 'create' | 'explore';

/** The sample prompts' intents, first match wins; a prompt that matches none is `explore`. */
export const INTENTS: ReadonlyArray<{
  intent: Exclude<Intent, 'explore'>;
  patterns: Record<Lang, RegExp[]>;
}> = [
  {
    intent: 'create',
    patterns: {
      en: [/\b(create|write|add|make|build|generate)\b[^.?!]*\bmodule\b/, /\bnew module\b/],
      zh: [/(创建|新建|编写|写|添加|生成|建立|做)[^。？！?!]*模块/, /新模块/],
      ja: [
        /(作成|作っ|作る|作り|追加|書い|書く|生成)[^。？！?!]*モジュール/,
        /モジュール[^。？！?!]*(作成|作っ|作る|作り|追加|書い|書く|生成)/,
        /新しいモジュール/,
      ],
    },
  },
  {
    intent: 'framework',
    patterns: {
      en: [
        /\btest(?:ing|s)?\b[^.?!]*\b(framework|runner|library|libraries|tooling)\b/,
        /\b(framework|runner)\b[^.?!]*\btest/,
      ],
      zh: [/测试[^。？！?!]*(框架|运行器|工具|库)/, /(框架|运行器)[^。？！?!]*测试/],
      ja: [
        /テスト[^。？！?!]*(フレームワーク|ランナー|ライブラリ|ツール)/,
        /(フレームワーク|ランナー)[^。？！?!]*テスト/,
      ],
    },
  },
  {
    intent: 'summarize',
    patterns: {
      en: [
        /\bsummar\w*\s+(?:what\s+)?(?:each|every|all)\b/,
        /\bwhat each (?:one|file|module) does\b/,
        /\bdescribe (?:each|every|all)\b/,
        /\b(?:read|go through|look at)\s+(?:all|every|each)\b[^.?!]*\bfiles?\b/,
      ],
      zh: [
        /(总结|概括|归纳|介绍|说明|描述)[^。？！?!]*(每个|每一个|各个|所有|全部)/,
        /(每个|每一个|各个)[^。？！?!]*(作用|功能|用途|做什么|干什么)/,
        /(阅读|读|查看|浏览|看)[^。？！?!]*(所有|全部|每个|每一个)[^。？！?!]*文件/,
      ],
      ja: [
        /(要約|まとめ|説明)[^。？！?!]*(それぞれ|各|すべて|全て|全部)/,
        /(それぞれ|各)(の)?(ファイル)?(の)?(役割|機能|内容|用途)/,
        /(すべて|全て|全部|各)[^。？！?!]*ファイル[^。？！?!]*(読|見|要約|まとめ)/,
      ],
    },
  },
];

/** Which of the sample prompts a text asks for (by intent, any case, any language), or `explore`. */
export function intentOf(text: string): Intent {
  const t = text.toLowerCase();
  for (const { intent, patterns } of INTENTS) {
    if (LANGS.some((lang) => patterns[lang].some((p) => p.test(t)))) return intent;
  }
  return 'explore';
}

/**
 * Whether a prompt asks for the whole answer in one line or sentence ("read every file and tell me
 * in one sentence what it is"): the subagent then reads every file and returns one line, the way
 * to see isolation save most (the parent keeps the line, a single agent every file).
 */
export function briefOf(text: string): boolean {
  return /\bin one (?:line|sentence)\b|一句话|一行|一文で|一行で/i.test(text);
}

/** Languages named in words, for "summarize every Python file" / 「所有 Python 文件」. */
const LANGUAGE_NAMES: ReadonlyArray<{ ext: string; pattern: RegExp }> = [
  { ext: 'py', pattern: /\bpython\b/i },
  { ext: 'ts', pattern: /\btypescript\b/i },
  { ext: 'js', pattern: /\bjavascript\b/i },
];

/** `.py` in "read all .py files" (or a language named in words); undefined when none is named. */
export function extensionOf(text: string): string | undefined {
  // CJK text puts no space before `.py`: 「所有的.py文件」.
  const dotted =
    /(?:^|[\s(`'"\p{Script=Han}\u3000-\u30ff\uff00-\uffef])\*?\.([a-z][a-z0-9]{0,4})(?![a-z0-9])/iu.exec(
      text,
    );
  if (dotted) return dotted[1].toLowerCase();
  return LANGUAGE_NAMES.find((n) => n.pattern.test(text))?.ext;
}
