import { describe, expect, it } from 'vitest';
import { CHART_MARKS, chartMarkFont, TIMELINE_LABEL_FONT, warmCanvasText } from './canvas-text';

/** A canvas context that notes each font it was given and each text measured or drawn in it. */
function recordingDocument(uses: string[]): Document {
  const context = {
    font: '',
    measureText(text: string) {
      uses.push(`measure ${this.font}: ${text}`);
      return { width: text.length };
    },
    fillText(text: string) {
      uses.push(`draw ${this.font}: ${text}`);
    },
  };
  return { createElement: () => ({ getContext: () => context }) } as unknown as Document;
}

describe('warmCanvasText', () => {
  it('measures the timeline’s labels and measures and draws the chart’s marks, in their fonts', () => {
    const uses: string[] = [];
    warmCanvasText(recordingDocument(uses), 2);
    const marks = `${CHART_MARKS.start}${CHART_MARKS.end}${CHART_MARKS.discarded}${CHART_MARKS.reset}`;
    expect(uses).toEqual([
      `measure ${TIMELINE_LABEL_FONT}: parent subagent-1`,
      `measure ${chartMarkFont(2)}: ${marks}`,
      `draw ${chartMarkFont(2)}: ${marks}`,
    ]);
    expect(chartMarkFont(2)).toBe('22px system-ui, sans-serif');
  });

  it('does nothing without a document or a 2D context', () => {
    expect(() => warmCanvasText(undefined)).not.toThrow();
    const noContext = { createElement: () => ({ getContext: () => null }) } as unknown as Document;
    expect(() => warmCanvasText(noContext)).not.toThrow();
  });
});
