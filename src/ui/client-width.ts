/**
 * `bind:clientWidth` without its first read. Svelte's binding reads the width in an effect as the
 * element is created, which makes the browser lay out at once whatever the same update changed:
 * the workers timeline's first rows, created by a fresh page's first click, would lay out the whole
 * new run in the click's task, before the page serves the parent's task call. Here
 * the width comes only from a ResizeObserver, which reports it after the frame's own layout.
 */
import type { Attachment } from 'svelte/attachments';

/** Each watched element's setter. */
const setters = new Map<Element, (width: number) => void>();
let observer: ResizeObserver | undefined;

/** An attachment: `set` is given the element's client width once it is laid out, and whenever it changes. */
export function clientWidth(set: (width: number) => void): Attachment<HTMLElement> {
  return (element) => {
    // Read in the observer's callback, after layout: no layout of its own.
    observer ??= new ResizeObserver((entries) => {
      for (const { target } of entries) setters.get(target)?.((target as HTMLElement).clientWidth);
    });
    setters.set(element, set);
    observer.observe(element);
    return () => {
      observer?.unobserve(element);
      setters.delete(element);
    };
  };
}
