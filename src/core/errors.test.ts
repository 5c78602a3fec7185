import { describe, expect, it } from 'vitest';
import { messageOf } from './errors';

describe('messageOf', () => {
  it("gives an Error's own message, without its name", () => {
    expect(messageOf(new TypeError('no such file'))).toBe('no such file');
  });

  it('gives a thrown string as it is', () => {
    expect(messageOf('network down')).toBe('network down');
  });

  it('turns any other thrown value into text', () => {
    expect(messageOf(42)).toBe('42');
    expect(messageOf(undefined)).toBe('undefined');
    expect(messageOf({ toString: () => 'custom' })).toBe('custom');
  });
});
