import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RecordError, type RecordProblem } from '../run/check';
import { StorageProblem, type StorageProblemCode } from '../run/store';
import { DEFAULTS, settingsProblem } from '../settings/model-settings';
import type { Language } from '../settings/language';
import { forgetTranslations, loadLanguage, resources, t } from './i18n';
import { locale } from './language.svelte';
import { say, sentenceOf } from './sentence';

type Tree = { [key: string]: string | Tree };

/** Every key of a locale as `a.b.c`, with the `{{values}}` its text uses. */
function flatten(tree: Tree, prefix = ''): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') {
      const names = [...value.matchAll(/\{\{\s*([\w]+)[^}]*\}\}/g)].map((m) => m[1]);
      out.set(path, [...new Set(names)].sort());
    } else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

/**
 * What is wrong with a locale's keys, compared with English's: a key the screen asks for that it
 * lacks or has extra, a `{{value}}` it drops or invents, a plural form the language does not use.
 * A plural key (`x_one`, `x_other`) counts as `x`: English needs `_one` and `_other`; Chinese and
 * Japanese have one form, `_other`, for any count.
 */
function differences(english: Tree, other: Tree, otherForms: string[]): string[] {
  const problems: string[] = [];
  const asked = (tree: Tree, forms: string[], name: string) => {
    const flat = flatten(tree);
    const out = new Map<string, string[]>();
    for (const [key, names] of flat) {
      const form = PLURAL.exec(key)?.[1];
      if (!form) {
        out.set(key, names);
        continue;
      }
      const base = key.slice(0, -form.length - 1);
      if (!forms.includes(form)) problems.push(`${name}: ${key} is not a plural form of this language`);
      for (const needed of forms) {
        if (!flat.has(`${base}_${needed}`)) problems.push(`${name}: ${base}_${needed} is missing`);
      }
      // `count` is given by whoever asks for a plural, whether or not the text shows it.
      out.set(base, [...new Set([...(out.get(base) ?? []), ...names, 'count'])].sort());
    }
    return out;
  };
  const en = asked(english, ['one', 'other'], 'en');
  const theirs = asked(other, otherForms, 'other');
  for (const [key, names] of en) {
    const their = theirs.get(key);
    if (!their) problems.push(`missing: ${key}`);
    else if (their.join() !== names.join()) problems.push(`${key}: uses {{${their}}}, English {{${names}}}`);
  }
  for (const key of theirs.keys()) if (!en.has(key)) problems.push(`not in English: ${key}`);
  return [...new Set(problems)];
}

const tree = (language: Language) => resources[language]!.translation as unknown as Tree;

beforeAll(async () => {
  await loadLanguage('zh');
  await loadLanguage('ja');
});

afterEach(() => {
  locale.current = 'en';
});

describe('the locales', () => {
  it.each(['zh', 'ja'] as const)(
    '%s has every English key and no other, with the same values',
    (language) => {
      expect(differences(tree('en'), tree(language), ['other'])).toEqual([]);
    },
  );

  it('the comparison finds a missing key, a dropped value and a wrong plural form', () => {
    const zh = structuredClone(tree('zh'));
    delete (zh.language as Tree).label;
    (zh.status as Tree).failed = '失败';
    (zh.column as Tree).messages_one = '{{count}} 条消息';
    expect(differences(tree('en'), zh, ['other'])).toEqual([
      'other: column.messages_one is not a plural form of this language',
      'status.failed: uses {{}}, English {{reason}}',
      'missing: language.label',
    ]);
    const en = structuredClone(tree('en'));
    delete (en.column as Tree).messages_one;
    expect(differences(en, tree('en'), ['one', 'other'])).toContain('en: column.messages_one is missing');
  });

  it('says plurals in each language', () => {
    expect(t('column.messages', { count: 1 })).toBe('1 message');
    expect(t('column.messages', { count: 2 })).toBe('2 messages');
    locale.current = 'zh';
    expect(t('column.messages', { count: 1 })).toBe('1 条消息');
    locale.current = 'ja';
    expect(t('column.messages', { count: 3 })).toBe('3 件のメッセージ');
  });

  it('follows the current language, and falls back to English for a key a language lacks', () => {
    expect(t('prompt.run')).toBe('Run');
    locale.current = 'zh';
    expect(t('prompt.run')).toBe('运行');
    locale.current = 'ja';
    expect(t('prompt.run')).toBe('実行');
    expect(t('status.failed', { reason: 'boom' })).toBe('失敗：boom');
    const zh = resources.zh!.translation as unknown as Tree;
    const saved = (zh.prompt as Tree).run;
    delete (zh.prompt as Tree).run;
    forgetTranslations();
    try {
      locale.current = 'zh';
      expect(t('prompt.run')).toBe('Run');
    } finally {
      (zh.prompt as Tree).run = saved;
      forgetTranslations();
    }
  });

  it("writes counts with the language's separators, with one number formatter per language", () => {
    const Original = Intl.NumberFormat;
    let made = 0;
    Intl.NumberFormat = function (...args: ConstructorParameters<typeof Original>) {
      made++;
      return new Original(...args);
    } as unknown as typeof Intl.NumberFormat;
    try {
      for (const language of ['en', 'zh', 'ja'] as const) {
        locale.current = language;
        for (let count = 1000; count < 1100; count++)
          expect(t('column.tokensApi', { count })).toContain(new Original('en').format(count));
        expect(t('column.tokensApi', { count: 1_234_567 })).toContain('1,234,567');
      }
    } finally {
      Intl.NumberFormat = Original;
    }
    expect(made).toBeLessThanOrEqual(3);
  });

  it('gives the same strings when asked again: by language, key, values and their types', () => {
    for (let i = 0; i < 2; i++) {
      locale.current = 'en';
      expect(t('column.messages', { count: 1 })).toBe('1 message');
      expect(t('column.messages', { count: 2 })).toBe('2 messages');
      expect(t('status.failed', { reason: 'boom' })).toBe('Failed: boom');
      expect(t('status.failed', { reason: 'x'.repeat(600) })).toBe(`Failed: ${'x'.repeat(600)}`);
      locale.current = 'zh';
      expect(t('column.messages', { count: 1 })).toBe('1 条消息');
      expect(t('status.failed', { reason: 'boom' })).toBe('失败：boom');
    }
  });
});

