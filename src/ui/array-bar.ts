/**
 * The size bar of a long array, drawn on a canvas: one rectangle per message is tens of
 * thousands of draws on every step of a scrub through a long run, most of them narrower than a
 * pixel. Drawn so, a step costs what the bar shows (its pixels), not what the array holds.
 */

/** A rectangle of the bar, in device pixels from its left. */
export interface BarRect<K> {
  kind: K;
  x: number;
  width: number;
}

/**
 * The rectangles that draw segments ending at `ends` (in characters from the array's start),
 * each of `kindAt(i)`, at `scale` device pixels a character. A segment a pixel wide or more is
 * drawn as it is; those narrower share the pixel they start in, drawn in the kind that covers
 * most of it; neighbours of one kind are one rectangle. At most about two per pixel.
 */
export function barRects<K>(
  ends: readonly number[],
  kindAt: (index: number) => K,
  scale: number,
): BarRect<K>[] {
  const rects: BarRect<K>[] = [];
  const add = (kind: K, x: number, width: number) => {
    const last = rects[rects.length - 1];
    if (last && last.kind === kind && Math.abs(last.x + last.width - x) < 1e-6) last.width += width;
    else rects.push({ kind, x, width });
  };
  /** The pixel the narrow segments since the last flush start in, and how much each kind covers. */
  let pixel = -1;
  const cover = new Map<K, number>();
  const flush = () => {
    if (pixel < 0) return;
    let most: K | undefined;
    let widest = -1;
    for (const [kind, width] of cover) {
      if (width > widest) [most, widest] = [kind, width];
    }
    // Never back over what a wide segment drew before it.
    const last = rects[rects.length - 1];
    const x = Math.max(pixel, last ? last.x + last.width : pixel);
    add(most!, x, Math.max(0, pixel + 1 - x));
    pixel = -1;
    cover.clear();
  };
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const a = start * scale;
    const b = ends[i] * scale;
    start = ends[i];
    if (b - a >= 1) {
      flush();
      const last = rects[rects.length - 1];
      const x = last ? Math.max(a, last.x + last.width) : a;
      if (b > x) add(kindAt(i), x, b - x);
      continue;
    }
    const at = Math.floor(a);
    if (at !== pixel) flush();
    pixel = at;
    const kind = kindAt(i);
    cover.set(kind, (cover.get(kind) ?? 0) + (b - a));
  }
  flush();
  return rects;
}
