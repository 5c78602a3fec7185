/**
 * Which subagent columns the sideways pane draws. A run of hundreds of subagents would lay out,
 * restyle and follow every column on every step; the pane draws only the columns in view and a few
 * on each side, plus any it is asked to keep (the one a caption is about, the one the learner
 * picked), and stands a gap of the same width in for each run of columns left out, so that the
 * pane scrolls as far, and each column sits where it would. Every column is the same width once
 * the pane overflows (22rem, ArraysView), so where each one is follows from its index alone: no
 * column is measured. Pure: tested in Node.
 */

/** The pane as last measured: in CSS pixels. */
export interface PaneGeometry {
  /** How far the pane is scrolled sideways. */
  scrollLeft: number;
  /** The pane's visible width. */
  viewWidth: number;
  /** A column's width at its narrowest (it grows only while every column fits). */
  columnWidth: number;
  /** The gap between two columns. */
  gap: number;
}

/** One piece of the pane: a column drawn (by index), or a gap standing in for `count` columns from `from`. */
export type PanePiece =
  { kind: 'column'; index: number } | { kind: 'gap'; from: number; count: number; width: number };

/** Columns drawn beyond each edge of the view: a scroll of a column or two shows no blank. */
export const OVERSCAN = 2;

/** Up to this many subagents every column is drawn (a sample run, a comparison's twelve). */
export const DRAW_ALL_UP_TO = 12;

/**
 * Columns drawn of a larger run before the pane is measured: about as many as a wide screen shows.
 * The pane is measured as soon as it is drawn; columns drawn beyond its view would be made, laid
 * out and dropped again within the run's first frames.
 */
export const DRAW_BEFORE_MEASURED = 4;

/** The distance from one column's left edge to the next one's. */
export function stride(geometry: PaneGeometry): number {
  return geometry.columnWidth + geometry.gap;
}

/** Whether `count` columns at their narrowest overflow the pane (else every one is drawn). */
export function overflows(count: number, geometry: PaneGeometry): boolean {
  return count * stride(geometry) - geometry.gap > geometry.viewWidth + 1;
}

/**
 * The indices of the columns to draw, ascending: those in view and `overscan` on each side, and
 * each index of `keep` within range. All of them while there are no more than `drawAllUpTo` or
 * while they fit; before the pane is measured (a width of 0), the first `beforeMeasured`. The same
 * holds for rows of one height in a list that scrolls down (the Workers timeline): read `scrollLeft`
 * as its scroll from the top, `viewWidth` as its height, `columnWidth` as a row's height.
 */
export function drawnColumns(
  count: number,
  geometry: PaneGeometry,
  keep: readonly number[] = [],
  overscan = OVERSCAN,
  drawAllUpTo = DRAW_ALL_UP_TO,
  beforeMeasured = DRAW_BEFORE_MEASURED,
): number[] {
  if (count <= 0) return [];
  const measured = geometry.viewWidth > 0 && geometry.columnWidth > 0;
  if (count <= drawAllUpTo || (measured && !overflows(count, geometry)))
    return Array.from({ length: count }, (_, i) => i);
  let first = 0;
  let last = Math.min(drawAllUpTo, beforeMeasured) - 1;
  if (measured) {
    const step = stride(geometry);
    first = Math.max(0, Math.floor(geometry.scrollLeft / step) - overscan);
    last = Math.min(count - 1, Math.ceil((geometry.scrollLeft + geometry.viewWidth) / step) + overscan);
  }
  const drawn = new Set<number>();
  for (let i = first; i <= last; i++) drawn.add(i);
  for (const i of keep) if (Number.isInteger(i) && i >= 0 && i < count) drawn.add(i);
  return [...drawn].sort((a, b) => a - b);
}

/**
 * The pane's pieces in order for the columns `drawn` (ascending) of `count`: each drawn column,
 * and between them a gap as wide as the columns it stands in for, less one gap (the pane's own gap
 * follows it as it follows a column).
 */
export function panePieces(count: number, drawn: readonly number[], geometry: PaneGeometry): PanePiece[] {
  const pieces: PanePiece[] = [];
  const step = stride(geometry);
  const gapFor = (from: number, skipped: number) =>
    pieces.push({ kind: 'gap', from, count: skipped, width: skipped * step - geometry.gap });
  let next = 0;
  for (const index of drawn) {
    if (index > next) gapFor(next, index - next);
    pieces.push({ kind: 'column', index });
    next = index + 1;
  }
  if (count > next) gapFor(next, count - next);
  return pieces;
}

/**
 * The columns scrolled out of the pane's view, wholly or more than `slack` pixels in part, on each
 * side: by index, nearest the view last on the left and first on the right.
 */
export function hiddenColumns(
  count: number,
  geometry: PaneGeometry,
  slack: number,
): { left: number[]; right: number[] } {
  if (count <= 0 || geometry.viewWidth <= 0 || !overflows(count, geometry)) return { left: [], right: [] };
  const step = stride(geometry);
  const viewLeft = geometry.scrollLeft;
  const viewRight = geometry.scrollLeft + geometry.viewWidth;
  const left: number[] = [];
  const right: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = i * step;
    if (start < viewLeft - slack) left.push(i);
    else if (start + geometry.columnWidth > viewRight + slack) right.push(i);
  }
  return { left, right };
}

/** The scroll that brings column `index` into full view, from where the pane is (CSS pixels). */
export function scrollToReveal(index: number, geometry: PaneGeometry): number {
  const start = index * stride(geometry);
  const end = start + geometry.columnWidth;
  if (start < geometry.scrollLeft) return start;
  if (end > geometry.scrollLeft + geometry.viewWidth) return end - geometry.viewWidth;
  return geometry.scrollLeft;
}

/**
 * How to scroll the pane from `from` to `to` (scroll positions): smoothly over a few columns, at
 * once further: a smooth scroll across many columns would draw each of them on its way.
 */
export function scrollBehavior(from: number, to: number, geometry: PaneGeometry): 'smooth' | 'instant' {
  return Math.abs(to - from) > FAR_COLUMNS * stride(geometry) ? 'instant' : 'smooth';
}

/** Further than this many columns, the pane jumps instead of scrolling smoothly. */
export const FAR_COLUMNS = 3;