describe('errors of the pure modules, said on the screen', () => {
  const records: { [C in RecordProblem]: ConstructorParameters<typeof RecordError<C>> } = {
    notObject: ['notObject'],
    wrongFormat: ['wrongFormat', { format: '"other"' }],
    newerVersion: ['newerVersion', { version: 9, supported: 2 }],
    secretField: ['secretField', { field: 'apiKey' }],
    shape: ['shape', { at: 'events.0.type', expected: '"message" | "log"', received: '"other"' }],
    tooBig: ['tooBig', { size: '30 MB', max: '25 MB' }],
    notJson: ['notJson', { at: 12 }],
    notJsonToken: ['notJsonToken', { token: '"h"' }],
    notJsonEnd: ['notJsonEnd'],
    timeBackwards: ['timeBackwards', { event: 3, type: 'message' }],
    spawnedTwice: ['spawnedTwice', { event: 4, type: 'spawn', agent: 'subagent-1' }],
    neverExisted: ['neverExisted', { event: 4, type: 'spawn', agent: 'subagent-9' }],
    neverSpawned: ['neverSpawned', { event: 5, type: 'message', agent: 'subagent-2' }],
    messageGap: ['messageGap', { event: 6, type: 'message', index: 4, agent: 'parent', expected: 2 }],
    orphanResult: ['orphanResult', { event: 7, type: 'message', id: 'toolu_1' }],
    toolNotStarted: ['toolNotStarted', { event: 8, type: 'tool_end', id: 'toolu_2', agent: 'parent' }],
    unknownTask: ['unknownTask', { event: 9, type: 'task_end', id: 'toolu_3' }],
    deltaWithoutBlock: ['deltaWithoutBlock', { event: 10, type: 'stream', index: 1, agent: 'subagent-1' }],
    rewrittenAfterFinish: ['rewrittenAfterFinish', { event: 11, type: 'message', index: 0, agent: 'parent' }],
  };

  it('a record refusal reads in English exactly as RecordError says it, and in Chinese and Japanese', () => {
    expect(Object.keys(records).sort()).toEqual(
      Object.keys((resources.en.translation as unknown as Tree).record).sort(),
    );
    for (const args of Object.values(records)) {
      const error = new (RecordError as new (...a: unknown[]) => RecordError)(...args);
      expect(say(sentenceOf(error))).toBe(error.message);
      locale.current = 'zh';
      const zh = say(sentenceOf(error));
      locale.current = 'ja';
      const ja = say(sentenceOf(error));
      locale.current = 'en';
      expect(zh).not.toBe(error.message);
      expect(ja).not.toBe(error.message);
      expect(zh).not.toMatch(/\{\{|record\./);
      expect(ja).not.toMatch(/\{\{|record\./);
    }
  });

  it('the import notice wraps the reason, said in the same language', () => {
    const notice = {
      key: 'notice.cannotOpen',
      params: { name: 'run.json', reason: sentenceOf(new RecordError('notObject')) },
    };
    expect(say(notice)).toBe('Cannot open run.json: it is not a run: expected a JSON object.');
    locale.current = 'zh';
    expect(say(notice)).toBe('无法打开 run.json：它不是运行记录：应为一个 JSON 对象。');
  });

  it("History's storage problems read in English exactly as StorageProblem says them", () => {
    const codes: StorageProblemCode[] = ['full', 'blocked', 'noIndexedDb', 'gone'];
    expect(codes.sort()).toEqual(Object.keys((resources.en.translation as unknown as Tree).storage).sort());
    for (const code of codes) {
      const problem = new StorageProblem(code, { detail: 'SecurityError' });
      expect(say(sentenceOf(problem))).toBe(problem.message);
      locale.current = 'ja';
      expect(say(sentenceOf(problem))).toMatch(/履歴/);
      locale.current = 'en';
    }
  });

  it('settings problems read in English exactly as settingsProblem says them', () => {
    const anthropic = { ...DEFAULTS, provider: 'anthropic' as const, apiKey: 'sk-test' };
    const problems = [
      settingsProblem({ ...anthropic, apiKey: '' }),
      settingsProblem({ ...anthropic, baseURL: 'nope' }),
      settingsProblem({ ...anthropic, model: '' }),
      settingsProblem({ ...anthropic, thinking: true, thinkingBudget: 5 }),
    ];
    for (const problem of problems) {
      expect(problem).not.toBeNull();
      const sentence = { key: `settingsProblem.${problem!.code}`, params: problem!.params };
      expect(say(sentence)).toBe(problem!.message);
    }
    locale.current = 'zh';
    expect(say({ key: 'settingsProblem.thinkingBudget', params: problems[3]!.params })).toBe(
      '思考预算必须在 1024 到 7999 token 之间。',
    );
  });

  it('a reason from outside is shown as it came', () => {
    locale.current = 'ja';
    expect(say(sentenceOf(new Error('Authentication failed (401)')))).toBe('Authentication failed (401)');
  });
});
