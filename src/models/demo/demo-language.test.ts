import { describe, expect, it } from 'vitest';
import { parentLoop, runSubagent, type TaskRequest } from '../../core/loop';
import type { Message, ToolUseBlock } from '../../core/messages';
import type { ModelCallOptions, ModelClient, ModelRequest, ModelResponse } from '../../core/model';
import { baseToolHandlers } from '../../core/tools';
import { create } from '../../sandbox/local';
import { loadSample } from '../../sandbox/samples';
import { DemoModel } from './index';
import { extensionOf, intentOf, INTENTS, LANGS, languageOf, type Lang } from './language';
import { DEMO_TEXT } from './say';

/** Records what a loop's model answered (one per loop, like the workers). */
class Recorder implements ModelClient {
  readonly label = 'demo';
  readonly responses: ModelResponse[] = [];
  readonly inner = new DemoModel({ speed: 'instant' });
  async createMessage(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
    const response = await this.inner.createMessage(request, options);
    this.responses.push(structuredClone(response));
    return response;
  }
}

interface Run {
  answer: string;
  history: Message[];
  tasks: TaskRequest[];
  parentCalls: ToolUseBlock[];
  childCalls: ToolUseBlock[][];
  summaries: string[];
}

/** One prompt through the real loops on a fresh copy of a sample project. */
async function run(sample: 'python' | 'typescript', prompt: string): Promise<Run> {
  const sandbox = await create(await loadSample(sample));
  const handlers = baseToolHandlers(sandbox);
  const parent = new Recorder();
  const children: Recorder[] = [];
  const tasks: TaskRequest[] = [];
  const summaries: string[] = [];
  const history: Message[] = [];
  const result = await parentLoop(prompt, {
    model: parent,
    modelName: 'demo',
    workdir: sandbox.workdir,
    baseHandlers: handlers,
    history,
    onEvent: () => {},
    runTask: async (task, signal) => {
      tasks.push(task);
      const child = new Recorder();
      children.push(child);
      const summary = await runSubagent(task.prompt, {
        agent: `subagent-${children.length}`,
        model: child,
        modelName: 'demo',
        workdir: sandbox.workdir,
        baseHandlers: handlers,
        signal,
        onEvent: () => {},
      });
      summaries.push(summary);
      return summary;
    },
  });
  const uses = (r: Recorder) =>
    r.responses.flatMap((m) => m.content.filter((b): b is ToolUseBlock => b.type === 'tool_use'));
  return {
    answer: result.last.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
    history,
    tasks,
    parentCalls: uses(parent),
    childCalls: children.map(uses),
    summaries,
  };
}

/** A tool call without its fresh id; a `task` call without its (language-dependent) text. */
function call(use: ToolUseBlock): unknown {
  return use.name === 'task' ? { name: 'task' } : { name: use.name, input: use.input };
}

const HAN = /\p{Script=Han}/u;
const KANA = /[\u3040-\u30ff]/;

/** Written in `lang`: Chinese has Han and no kana, Japanese has kana, English neither. */
function expectLanguage(text: string, lang: Lang): void {
  if (lang === 'zh') {
    expect(text).toMatch(HAN);
    expect(text).not.toMatch(KANA);
  } else if (lang === 'ja') {
    expect(text).toMatch(KANA);
  } else {
    expect(text).not.toMatch(HAN);
    expect(text).not.toMatch(KANA);
  }
}

const ENGLISH = {
  framework: 'Use a subtask to find what testing framework this project uses',
  summarize: (ext: string) => `Delegate: read all .${ext} files and summarize what each one does`,
  create: 'Use a task to create a new module, then verify it from here',
};

const PROMPTS: Record<
  'zh' | 'ja',
  { framework: string[]; summarize: (ext: string) => string[]; create: string[] }
> = {
  zh: {
    framework: ['用子任务找出这个项目用的测试框架'],
    summarize: (ext) => [`委派：阅读所有 .${ext} 文件并总结每个文件的作用`],
    create: ['用一个任务创建一个新模块，然后在这里验证它'],
  },
  ja: {
    framework: ['サブタスクでこのプロジェクトのテストフレームワークを調べて'],
    summarize: (ext) => [`委任：すべての .${ext} ファイルを読んで、それぞれの役割を要約して`],
    create: ['タスクで新しいモジュールを作成し、ここで検証して'],
  },
};

