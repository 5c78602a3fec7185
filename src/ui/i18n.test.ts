import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { differences, type Tree } from '../../test/locale-keys';
import { RecordError, type RecordProblem } from '../run/check';
import { StorageProblem, type StorageProblemCode } from '../run/store';
import { DEFAULTS, settingsProblem } from '../settings/model-settings';
import type { Language } from '../settings/language';
import { forgetTranslations, loadLanguage, resolvedByI18next, resources, t } from './i18n';
import { locale } from './language.svelte';
import { say, sentenceOf } from './sentence';

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
          expect(t('column.contextApi', { count })).toContain(new Original('en').format(count));
        expect(t('column.contextApi', { count: 1_234_567 })).toContain('1,234,567');
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

describe('strings filled in without i18next', () => {
  it('renumbers a string of plain values without i18next, and still asks it for plurals', () => {
    forgetTranslations();
    const before = resolvedByI18next.count;
    for (let n = 1; n <= 200; n++) expect(t('modelCall.button', { n })).toBe(`Model call ${n}`);
    expect(resolvedByI18next.count).toBe(before);
    expect(t('column.messages', { count: 3 })).toBe('3 messages');
    expect(resolvedByI18next.count).toBe(before + 1);
    // Numbers written in the language's way, as i18next's formatter writes them.
    expect(t('column.inputParts', { uncached: 1_234_567, cacheRead: 89, cacheWrite: 0 })).toBe(
      '(API: 1,234,567 uncached · 89 cache read · 0 cache written)',
    );
    expect(resolvedByI18next.count).toBe(before + 1);
  });

  /** Every key of a tree, dotted, with its string. */
  function strings(node: Tree, prefix = ''): [string, string][] {
    return Object.entries(node).flatMap(([key, value]) =>
      typeof value === 'string' ? [[`${prefix}${key}`, value]] : strings(value as Tree, `${prefix}${key}.`),
    );
  }

  it('read exactly as i18next says them, for every key of every language, whatever the values', async () => {
    // A second instance of i18next, set up alone, as the reference.
    const reference = i18next.createInstance();
    await reference.init({
      lng: 'en',
      fallbackLng: 'en',
      resources: { en: resources.en, zh: resources.zh!, ja: resources.ja! },
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    let compared = 0;
    for (const language of ['en', 'zh', 'ja'] as const) {
      locale.current = language;
      forgetTranslations();
      for (const [key, text] of strings(tree(language))) {
        if (/_(zero|one|two|few|many|other)$/.test(key)) continue;
        const names = [...text.matchAll(/\{\{(\w+)(?:, \w+)?\}\}/g)].map((m) => m[1]);
        for (const values of [
          Object.fromEntries(names.map((name, i) => [name, 812 + i])),
          Object.fromEntries(names.map((name, i) => [name, 1_234_567.5 + i])),
          Object.fromEntries(names.map((name) => [name, `<b>${name} & {{x}}</b>`])),
        ]) {
          expect(t(key, values), `${language} ${key}`).toBe(reference.t(key, { ...values, lng: language }));
          compared++;
        }
      }
    }
    // A value left out reads as i18next leaves it.
    locale.current = 'en';
    expect(t('modelCall.button', {})).toBe(reference.t('modelCall.button', { lng: 'en' }));
    expect(compared).toBeGreaterThan(1000);
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
    messageTooBig: ['messageTooBig', { event: 2, type: 'message', size: '20.0 MB', max: '8.0 MB' }],
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
    tooManyEvents: ['tooManyEvents', { events: 400_001, max: 400_000 }],
    cancelled: ['cancelled'],
    readFailed: ['readFailed', { reason: 'Out of memory' }],
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

describe('values set into a sentence', () => {
  it('lose their direction controls, so that they cannot turn the words around them', () => {
    const hostile = 'a\u202Eevil\u202C b\u2067c\u2069 d\u202Ae\u202Bf\u202D';
    expect(t('status.failed', { reason: hostile })).toBe('Failed: aevil bc def');
    expect(
      say({ key: 'notice.cannotOpen', params: { name: '\u202Erun.json', reason: { text: '\u2066x' } } }),
    ).toBe('Cannot open run.json: x.');
    // Plain values come through as they are.
    expect(t('status.failed', { reason: 'ordinary (RTL: \u05e9\u05dc\u05d5\u05dd)' })).toBe(
      'Failed: ordinary (RTL: \u05e9\u05dc\u05d5\u05dd)',
    );
  });
});
