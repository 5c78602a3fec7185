import { describe, expect, it } from 'vitest';
import { copied, List } from './list';

describe('List: an immutable list sharing its storage with the lists it grew from', () => {
  it('grows in place from its newest list, and every list keeps its items', () => {
    const a = List.of(['x', 'y']);
    const before = copied.items;
    const b = a.push('z');
    const c = b.push('w');
    expect(copied.items).toBe(before);
    expect([a.toArray(), b.toArray(), c.toArray()]).toEqual([
      ['x', 'y'],
      ['x', 'y', 'z'],
      ['x', 'y', 'z', 'w'],
    ]);
    expect(a.same(List.of(['x', 'y']))).toBe(false);
    expect(b.same(c)).toBe(false);
  });

  it('copies once when an older list grows another way (a step-through going back)', () => {
    const a = List.of(['x', 'y']);
    const b = a.push('z');
    const before = copied.items;
    const c = a.push('w');
    expect(copied.items - before).toBe(2);
    const d = c.push('v');
    expect(copied.items - before).toBe(2);
    expect([a.toArray(), b.toArray(), c.toArray(), d.toArray()]).toEqual([
      ['x', 'y'],
      ['x', 'y', 'z'],
      ['x', 'y', 'w'],
      ['x', 'y', 'w', 'v'],
    ]);
  });

  it('puts an item at an index with nothing after it, as a rewritten message array', () => {
    const a = List.of([1, 2, 3]);
    const b = a.put(1, 9);
    expect([a.toArray(), b.toArray()]).toEqual([
      [1, 2, 3],
      [1, 9],
    ]);
    expect(b.at(1)).toBe(9);
    expect(b.at(2)).toBeUndefined();
    expect(a.at(2)).toBe(3);
  });
});
