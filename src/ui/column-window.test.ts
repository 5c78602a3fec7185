import { describe, expect, it } from 'vitest';
import {
  DRAW_ALL_UP_TO,
  DRAW_BEFORE_MEASURED,
  drawnColumns,
  hiddenColumns,
  OVERSCAN,
  panePieces,
  scrollBehavior,
  scrollToReveal,
  stride,
  type PaneGeometry,
} from './column-window';

/** A pane 1000 px wide of 352 px columns 12 px apart (22rem and 0.75rem at 16 px). */
const pane = (scrollLeft = 0): PaneGeometry => ({ scrollLeft, viewWidth: 1000, columnWidth: 352, gap: 12 });

describe('drawnColumns', () => {
  it('draws every column of a small run, and every column that fits', () => {
    expect(drawnColumns(DRAW_ALL_UP_TO, pane())).toHaveLength(DRAW_ALL_UP_TO);
    expect(drawnColumns(40, { ...pane(), viewWidth: 40 * 364 })).toHaveLength(40);
    expect(drawnColumns(0, pane())).toEqual([]);
  });

  it('draws the columns in view and a few on each side', () => {
    // Scrolled to column 100's left edge: columns 100-102 are in view (102 in part).
    const drawn = drawnColumns(340, pane(100 * 364));
    expect(drawn[0]).toBe(100 - OVERSCAN);
    expect(drawn.at(-1)).toBe(103 + OVERSCAN);
    expect(drawn).toEqual(Array.from({ length: drawn.length }, (_, i) => drawn[0] + i));
  });

  it('stops at either end', () => {
    expect(drawnColumns(340, pane(0))[0]).toBe(0);
    const end = 340 * 364 - 12 - 1000;
    expect(drawnColumns(340, pane(end)).at(-1)).toBe(339);
  });

  it('keeps the columns asked for, wherever they are, and ignores indices out of range', () => {
    const drawn = drawnColumns(340, pane(0), [250, -1, 400]);
    expect(drawn).toContain(250);
    expect(drawn).not.toContain(-1);
    expect(drawn).not.toContain(400);
    expect(drawn).toEqual([...drawn].sort((a, b) => a - b));
  });

  it('draws the first ones before the pane is measured', () => {
    const drawn = drawnColumns(340, { scrollLeft: 0, viewWidth: 0, columnWidth: 0, gap: 0 }, [339]);
    expect(drawn).toEqual([...Array.from({ length: DRAW_BEFORE_MEASURED }, (_, i) => i), 339]);
    expect(
      drawnColumns(DRAW_ALL_UP_TO, { scrollLeft: 0, viewWidth: 0, columnWidth: 0, gap: 0 }),
    ).toHaveLength(DRAW_ALL_UP_TO);
  });
});

describe('rows of a list that scrolls down', () => {
  it('draws every row up to its own count, and those near its view beyond', () => {
    const list = { scrollLeft: 1000, viewWidth: 200, columnWidth: 20, gap: 3 };
    expect(drawnColumns(40, list, [], OVERSCAN, 40)).toHaveLength(40);
    const drawn = drawnColumns(341, list, [], OVERSCAN, 40);
    // Rows 43-52 are in view (23 px apart).
    expect(drawn[0]).toBe(43 - OVERSCAN);
    expect(drawn.at(-1)).toBe(53 + OVERSCAN);
  });
});

describe('panePieces', () => {
  it('stands a gap as wide as the columns left out for each run of them', () => {
    const geometry = pane();
    const pieces = panePieces(10, [3, 4, 8], geometry);
    expect(pieces).toEqual([
      { kind: 'gap', from: 0, count: 3, width: 3 * 364 - 12 },
      { kind: 'column', index: 3 },
      { kind: 'column', index: 4 },
      { kind: 'gap', from: 5, count: 3, width: 3 * 364 - 12 },
      { kind: 'column', index: 8 },
      { kind: 'gap', from: 9, count: 1, width: 352 },
    ]);
    // The pane is as wide as with every column drawn: pieces and the gaps between them.
    const width = pieces.reduce((sum, p) => sum + (p.kind === 'gap' ? p.width : 352), 0);
    expect(width + (pieces.length - 1) * 12).toBe(10 * 352 + 9 * 12);
  });

  it('is every column when every one is drawn', () => {
    expect(panePieces(3, [0, 1, 2], pane()).every((p) => p.kind === 'column')).toBe(true);
  });
});

describe('hiddenColumns', () => {
  it('names the columns out of view on each side, none while they fit', () => {
    expect(hiddenColumns(2, pane(), 8)).toEqual({ left: [], right: [] });
    const { left, right } = hiddenColumns(340, pane(100 * 364), 8);
    expect(left).toEqual(Array.from({ length: 100 }, (_, i) => i));
    // Columns 100 and 101 are wholly in view; 102 is cut at the right edge.
    expect(right[0]).toBe(102);
    expect(right.at(-1)).toBe(339);
    expect(left.length + right.length).toBe(338);
  });
});

describe('scrolling to a column', () => {
  it('brings a column into full view from either side, and leaves one in view as it is', () => {
    const at = pane(100 * 364);
    expect(scrollToReveal(100, at)).toBe(100 * 364);
    expect(scrollToReveal(20, at)).toBe(20 * 364);
    expect(scrollToReveal(200, at)).toBe(200 * 364 + 352 - 1000);
  });

  it('jumps further than a few columns, and scrolls smoothly nearer', () => {
    expect(scrollBehavior(0, stride(pane()), pane())).toBe('smooth');
    expect(scrollBehavior(0, 50 * stride(pane()), pane())).toBe('instant');
  });
});
