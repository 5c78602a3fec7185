import { describe, expect, it } from 'vitest';
import { updateTabStops } from './scrollable';

/** A box standing in for an element: its layout reads and attribute writes, logged in order. */
function fakeBox(name: string, log: string[], content: number, tabIndex = -1) {
  const attributes = new Set<string>(tabIndex >= 0 ? ['tabindex'] : []);
  const read = (value: number) => {
    log.push(`read ${name}`);
    return value;
  };
  const box = {
    get scrollHeight() {
      return read(content);
    },
    get clientHeight() {
      return read(100);
    },
    get scrollWidth() {
      return read(100);
    },
    get clientWidth() {
      return read(100);
    },
    get tabIndex() {
      return tabIndex;
    },
    set tabIndex(value: number) {
      log.push(`write ${name}`);
      tabIndex = value;
      attributes.add('tabindex');
    },
    hasAttribute: (attribute: string) => attributes.has(attribute),
    removeAttribute(attribute: string) {
      log.push(`write ${name}`);
      attributes.delete(attribute);
      tabIndex = -1;
    },
  };
  return box as unknown as HTMLElement;
}

describe('boxes that scroll are tab stops', () => {
  it('reads every box before it writes any: one layout for all of them, not one per box', () => {
    const log: string[] = [];
    const boxes = [
      fakeBox('a', log, 500),
      fakeBox('b', log, 100, 0),
      fakeBox('c', log, 300),
      fakeBox('d', log, 50),
    ];
    updateTabStops(boxes);
    expect(boxes.map((box) => box.tabIndex)).toEqual([0, -1, 0, -1]);
    const firstWrite = log.findIndex((entry) => entry.startsWith('write'));
    expect(log.slice(0, firstWrite).every((entry) => entry.startsWith('read'))).toBe(true);
    expect(log.slice(firstWrite)).toEqual(['write a', 'write b', 'write c']);
  });
});