describe('the language tables', () => {
  it('give every intent patterns in every language, and every language the same templates', () => {
    for (const { intent, patterns } of INTENTS) {
      for (const lang of LANGS) expect(patterns[lang]?.length, `${intent} in ${lang}`).toBeGreaterThan(0);
    }
    /** The shape of a template tree: which keys, and whether each is text, a function or a pattern. */
    const shape = (value: unknown): unknown => {
      if (typeof value === 'string') return value.trim() ? 'text' : 'EMPTY';
      if (typeof value === 'function' || value instanceof RegExp)
        return typeof value === 'function' ? 'fn' : 're';
      return Object.fromEntries(
        Object.entries(value as object)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, v]) => [k, shape(v)]),
      );
    };
    for (const lang of LANGS) expect(shape(DEMO_TEXT[lang]), lang).toEqual(shape(DEMO_TEXT.en));
  });

  it("write task prompts a subagent reads back as the same intent, in the parent's language", () => {
    for (const lang of LANGS) {
      const t = DEMO_TEXT[lang];
      const written = {
        framework: t.frameworkTask.prompt(),
        summarize: t.summarizeTask.prompt('py'),
        create: t.createTask.prompt(),
        explore: t.exploreTask.prompt(
          lang === 'en' ? 'what is this?' : lang === 'zh' ? '这是什么？' : 'これは何？',
        ),
      };
      for (const [intent, prompt] of Object.entries(written)) {
        // The subagent decides from the first line (later lines may quote the user).
        expect(intentOf(prompt.split('\n')[0]), `${lang} ${intent}`).toBe(intent);
        expect(languageOf(prompt), `${lang} ${intent}`).toBe(lang);
      }
      expect(extensionOf(t.summarizeTask.prompt('py').split('\n')[0])).toBe('py');
      expect(extensionOf(t.summarizeTask.prompt(undefined).split('\n')[0])).toBeUndefined();
    }
  });

  it("read back what each language's report says it read", () => {
    for (const lang of LANGS) {
      const line = DEMO_TEXT[lang].readStats(3, '1,234');
      expect(DEMO_TEXT[lang].readStatsPattern.exec(line)?.slice(1, 3), lang).toEqual(['3', '1,234']);
    }
  });

  it('tells the language from the script: kana is Japanese, Han alone Chinese', () => {
    expect(languageOf('用子任务找出这个项目用的测试框架')).toBe('zh');
    expect(languageOf('委派：阅读所有 .py 文件并总结每个文件的作用')).toBe('zh');
    expect(languageOf('サブタスクでこのプロジェクトのテストフレームワークを調べて')).toBe('ja');
    expect(languageOf('委任：すべての .py ファイルを読んで、それぞれの役割を要約して')).toBe('ja');
    expect(languageOf(ENGLISH.framework)).toBe('en');
    // A Chinese file name quoted in an English request does not make it Chinese.
    expect(languageOf('Summarize what the file 说明.md says about the tests')).toBe('en');
    expect(languageOf('用 pytest 跑一下测试')).toBe('zh');
  });

  it('recognises the sample prompts and their variants in Chinese and Japanese', () => {
    const cases: Array<[string, string]> = [
      ['用子任务找出这个项目用的测试框架', 'framework'],
      ['这个项目的测试用的是什么框架？', 'framework'],
      ['サブタスクでこのプロジェクトのテストフレームワークを調べて', 'framework'],
      ['このプロジェクトはどのテストランナーを使っていますか', 'framework'],
      ['委派：阅读所有 .py 文件并总结每个文件的作用', 'summarize'],
      ['委派：阅读所有 .ts 文件并总结每个文件的作用', 'summarize'],
      ['总结一下每个文件是做什么的', 'summarize'],
      ['委任：すべての .py ファイルを読んで、それぞれの役割を要約して', 'summarize'],
      ['委任：すべての .ts ファイルを読んで、それぞれの役割を要約して', 'summarize'],
      ['用一个任务创建一个新模块，然后在这里验证它', 'create'],
      ['用任务新建一个模块，再在这里检查', 'create'],
      ['タスクで新しいモジュールを作成し、ここで検証して', 'create'],
      ['サブタスクでモジュールを作ってから、ここで確認して', 'create'],
      ['把代码改成使用 dataclass', 'explore'],
      ['README を書いて', 'explore'],
    ];
    for (const [prompt, intent] of cases) expect(intentOf(prompt), prompt).toBe(intent);
    expect(extensionOf('委派：阅读所有的.py文件')).toBe('py');
    expect(extensionOf('すべての.tsファイルを読んで')).toBe('ts');
    expect(extensionOf('总结所有 Python 文件')).toBe('py');
    expect(extensionOf('总结每个文件')).toBeUndefined();
  });
});

