/**
 * The three sample prompts, in the screen's language. In English they are docs/protocol.md's exact
 * text; in Chinese and Japanese, their translations, which the demo model understands (its intents and
 * the extension asked for: src/models/demo/language.ts, checked in sample-prompts.test.ts). The
 * buttons that send them are named by exactly this text (docs/automation-contract.md).
 */
import type { SampleName } from '../sandbox/samples';
import { LANGUAGES, type Language } from '../settings/language';

/** Each language's prompts, given the sample project's extension (`.py`, `.ts`). */
const PROMPTS: Record<Language, (ext: string) => string[]> = {
  en: (ext) => [
    'Use a subtask to find what testing framework this project uses',
    `Delegate: read all ${ext} files and summarize what each one does`,
    'Use a task to create a new module, then verify it from here',
  ],
  zh: (ext) => [
    '用子任务找出这个项目用的测试框架',
    `委派：读取所有 ${ext} 文件，总结每个文件的作用`,
    '用一个任务创建新模块，然后在这里验证它',
  ],
  ja: (ext) => [
    'サブタスクでこのプロジェクトのテストフレームワークを調べて',
    `委任：すべての ${ext} ファイルを読んで、それぞれの役割を要約して`,
    'タスクで新しいモジュールを作って、ここで検証して',
  ],
};

/** The sample prompts of `sample`'s project in `language` (in English, the ones docs/protocol.md lists). */
export function samplePrompts(sample: SampleName, language: Language = 'en'): string[] {
  return PROMPTS[language](sample === 'typescript' ? '.ts' : '.py');
}

/**
 * The prompt that explores more (the Comparison offers it): every file of the sample is read and
 * one sentence comes back, so isolation saves most. The demo model understands it in each language
 * (`briefOf` in src/models/demo/language.ts).
 */
const EXPLORES_MORE: Record<Language, string> = {
  en: 'Delegate: read every file of this project and tell me in one sentence what it is',
  zh: '委派：读取这个项目的所有文件，用一句话告诉我它是什么',
  ja: '委任：このプロジェクトのすべてのファイルを読んで、それが何か一文で教えて',
};

/** The prompt that explores more, in `language`. */
export function exploresMore(language: Language = 'en'): string {
  return EXPLORES_MORE[language];
}

/** Which sample prompt `prompt` is (1 to 3) for `sample`, in any of the screen's languages, or null. */
export function sampleNumber(prompt: string, sample: SampleName): number | null {
  const text = prompt.trim();
  for (const language of LANGUAGES) {
    const i = samplePrompts(sample, language).indexOf(text);
    if (i >= 0) return i + 1;
  }
  return null;
}

/** Whether `prompt` is the one that explores more, in any of the screen's languages. */
export function isExploring(prompt: string): boolean {
  return LANGUAGES.some((language) => exploresMore(language) === prompt.trim());
}

/** The tutorial's figure for prompt 1: the parent keeps about 330 tokens instead of about 2,750. */
export const TUTORIAL = { isolated: 330, none: 2750, saving: 88 };
