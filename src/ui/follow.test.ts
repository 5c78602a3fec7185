import { afterEach, describe, expect, it, vi } from 'vitest';
import { atEnd, userInput } from './follow';

describe('atEnd', () => {
  it('counts a scroller as at its end within the slack, and not beyond it', () => {
    // 1000 px of content, a 400 px viewport: the end is at offset 600.
    expect(atEnd(1000, 600, 400, 48)).toBe(true);
    expect(atEnd(1000, 553, 400, 48)).toBe(true);
    expect(atEnd(1000, 552, 400, 48)).toBe(false);
    expect(atEnd(1000, 0, 400, 48)).toBe(false);
  });
});

describe('userInput', () => {
  afterEach(() => vi.useRealTimers());

  it('is not recent before any input, even in the page’s first second', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    expect(performance.now()).toBe(0);
    expect(userInput().recent()).toBe(false);
  });

  it('is recent for a second after a wheel, touch, pointer or key, and not once unwatched', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    vi.advanceTimersByTime(5000);
    const element = new EventTarget() as unknown as HTMLElement;
    for (const name of ['wheel', 'touchmove', 'pointerdown', 'keydown']) {
      const input = userInput();
      const stop = input.watch(element);
      element.dispatchEvent(new Event(name));
      expect(input.recent(), name).toBe(true);
      vi.advanceTimersByTime(999);
      expect(input.recent(), name).toBe(true);
      vi.advanceTimersByTime(1);
      expect(input.recent(), name).toBe(false);
      stop();
      element.dispatchEvent(new Event(name));
      expect(input.recent(), name).toBe(false);
    }
  });
});
