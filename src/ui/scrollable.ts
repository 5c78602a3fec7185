/**
 * A box that scrolls must be reachable from the keyboard, or its hidden part is out of reach of
 * anyone without a mouse (WCAG 2.1.1; axe's `scrollable-region-focusable`). Giving every output
 * box a tab stop would bury the controls under dozens of them, so a box is a tab stop only while
 * its content overflows it.
 */
import type { Attachment } from 'svelte/attachments';

/** The boxes watched, each with the descendants (matching its selector) that may scroll instead. */
const watched = new Map<Element, string | undefined>();
let observer: ResizeObserver | undefined;

function overflows(element: HTMLElement): boolean {
  return element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1;
}

/**
 * Makes each element a tab stop while it scrolls, and no tab stop once it does not: every size is
 * read first, then the attributes written. A write between two reads (a tabindex set) made the
 * browser recompute the page's style and layout before the next read, once per box.
 */
export function updateTabStops(elements: readonly HTMLElement[]): void {
  const scrolls = elements.map(overflows);
  elements.forEach((element, i) => {
    if (scrolls[i] && element.tabIndex < 0) element.tabIndex = 0;
    else if (!scrolls[i] && element.hasAttribute('tabindex')) element.removeAttribute('tabindex');
  });
}

/** The boxes among `targets`, and their descendants that may scroll instead. */
function boxesOf(targets: readonly Element[]): HTMLElement[] {
  const boxes: HTMLElement[] = [];
  for (const box of targets) {
    if (box instanceof HTMLElement) boxes.push(box);
    const selector = watched.get(box);
    if (selector) boxes.push(...box.querySelectorAll<HTMLElement>(selector));
  }
  return boxes;
}

/**
 * An attachment: the element (and its descendants matching `inner`, such as a Markdown text's
 * code blocks) becomes a tab stop while it scrolls. Checked again whenever the element's size
 * changes, which is when what it holds or its width changes.
 */
export function focusableWhenScrolling(inner?: string): Attachment<HTMLElement> {
  return (element) => {
    observer ??= new ResizeObserver((entries) => updateTabStops(boxesOf(entries.map((e) => e.target))));
    watched.set(element, inner);
    observer.observe(element);
    return () => {
      observer?.unobserve(element);
      watched.delete(element);
    };
  };
}
