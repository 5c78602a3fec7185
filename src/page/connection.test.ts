import { describe, expect, it } from 'vitest';
import { meteredOrSlow } from './connection';

describe('meteredOrSlow', () => {
  it('is true when the browser asks to save data, or the connection is slower than 4g', () => {
    expect(meteredOrSlow({ saveData: true, effectiveType: '4g' })).toBe(true);
    for (const effectiveType of ['slow-2g', '2g', '3g'])
      expect(meteredOrSlow({ saveData: false, effectiveType })).toBe(true);
  });

  it('is false on 4g, and where the browser says nothing of its connection', () => {
    expect(meteredOrSlow({ saveData: false, effectiveType: '4g' })).toBe(false);
    expect(meteredOrSlow({})).toBe(false);
    expect(meteredOrSlow(undefined)).toBe(false);
  });
});
