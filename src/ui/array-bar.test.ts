import { describe, expect, it } from 'vitest';
import { barRects, kindSums, type BarRect } from './array-bar';

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

  it('draws what one rectangle per segment, pixel by pixel, would draw, for any mix of sizes', () => {
    // The bar as it was drawn segment by segment: every narrow segment adds its characters to
    // the pixel it starts in; a wide one is drawn as it is. A kind seen first in the array wins a tie; a pixel of empty messages
    // alone is drawn in its first one's kind.
    function oneByOne<K>(ends: number[], kindAt: (i: number) => K, scale: number): BarRect<K>[] {
      const order = [...new Set(ends.map((_, i) => kindAt(i)))];
      const rects: BarRect<K>[] = [];
      const add = (kind: K, x: number, width: number) => {
        const last = rects.at(-1);
        if (last && last.kind === kind && Math.abs(last.x + last.width - x) < 1e-6) last.width += width;
        else rects.push({ kind, x, width });
      };
      let pixel = -1;
      let first: K | undefined;
      const cover = new Map<K, number>();
      const flush = () => {
        if (pixel < 0) return;
        const empty = [...cover.values()].every((chars) => chars === 0);
        const most = empty
          ? first!
          : order.reduce((best, kind) => ((cover.get(kind) ?? -1) > (cover.get(best) ?? -1) ? kind : best));
        const last = rects.at(-1);
        const x = Math.max(pixel, last ? last.x + last.width : pixel);
        add(most, x, Math.max(0, pixel + 1 - x));
        pixel = -1;
        cover.clear();
      };
      let start = 0;
      for (let i = 0; i < ends.length; i++) {
        const a = start * scale;
        const b = ends[i] * scale;
        const chars = ends[i] - start;
        start = ends[i];
        if (b - a >= 1) {
          flush();
          const last = rects.at(-1);
          const x = last ? Math.max(a, last.x + last.width) : a;
          if (b > x) add(kindAt(i), x, b - x);
          continue;
        }
        if (Math.floor(a) !== pixel) flush();
        if (pixel < 0) first = kindAt(i);
        pixel = Math.floor(a);
        cover.set(kindAt(i), (cover.get(kindAt(i)) ?? 0) + chars);
      }
      flush();
      return rects;
    }
    // A seeded generator: the same arrays on every run.
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const kinds = ['prompt', 'assistant', 'results', 'returned'];
    for (let run = 0; run < 200; run++) {
      const n = 1 + Math.floor(random() * 3000);
      const ends: number[] = [];
      const at: string[] = [];
      let sum = 0;
      for (let i = 0; i < n; i++) {
        // Mostly small messages, some a hundred times larger, now and then an empty one.
        const r = random();
        sum += r < 0.02 ? 0 : r < 0.05 ? Math.floor(random() * 50_000) : 1 + Math.floor(random() * 500);
        ends.push(sum);
        at.push(kinds[Math.floor(random() * (run % 4 === 0 ? 2 : 4))]);
      }
      const pixels = 50 + Math.floor(random() * 1200);
      const scale = pixels / Math.max(1, sum);
      expect(barRects(ends, (i) => at[i], scale)).toEqual(oneByOne(ends, (i) => at[i], scale));
    }
  });

  it("reads running sums that run past the segments drawn (a longer array's, for its prefix)", () => {
    const ends = [5, 6, 7, 8, 400, 401, 402];
    const kinds = ['a', 'b', 'b', 'a', 'c', 'b', 'b'];
    const longer = kindSums([...ends, 900, 1000], (i) => [...kinds, 'c', 'a'][i]);
    expect(barRects(ends, (i) => kinds[i], 0.05, longer)).toEqual(barRects(ends, (i) => kinds[i], 0.05));
  });
});
