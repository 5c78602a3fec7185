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

  it("presenting, begins with the run's own word and says which moment it is paused at", () => {
    const presenting = { at: 3, of: 9 };
    const at = { step: 20, steps: 51 };
    // A live run waiting for Continue is not "Running…" (at work): it runs, paused.
    expect(statusText({ kind: 'running' }, { presenting, at, working: 'subagent-1' })).toBe(
      'Running · Presenting: paused at moment 3 of 9',
    );
    expect(statusText({ kind: 'finished' }, { presenting, at })).toBe(
      'Finished · Presenting: paused at moment 3 of 9',
    );
    locale.current = 'zh';
    expect(statusText({ kind: 'running' }, { presenting })).toBe(
      '运行中 · 演示中：停在第 3 个关键时刻，共 9 个',
    );
    locale.current = 'ja';
    expect(statusText({ kind: 'finished' }, { presenting })).toBe('完了 · プレゼン中：要所 3 / 9 で一時停止');
  });
});
