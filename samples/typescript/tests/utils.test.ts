/** Tests for src/utils.ts: tokenizing and pluralizing. */
import { describe, expect, it } from 'vitest';
import { plural, tokenize } from '../src/utils';

describe('tokenize', () => {
  it('lowercases and drops punctuation', () => {
    expect(tokenize('Hello, World! Hello.')).toEqual(['hello', 'world', 'hello']);
  });

  it('keeps apostrophes inside words', () => {
    expect(tokenize("Don't stop 'til 2am")).toEqual(["don't", 'stop', 'til', '2am']);
  });

  it('returns no words for blank text', () => {
    expect(tokenize('  \n\t ')).toEqual([]);
  });
});

describe('plural', () => {
  it('adds an s except for one', () => {
    expect(plural(1, 'word')).toBe('1 word');
    expect(plural(0, 'word')).toBe('0 words');
    expect(plural(3, 'line')).toBe('3 lines');
  });
});
