import { describe, expect, it } from 'vitest';
import { barRects } from './array-bar';

describe('the size bar of a long array', () => {
  it('draws segments a pixel wide or more as they are, neighbours of one kind as one', () => {
    expect(barRects([10, 30, 40, 60], (i) => ['p', 'a', 'a', 'r'][i], 2)).toEqual([
      { kind: 'p', x: 0, width: 20 },
      { kind: 'a', x: 20, width: 60 },
      { kind: 'r', x: 80, width: 40 },
    ]);
  });

  it('draws 40,000 messages on 600 pixels with at most two rectangles a pixel, covering the bar', () => {
    const n = 40_000;
    const ends: number[] = [];
    const kinds: string[] = [];
    let sum = 0;
    for (let i = 0; i < n; i++) {
      sum += i % 2 ? 120 : 80;
      ends.push(sum);
      kinds.push(i % 2 ? 'results' : 'assistant');
    }
    const rects = barRects(ends, (i) => kinds[i], 600 / sum);
    expect(rects.length).toBeLessThanOrEqual(2 * 600);
    // Side by side, never overlapping, from the bar's start to its end.
    let x = 0;
    for (const rect of rects) {
      expect(rect.x).toBeCloseTo(x, 6);
      x = rect.x + rect.width;
    }
    expect(x).toBeCloseTo(600, 6);
    // Each pixel is drawn in the kind covering most of it: results are 60% of every pixel.
    expect(rects).toEqual([{ kind: 'results', x: 0, width: expect.closeTo(600, 6) }]);
    // Every thousandth message a hundred times as big: each one its own rectangle.
    let total = 0;
    const big = kinds.map((kind, i) => (total += i % 1000 === 999 ? 20_000 : kind === 'results' ? 120 : 80));
    const mixed = barRects(big, (i) => (i % 1000 === 999 ? 'prompt' : kinds[i]), 600 / total);
    expect(mixed.length).toBeLessThanOrEqual(2 * 600);
    expect(mixed.filter((r) => r.kind === 'prompt')).toHaveLength(40);
  });

  it('gives a pixel shared by narrow segments to the kind that covers most of it', () => {
    const rects = barRects([1, 2, 5, 105], (i) => ['a', 'b', 'b', 'c'][i], 0.1);
    expect(rects).toEqual([
      { kind: 'b', x: 0, width: 1 },
      { kind: 'c', x: 1, width: 9.5 },
    ]);
  });
});
