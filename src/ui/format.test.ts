import { describe, expect, it } from 'vitest';
import { LANGUAGE_TAGS } from '../settings/language';
import { compact, formatNumber } from './format';

describe('formatNumber', () => {
  it.each(Object.values(LANGUAGE_TAGS))('writes every count as Intl does in %s', (tag) => {
    const intl = new Intl.NumberFormat(tag);
    const counts = [...Array.from({ length: 2401 }, (_, i) => i - 1200), 0.5, -999.25, 12_345, 1e9];
    for (const n of counts) expect(formatNumber(n, tag)).toBe(intl.format(n));
  });

  it('groups digits from a thousand up', () => {
    expect(formatNumber(999, 'en')).toBe('999');
    expect(formatNumber(1000, 'en')).toBe('1,000');
    expect(formatNumber(1_234_567, 'ja-JP')).toBe('1,234,567');
  });
});

describe('compact', () => {
  it('shortens large counts', () => {
    expect([950, 12_345, 2_500_000].map(compact)).toEqual(['950', '12.3k', '2.5M']);
  });
});
