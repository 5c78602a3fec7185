/**
 * Following the end of a list that grows (an array, the log): one scroll a frame, however many
 * updates came in it, since each scroll reads the list's size (a layout).
 */

/** How often at most a long (virtual) list follows its end. */
const FOLLOW_LONG_MS = 150;
/** How long after the learner's own input (a wheel turn, a key) a scroll counts as theirs. */
const USER_INPUT_MS = 1000;

/** Whether a scroller shows its end: less than `slack` px of it below the viewport. */
export function atEnd(scrollSize: number, offset: number, viewportSize: number, slack: number): boolean {
  return scrollSize - offset - viewportSize < slack;
}

export interface UserInput {
  /** Notes wheel, touch, pointer and key input inside `element`; returns how to stop (an attachment). */
  watch(element: HTMLElement): () => void;
  /** Whether the learner touched the element just now: only their scrolling may stop the following. */
  recent(): boolean;
}

/**
 * The learner's input in a scroller, so that a scroll they made (to read back) is told from one
 * the page made (new items measured, a record opened). Never recent, to begin with: a 0 read as
 * input in the page's first second, and a record opened then stopped following its end as its
 * messages were measured.
 */
export function userInput(): UserInput {
  let at = -Infinity;
  const events = ['wheel', 'touchmove', 'pointerdown', 'keydown'] as const;
  const mark = () => (at = performance.now());
  return {
    watch(element) {
      for (const name of events) element.addEventListener(name, mark, { passive: true });
      return () => {
        for (const name of events) element.removeEventListener(name, mark);
      };
    },
    recent: () => performance.now() - at < USER_INPUT_MS,
  };
}

export interface EndFollower {
  /** Asks for a scroll to the end on the next frame (or, for a long list, a little later). */
  request(): void;
  dispose(): void;
}

/**
 * Calls `scroll` on the next frame after a request, once. A long list (`isLong()`) is followed
 * at most every FOLLOW_LONG_MS: each follow makes it measure its newest items and scroll again,
 * several layouts in one frame, and scrubbing a long record asks for one on every frame; the
 * list still changes every frame, and the scroll catches up right after.
 */
export function endFollower(scroll: () => void, isLong: () => boolean): EndFollower {
  let frame = 0;
  let later = 0;
  let followedAt = -Infinity;
  const request = (): void => {
    if (frame || later) return;
    const wait = isLong() ? followedAt + FOLLOW_LONG_MS - performance.now() : 0;
    if (wait > 0) {
      later = window.setTimeout(() => {
        later = 0;
        request();
      }, wait);
      return;
    }
    frame = requestAnimationFrame(() => {
      frame = 0;
      followedAt = performance.now();
      scroll();
    });
  };
  return {
    request,
    dispose() {
      cancelAnimationFrame(frame);
      clearTimeout(later);
    },
  };
}

/**
 * Scrolls `element` to its end by its own offset, and again one frame later if what was rendered
 * there (a virtual list's newest items, measured) made it taller, as long as `following()`.
 *
 * A virtual list is not followed with virtua's scrollToIndex: that keeps aiming at its item while
 * items are measured (until 150 ms after the last), so a Home pressed meanwhile, or a scrollbar
 * dragged, was pulled back to the end.
 */
export function scrollElementToEnd(element: HTMLElement, following: () => boolean): void {
  element.scrollTop = element.scrollHeight;
  requestAnimationFrame(() => {
    if (following() && element.scrollHeight - element.scrollTop - element.clientHeight > 1)
      element.scrollTop = element.scrollHeight;
  });
}

/**
 * Keeps `element` at its end while `following()` when its content or viewport changes size
 * without a new item (a header note appears, an output is expanded, the window is resized).
 * Returns how to stop.
 */
export function pinToEnd(element: HTMLElement, following: () => boolean): () => void {
  const observer = new ResizeObserver(() => {
    if (following()) element.scrollTop = element.scrollHeight;
  });
  observer.observe(element);
  for (const child of element.children) observer.observe(child);
  return () => observer.disconnect();
}

/**
 * Home and End for a virtual list: its first item and its last. The browser's own keyboard scroll
 * aims at an offset worked out from items not yet measured; when they are measured taller on the
 * way (a larger font, a zoom), the list keeps what is in view in place, and Home stopped tens of
 * items short of the start. virtua's scrollToIndex aims at the item itself until it is measured.
 */
export function homeAndEnd(
  list: () => { scrollToIndex(index: number, options?: { align?: 'start' | 'end' }): void } | undefined,
  count: () => number,
): (event: KeyboardEvent) => void {
  return (event) => {
    const target = list();
    if (!target || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key === 'Home') target.scrollToIndex(0);
    else if (event.key === 'End') target.scrollToIndex(count() - 1, { align: 'end' });
    else return;
    event.preventDefault();
  };
}
