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

function update(element: HTMLElement): void {
  const scrolls = overflows(element);
  if (scrolls && element.tabIndex < 0) element.tabIndex = 0;
  else if (!scrolls && element.hasAttribute('tabindex')) element.removeAttribute('tabindex');
}

function check(box: Element): void {
  const selector = watched.get(box);
  if (box instanceof HTMLElement) update(box);
  if (selector) for (const inner of box.querySelectorAll<HTMLElement>(selector)) update(inner);
}

/**
 * An attachment: the element (and its descendants matching `inner`, such as a Markdown text's
 * code blocks) becomes a tab stop while it scrolls. Checked again whenever the element's size
 * changes, which is when what it holds or its width changes.
 */
export function focusableWhenScrolling(inner?: string): Attachment<HTMLElement> {
  return (element) => {
    observer ??= new ResizeObserver((entries) => {
      for (const entry of entries) check(entry.target);
    });
    watched.set(element, inner);
    observer.observe(element);
    return () => {
      observer?.unobserve(element);
      watched.delete(element);
    };
  };
}
