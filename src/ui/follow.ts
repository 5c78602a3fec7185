/**
 * Following the end of a list that grows (an array, the log): one scroll a frame, however many
 * updates came in it, since each scroll reads the list's size (a layout); the scrolls of every
 * list in one frame read first and write after, so that the page is laid out once for all.
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

/**
 * A scroll to do in the next frame, in two halves: reading where a scroller stands (a layout, if
 * anything changed since the last one) returns the write that moves it, or nothing when it need
 * not move.
 */
export type FrameScroll = () => (() => void) | void;

const queued = new Set<FrameScroll>();
let frame = 0;

/**
 * Runs `scroll` in the next frame, once however often it is asked for. Every scroll asked for in
 * one frame (each array following its end) reads first, then all of them write: one after another,
 * each read after another's write made the browser lay out the page again, once per array. The
 * reads wait for the frame's own layout (afterLayout): read in the frame's callback, they laid out
 * the page before the other callbacks of that frame changed it, and it was laid out twice.
 */
export function scrollInFrame(scroll: FrameScroll): void {
  queued.add(scroll);
  frame ||= requestAnimationFrame(() => afterLayout(runFrame));
}

let layoutWatch: ResizeObserver | undefined;
let afterLayoutRun: (() => void) | null = null;

/**
 * Runs `run` once the frame is laid out, where sizes read cost no layout: a ResizeObserver reports
 * a target it has just begun to observe after the next layout, so the page's root is observed
 * afresh. Without ResizeObserver, at once.
 */
export function afterLayout(run: () => void): void {
  if (typeof ResizeObserver !== 'function' || typeof document === 'undefined') return run();
  afterLayoutRun = run;
  layoutWatch ??= new ResizeObserver(() => {
    const next = afterLayoutRun;
    afterLayoutRun = null;
    next?.();
  });
  layoutWatch.unobserve(document.documentElement);
  layoutWatch.observe(document.documentElement);
}

function runFrame(): void {
  frame = 0;
  const batch = [...queued];
  queued.clear();
  const writes = batch.map((scroll) => scroll());
  for (const write of writes) write?.();
}

/**
 * The write that brings `element` to its end, or nothing when it is there already (less than a
 * pixel below): a scroller left as it is fires no scroll event, and a virtual list then measures
 * nothing again.
 */
export function toEnd(element: HTMLElement): (() => void) | void {
  const height = element.scrollHeight;
  const gap = height - element.scrollTop - element.clientHeight;
  if (gap <= 1) return;
  return () => {
    element.scrollTop = height;
  };
}

export interface EndFollower {
  /** Asks for a scroll to the end on the next frame (or, for a long list, a little later). */
  request(): void;
  dispose(): void;
}

/**
 * Runs `scroll` (see FrameScroll) in the next frame after a request, once. A long list
 * (`isLong()`) is followed at most every FOLLOW_LONG_MS: each follow makes it measure its newest
 * items and scroll again, several layouts in one frame, and scrubbing a long record asks for one
 * on every frame; the list still changes every frame, and the scroll catches up right after.
 */
export function endFollower(scroll: FrameScroll, isLong: () => boolean): EndFollower {
  let asked = false;
  let later = 0;
  let followedAt = -Infinity;
  let disposed = false;
  const run: FrameScroll = () => {
    asked = false;
    if (disposed) return;
    followedAt = performance.now();
    return scroll();
  };
  const request = (): void => {
    if (asked || later || disposed) return;
    const wait = isLong() ? followedAt + FOLLOW_LONG_MS - performance.now() : 0;
    if (wait > 0) {
      later = window.setTimeout(() => {
        later = 0;
        request();
      }, wait);
      return;
    }
    asked = true;
    scrollInFrame(run);
  };
  return {
    request,
    dispose() {
      disposed = true;
      queued.delete(run);
      clearTimeout(later);
    },
  };
}

/**
 * The write that scrolls `element` to its end by its own offset (see toEnd); when it moves, it is
 * looked at again the next frame, in case what was rendered there (a virtual list's newest items,
 * measured) made it taller, as long as `following()`.
 *
 * A virtual list is not followed with virtua's scrollToIndex: that keeps aiming at its item while
 * items are measured (until 150 ms after the last), so a Home pressed meanwhile, or a scrollbar
 * dragged, was pulled back to the end.
 */
export function scrollElementToEnd(element: HTMLElement, following: () => boolean): (() => void) | void {
  const write = toEnd(element);
  if (!write) return;
  return () => {
    write();
    scrollInFrame(againAtEnd(element, following));
  };
}

/** One check per element and frame, however many times it was scrolled in the frame before. */
const again = new WeakMap<HTMLElement, { following: () => boolean; check: FrameScroll }>();

function againAtEnd(element: HTMLElement, following: () => boolean): FrameScroll {
  let known = again.get(element);
  if (!known) {
    const entry = {
      following,
      check: (() => (entry.following() ? toEnd(element) : undefined)) as FrameScroll,
    };
    again.set(element, (known = entry));
  }
  known.following = following;
  return known.check;
}

/**
 * Keeps `element` at its end while `following()` when its content or viewport changes size
 * without a new item (a header note appears, an output is expanded, the window is resized).
 * Returns how to stop.
 */
export function pinToEnd(element: HTMLElement, following: () => boolean): () => void {
  const observer = new ResizeObserver(() => {
    // Sizes were just laid out: this read costs no layout, and no write is made at the end.
    if (following()) toEnd(element)?.();
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
