/** Tests for src/stats.ts: the counts and the most common words. */
import { describe, expect, it } from 'vitest';
import { countLines, summarize, topWords } from '../src/stats';

const SAMPLE = 'The cat sat.\nThe cat ran!\n\nA dog sat, too.\n';

describe('countLines', () => {
  it('counts a last line without a newline', () => {
    expect(countLines('a\nb')).toBe(2);
    expect(countLines('a\nb\n')).toBe(2);
    expect(countLines('')).toBe(0);
  });
});

describe('summarize', () => {
  it('counts lines, words and characters', () => {
    expect(summarize(SAMPLE)).toEqual({ lines: 4, words: 10, chars: 43 });
  });
});

describe('topWords', () => {
  it('lists the most common first, ties alphabetical', () => {
    expect(topWords(SAMPLE, 3)).toEqual([
      ['cat', 2],
      ['sat', 2],
      ['the', 2],
    ]);
  });

  it('returns nothing for zero or a negative count', () => {
    expect(topWords('a a b', 0)).toEqual([]);
    expect(topWords('a a b', -1)).toEqual([]);
  });
});
