import { describe, expect, it } from 'vitest';
import { extensionOf, intentOf, languageOf } from '../models/demo/language';
import { LANGUAGES } from '../settings/language';
import { samplePrompts } from './sample-prompts';

describe('samplePrompts', () => {
  it("are SPEC.md's exact prompts in English", () => {
    expect(samplePrompts('python', 'en')).toEqual([
      'Use a subtask to find what testing framework this project uses',
      'Delegate: read all .py files and summarize what each one does',
      'Use a task to create a new module, then verify it from here',
    ]);
    expect(samplePrompts('typescript')[1]).toBe(
      'Delegate: read all .ts files and summarize what each one does',
    );
  });

  it('are written in Chinese and Japanese on those screens', () => {
    expect(samplePrompts('python', 'zh')[0]).toBe('用子任务找出这个项目用的测试框架');
    expect(samplePrompts('python', 'ja')[0]).toBe(
      'サブタスクでこのプロジェクトのテストフレームワークを調べて',
    );
  });

  for (const language of LANGUAGES) {
    for (const sample of ['python', 'typescript'] as const) {
      it(`in ${language} (${sample}), mean to the demo model what SPEC.md's three prompts mean`, () => {
        const prompts = samplePrompts(sample, language);
        expect(prompts.map(languageOf)).toEqual([language, language, language]);
        expect(prompts.map(intentOf)).toEqual(['framework', 'summarize', 'create']);
        expect(extensionOf(prompts[1])).toBe(sample === 'typescript' ? 'ts' : 'py');
      });
    }
  }
});
