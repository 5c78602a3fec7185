/**
 * The size bar of a long array, drawn on a canvas: one rectangle per message is tens of
 * thousands of draws on every step of a scrub through a long run, most of them narrower than a
 * pixel. Drawn so, a step costs what the bar shows (its pixels), not what the array holds: a
 * pixel shared by many messages is found by a binary search and weighed by running sums.
 */

/** A rectangle of the bar, in device pixels from its left. */
export interface BarRect<K> {
  kind: K;
  x: number;
  width: number;
}

/**
 * For each kind, the characters of that kind from the array's start to each segment's end
 * (segments 0..i at index i). Arrays may run past the segments drawn (a longer array's sums serve
 * its prefixes). A kind listed earlier wins a pixel its kinds cover equally.
 */
export type KindSums<K> = ReadonlyMap<K, readonly number[]>;

/** The running sums of each kind for segments ending at `ends`, each of `kindAt(i)`. */
export function kindSums<K>(ends: readonly number[], kindAt: (index: number) => K): Map<K, number[]> {
  const sums = new Map<K, number[]>();
  for (let i = 0; i < ends.length; i++) addKindSum(sums, i, kindAt(i), ends[i] - (i > 0 ? ends[i - 1] : 0));
  return sums;
}

/** Adds segment `i` (of `kind`, `chars` long) to `sums`, which hold segments 0..i-1. */
export function addKindSum<K>(sums: Map<K, number[]>, i: number, kind: K, chars: number): void {
  if (!sums.has(kind)) sums.set(kind, new Array<number>(i).fill(0));
  for (const [k, sum] of sums) sum.push((i > 0 ? sum[i - 1] : 0) + (k === kind ? chars : 0));
}

/**
 * The rectangles that draw segments ending at `ends` (in characters from the array's start),
 * each of `kindAt(i)`, at `scale` device pixels a character. A segment a pixel wide or more is
 * drawn as it is; those narrower share the pixel they start in, drawn in the kind that covers
 * most of it (in characters, `sums`); neighbours of one kind are one rectangle. At most about two
 * per pixel, found in time of the pixels, not of the segments.
 */
export function barRects<K>(
  ends: readonly number[],
  kindAt: (index: number) => K,
  scale: number,
  sums: KindSums<K> = kindSums(ends, kindAt),
): BarRect<K>[] {
  const rects: BarRect<K>[] = [];
  const add = (kind: K, x: number, width: number) => {
    const last = rects[rects.length - 1];
    if (last && last.kind === kind && Math.abs(last.x + last.width - x) < 1e-6) last.width += width;
    else rects.push({ kind, x, width });
  };
  const lastEnd = () => {
    const last = rects[rects.length - 1];
    return last ? last.x + last.width : -Infinity;
  };
  const startOf = (i: number) => (i > 0 ? ends[i - 1] : 0);
  const wide = (i: number) => ends[i] * scale - startOf(i) * scale >= 1;
  const n = ends.length;
  let i = 0;
  while (i < n) {
    const a = startOf(i) * scale;
    if (wide(i)) {
      const b = ends[i] * scale;
      const x = Math.max(a, lastEnd());
      if (b > x) add(kindAt(i), x, b - x);
      i++;
      continue;
    }
    // The segments that start in this pixel: i..last (only the last of them may be wide).
    const pixel = Math.floor(a);
    let lo = i;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (Math.floor(startOf(mid) * scale) <= pixel) lo = mid;
      else hi = mid - 1;
    }
    const end = lo > i && wide(lo) ? lo : lo + 1;
    // Empty messages alone in a pixel draw it in the first one's kind.
    let most = kindAt(i);
    let widest = 0;
    for (const [kind, sum] of sums) {
      const chars = sum[end - 1] - (i > 0 ? sum[i - 1] : 0);
      if (chars > widest) [most, widest] = [kind, chars];
    }
    // Never back over what a wide segment drew before it.
    const x = Math.max(pixel, lastEnd());
    add(most, x, Math.max(0, pixel + 1 - x));
    i = end;
  }
  return rects;
}
