import { afterEach, describe, expect, it, vi } from 'vitest';
import { atEnd, endFollower, scrollElementToEnd, userInput } from './follow';

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

/** A scroller standing in for an element: its layout reads and its scroll writes, logged in order. */
function fakeScroller(name: string, log: string[], height: number, top = 0, client = 100) {
  const element = {
    get scrollHeight() {
      log.push(`read ${name}`);
      return height;
    },
    get clientHeight() {
      log.push(`read ${name}`);
      return client;
    },
    get scrollTop() {
      log.push(`read ${name}`);
      return top;
    },
    set scrollTop(value: number) {
      log.push(`write ${name}`);
      top = value;
    },
  };
  return element as unknown as HTMLElement;
}

describe('following the ends of several arrays in one frame', () => {
  let frames: FrameRequestCallback[] = [];
  /** Runs the frame the page asked for; returns how many callbacks it had. */
  const nextFrame = () => {
    const run = frames;
    frames = [];
    for (const callback of run) callback(0);
    return run.length;
  };
  afterEach(() => vi.unstubAllGlobals());

  it('reads every scroller before it moves any: the page is laid out once, not once per array', () => {
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    const log: string[] = [];
    const columns = ['parent', 'subagent-1', 'subagent-2'].map((name) => fakeScroller(name, log, 1000));
    const followers = columns.map((element) =>
      endFollower(
        () => scrollElementToEnd(element, () => true),
        () => false,
      ),
    );
    for (const follower of followers) follower.request();
    for (const follower of followers) follower.request(); // asked twice: followed once
    expect(nextFrame()).toBe(1);
    const firstWrite = log.findIndex((entry) => entry.startsWith('write'));
    expect(log.filter((entry) => entry.startsWith('write'))).toEqual([
      'write parent',
      'write subagent-1',
      'write subagent-2',
    ]);
    expect(log.slice(firstWrite).every((entry) => entry.startsWith('write'))).toBe(true);

    // The frame after looks again (a virtual list may have grown): at their ends, none is moved.
    log.length = 0;
    expect(nextFrame()).toBe(1);
    expect(log.filter((entry) => entry.startsWith('write'))).toEqual([]);
    expect(nextFrame()).toBe(0);
  });

  it('leaves a scroller at its end as it is: no scroll, no second look', () => {
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    const log: string[] = [];
    const element = fakeScroller('parent', log, 1000, 900);
    endFollower(
      () => scrollElementToEnd(element, () => true),
      () => false,
    ).request();
    nextFrame();
    expect(log.some((entry) => entry.startsWith('write'))).toBe(false);
    expect(nextFrame()).toBe(0);
  });

  it("reads the scrollers after the frame's layout, where a ResizeObserver reports", () => {
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    const reports: Array<() => void> = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private callback: () => void) {}
        observe(): void {
          reports.push(this.callback);
        }
        unobserve(): void {}
      },
    );
    vi.stubGlobal('document', { documentElement: {} });
    const log: string[] = [];
    const element = fakeScroller('parent', log, 1000);
    endFollower(
      () => scrollElementToEnd(element, () => true),
      () => false,
    ).request();
    nextFrame();
    // The frame's callback ran: nothing read yet, until the layout is reported.
    expect(log).toEqual([]);
    expect(reports).toHaveLength(1);
    reports.shift()!();
    expect(log.filter((entry) => entry.startsWith('write'))).toEqual(['write parent']);
  });
});
