import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadLanguage } from './i18n';
import { locale } from './language.svelte';
import { statusText } from './status-text';

beforeAll(async () => {
  await loadLanguage('zh');
  await loadLanguage('ja');
});

afterEach(() => {
  locale.current = 'en';
});

describe('the status line', () => {
  it("at a past step, begins with the run's own state and says which step of how many", () => {
    const at = { step: 20, steps: 51 };
    expect(statusText({ kind: 'finished' }, { at })).toBe('Finished · step 20 of 51');
    expect(statusText({ kind: 'running' }, { at, working: 'subagent-1' })).toBe('Running… · step 20 of 51');
    expect(statusText({ kind: 'stopped', reason: 'x' }, { at })).toMatch(/^Stopped: x · step 20 of 51$/);
    locale.current = 'zh';
    expect(statusText({ kind: 'finished' }, { at })).toBe('已完成 · 第 20 步，共 51 步');
    locale.current = 'ja';
    expect(statusText({ kind: 'finished' }, { at })).toBe('完了 · ステップ 20 / 51');
  });

  it('at the end, says the state alone (and who works, during a run)', () => {
    expect(statusText({ kind: 'finished' })).toBe('Finished');
    expect(statusText({ kind: 'running' }, { working: 'subagent-1' })).toBe(
      'Running… (subagent-1 is working)',
    );
  });

  it('says how the last reply ended when the model did not end it, in every language', () => {
    const endings = [
      { kind: 'finished', ending: 'refusal' },
      { kind: 'finished', ending: 'max_tokens' },
      { kind: 'finished', ending: 'max_tokens', cutTool: true },
      { kind: 'finished', ending: 'model_context_window_exceeded' },
      { kind: 'finished', ending: 'model_context_window_exceeded', cutTool: true },
      { kind: 'finished', ending: 'pause_turn' },
    ] as const;
    expect(endings.map((s) => statusText(s))).toEqual([
      'Finished: the model refused (stop_reason refusal), so its last reply ends there.',
      'Finished: the last reply was cut at max_tokens, so its end is missing.',
      'Finished: the last reply was cut at max_tokens in the middle of a tool call, which was not run.',
      "Finished: the model's context window was full (model_context_window_exceeded), so the last reply was cut.",
      "Finished: the model's context window was full (model_context_window_exceeded) in the middle of a tool call, which was not run.",
      'Finished: the last reply ended with stop_reason pause_turn.',
    ]);
    for (const [lang, first] of [
      ['zh', '已完成：'],
      ['ja', '完了：'],
    ] as const) {
      locale.current = lang;
      const said = endings.map((s) => statusText(s));
      for (const text of said) expect(text.startsWith(first), text).toBe(true);
      expect(new Set(said).size).toBe(endings.length);
      expect(said[5]).toContain('pause_turn');
    }
  });

  it('says when the API broke a reply off with an error event, and that its text is kept', () => {
    const reason = 'The API is overloaded (overloaded_error during the stream): Overloaded. Try again later.';
    expect(statusText({ kind: 'failed', reason, streamError: 'overloaded_error', kept: true })).toBe(
      `Failed: the API broke off the reply with an error event (overloaded_error). ${reason} The text that had arrived is kept, marked cut off.`,
    );
    expect(statusText({ kind: 'failed', reason: 'Lost.', kept: true })).toBe(
      'Failed: Lost. The text that had arrived is kept, marked cut off.',
    );
    expect(statusText({ kind: 'failed', reason: 'Lost.' })).toBe('Failed: Lost.');
    locale.current = 'zh';
    expect(statusText({ kind: 'failed', reason, streamError: 'overloaded_error', kept: true })).toMatch(
      /^失败：API 在回复中途发来错误事件（overloaded_error），回复中断。The API is overloaded .* 已收到的文本保留在屏幕上，标记为被截断。$/,
    );
    locale.current = 'ja';
    expect(statusText({ kind: 'failed', reason, streamError: 'overloaded_error' })).toMatch(
      /^失敗：API が応答の途中でエラーイベント（overloaded_error）を送り/,
    );
  });
});
