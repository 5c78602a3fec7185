import { describe, expect, it } from 'vitest';
import { browserLanguage, chooseLanguage } from './language';
import { readUrlSettings } from './url-settings';

describe('browserLanguage', () => {
  it('takes the first of the browser languages that the screen has', () => {
    expect(browserLanguage(['zh-CN', 'en-US'])).toBe('zh');
    expect(browserLanguage(['zh-TW'])).toBe('zh');
    expect(browserLanguage(['ZH_hans'])).toBe('zh');
    expect(browserLanguage(['ja-JP', 'zh-CN'])).toBe('ja');
    expect(browserLanguage(['fr-FR', 'ja', 'en'])).toBe('ja');
    expect(browserLanguage(['de-DE', 'en-GB', 'zh'])).toBe('en');
  });

  it('falls back to English for languages it does not have, or none', () => {
    expect(browserLanguage(['fr-FR', 'de'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
    // A tag that only starts like one of ours is not it.
    expect(browserLanguage(['jav', 'zha'])).toBe('en');
  });
});

describe('chooseLanguage', () => {
  it('uses the URL over the stored choice over the browser', () => {
    expect(chooseLanguage({ url: 'ja', stored: 'zh', browser: ['en-US'] })).toBe('ja');
    expect(chooseLanguage({ stored: 'zh', browser: ['ja-JP'] })).toBe('zh');
    expect(chooseLanguage({ stored: null, browser: ['ja-JP'] })).toBe('ja');
  });

  it('ignores a stored value that is not a language it has', () => {
    expect(chooseLanguage({ stored: 'klingon', browser: ['zh-CN'] })).toBe('zh');
    expect(chooseLanguage({ stored: '', browser: [] })).toBe('en');
  });
});

describe('readUrlSettings: lang', () => {
  it('reads en, zh and ja', () => {
    expect(readUrlSettings('?lang=zh').lang).toBe('zh');
    expect(readUrlSettings('?lang=ja').lang).toBe('ja');
    expect(readUrlSettings('?lang=en').lang).toBe('en');
    expect(readUrlSettings('').lang).toBeUndefined();
  });

  it('reports an unknown value as ignored, and the choice falls back to the browser', () => {
    const url = readUrlSettings('?lang=xx&speed=instant');
    expect(url).toMatchObject({ lang: undefined, ignored: ['lang=xx'], speed: 'instant' });
    expect(chooseLanguage({ url: url.lang, stored: null, browser: ['ja'] })).toBe('ja');
  });
});
