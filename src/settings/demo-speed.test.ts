import { describe, expect, it } from 'vitest';
import { DEMO_SPEED_KEY, loadDemoSpeed, saveDemoSpeed } from './demo-speed';
import { readUrlSettings } from './url-settings';

/** A storage in memory. */
function memory(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
  } as Storage;
}

describe("the demo model's pace", () => {
  it('is the kept one, unless the URL names one; normal when neither does', () => {
    const storage = memory();
    expect(loadDemoSpeed(storage, readUrlSettings(''))).toBe('normal');
    expect(saveDemoSpeed(storage, 'slow')).toBe(true);
    expect(storage.getItem(DEMO_SPEED_KEY)).toBe('slow');
    expect(loadDemoSpeed(storage, readUrlSettings(''))).toBe('slow');
    expect(loadDemoSpeed(storage, readUrlSettings('?speed=instant'))).toBe('instant');
    // A speed the URL gets wrong does not override the kept one.
    expect(loadDemoSpeed(storage, readUrlSettings('?speed=crawl'))).toBe('slow');
  });

  it('ignores a kept value it does not know, and a storage that refuses', () => {
    const storage = memory();
    storage.setItem(DEMO_SPEED_KEY, 'warp');
    expect(loadDemoSpeed(storage, readUrlSettings(''))).toBe('normal');
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(loadDemoSpeed(refusing, readUrlSettings(''))).toBe('normal');
    expect(saveDemoSpeed(refusing, 'slow')).toBe(false);
    expect(saveDemoSpeed(undefined, 'slow')).toBe(false);
  });
});