for (const sample of ['python', 'typescript'] as const) {
  const ext = sample === 'python' ? 'py' : 'ts';
  const framework = sample === 'python' ? 'pytest' : 'vitest';
  const english = new Map<string, Promise<Run>>();
  const inEnglish = (prompt: string) => {
    if (!english.has(prompt)) english.set(prompt, run(sample, prompt));
    return english.get(prompt)!;
  };

  describe(`DemoModel in Chinese and Japanese, ${sample} sample`, () => {
    for (const lang of ['zh', 'ja'] as const) {
      const t = DEMO_TEXT[lang];

      for (const prompt of PROMPTS[lang].framework) {
        it(`finds ${framework} for "${prompt}"`, async () => {
          const [r, en] = await Promise.all([run(sample, prompt), inEnglish(ENGLISH.framework)]);
          expect(r.parentCalls.map(call)).toEqual(en.parentCalls.map(call));
          expect(r.childCalls.map((c) => c.map(call))).toEqual(en.childCalls.map((c) => c.map(call)));
          expect(languageOf(r.tasks[0].prompt)).toBe(lang);
          expectLanguage(r.summaries[0], lang);
          expect(r.summaries[0]).toContain(`${t.labels.framework}${t.colon}**${framework}**`);
          expectLanguage(r.answer, lang);
          expect(r.answer).toContain(t.frameworkUsed(framework));
          expect(r.answer).toContain(t.evidenceFound);
          // The evidence is told in the prompt's language too; only the quoted lines stay as they are.
          const [before, after] = t.evidence.lineOnly(999, '').replace('``', '').split('999');
          expect(r.answer).toMatch(new RegExp(`${before}\\d+${after}\``));
          expect(r.answer).not.toMatch(/\bline \d+:|\bgrep finds\b|\(npm script\)/);
        });
      }

      for (const prompt of PROMPTS[lang].summarize(ext)) {
        it(`summarizes every .${ext} file for "${prompt}"`, async () => {
          const [r, en] = await Promise.all([run(sample, prompt), inEnglish(ENGLISH.summarize(ext))]);
          expect(r.parentCalls.map(call)).toEqual(en.parentCalls.map(call));
          expect(r.childCalls.map((c) => c.map(call))).toEqual(en.childCalls.map((c) => c.map(call)));
          expectLanguage(r.tasks[0].prompt, lang);
          expectLanguage(r.summaries[0], lang);
          expectLanguage(r.answer, lang);
          const read = r.childCalls[0]
            .filter((c) => c.name === 'read_file')
            .map((c) => String((c.input as { path: string }).path));
          expect(read.length).toBeGreaterThan(1);
          for (const path of read) {
            expect(path.endsWith(`.${ext}`)).toBe(true);
            expect(r.answer).toContain(`\`${path}\``);
          }
          expect(r.answer).toContain(t.wentThrough(read.length, ext));
        });
      }

      for (const prompt of PROMPTS[lang].create) {
        it(`creates and verifies a module for "${prompt}"`, async () => {
          const [r, en] = await Promise.all([run(sample, prompt), inEnglish(ENGLISH.create)]);
          expect(r.parentCalls.map(call)).toEqual(en.parentCalls.map(call));
          expect(r.childCalls.map((c) => c.map(call))).toEqual(en.childCalls.map((c) => c.map(call)));
          expectLanguage(r.tasks[0].prompt, lang);
          expectLanguage(r.summaries[0], lang);
          expectLanguage(r.answer, lang);
          const module = (r.childCalls[0].find((c) => c.name === 'write_file')!.input as { path: string })
            .path;
          expect(r.answer).toContain(`\`${module}\``);
          expect(r.answer).toContain(t.createdHeader);
          expect(Object.values(t.verdict).some((v) => r.answer.includes(v))).toBe(true);
        }, 60_000);
      }

      it(`answers an unrecognised ${lang} prompt with an exploration in ${lang}`, async () => {
        const prompt = lang === 'zh' ? '这个项目是做什么的？' : 'このプロジェクトは何をするものですか？';
        const r = await run(sample, prompt);
        expect(r.tasks[0].prompt).toContain(prompt);
        expectLanguage(r.summaries[0], lang);
        expectLanguage(r.answer, lang);
        expect(r.answer).toContain(t.demoNote);
        expect(r.answer).toContain(sample === 'python' ? 'pyproject.toml' : 'package.json');
      });
    }
  });
}
