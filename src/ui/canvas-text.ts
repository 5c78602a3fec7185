/**
 * The fonts and glyphs the canvases draw with (the workers timeline's labels, the context chart's
 * task marks), and their first use made ahead. A renderer's first text in a font, and above all a
 * glyph none of the page's fonts has (the chart's ▶ ✕ ■, which the system's font fallback looks
 * for), costs the page's thread a while the first time, in a first run's frames on a fresh page,
 * and nothing after that.
 */

/** The workers timeline's bar labels (measured to see whether a label fits its bar). */
export const TIMELINE_LABEL_FONT = '600 10px system-ui, sans-serif';

/** The context chart's task marks, at `scale` device pixels per CSS pixel. */
export function chartMarkFont(scale: number): string {
  return `${11 * scale}px system-ui, sans-serif`;
}

/** A task's start, its end, a discarded subagent's end, and a context reset (a compaction, a switch of model), as the chart marks them. */
export const CHART_MARKS = { start: '▶', end: '■', discarded: '✕', reset: '⤓' } as const;

/**
 * Measures and draws the canvases' text once on a canvas of its own, so that the first run's
 * frames find the fonts and the fallback glyphs loaded. Does nothing where there is no canvas.
 */
export function warmCanvasText(
  doc: Document | undefined = globalThis.document,
  scale = globalThis.devicePixelRatio ?? 1,
): void {
  const context = doc?.createElement('canvas').getContext('2d');
  if (!context) return;
  context.font = TIMELINE_LABEL_FONT;
  context.measureText('parent subagent-1');
  context.font = chartMarkFont(scale);
  const marks = Object.values(CHART_MARKS).join('');
  context.measureText(marks);
  context.fillText(marks, 0, 10);
}
