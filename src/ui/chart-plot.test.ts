import { describe, expect, it } from 'vitest';
import { agentLine, alignedData, plotOptions } from './chart-plot';

const call = (seq: number, agent: string, sent: number) => ({ seq, agent, sent });

describe('the chart plot', () => {
  it('puts one x per call, each agent its own series with nulls between its calls', () => {
    const calls = [
      call(1, 'parent', 100),
      call(2, 'subagent-1', 40),
      call(3, 'subagent-1', 90),
      call(4, 'parent', 130),
    ];
    expect(alignedData(calls, [], ['parent', 'subagent-1'])).toEqual([
      [1, 2, 3, 4],
      [100, null, null, 130],
      [null, 40, 90, null],
    ]);
  });

  it('draws the compared runs first (under the shown lines), as long as the longest of them', () => {
    const compared = [
      {
        label: 'Parent without a subagent',
        stroke: '#64748b',
        dash: [6, 4],
        calls: [call(1, 'parent', 100), call(2, 'parent', 700), call(3, 'parent', 900)],
      },
    ];
    expect(alignedData([call(1, 'parent', 100)], compared, ['parent'])).toEqual([
      [1, 2, 3],
      [100, 700, 900],
      [100, null, null],
    ]);
  });

  it("draws the parent's line wider than a subagent's, and the options keep the lines in that order", () => {
    const paths = () => null;
    const parent = agentLine('parent', { label: 'Parent', stroke: 'blue' }, paths);
    const subagent = agentLine('subagent-1', { label: 'Subagent 1', stroke: 'orange' }, paths);
    expect(parent.width).toBeGreaterThan(subagent.width!);
    const options = plotOptions({
      width: 400,
      axisLabels: { calls: 'model call', tokens: 'tokens' },
      compared: [{ label: 'Parent with Fork', stroke: '#0f766e', dash: [2, 3], calls: [] }],
      lines: [parent, subagent],
      paths,
      yTicks: (ticks) => ticks.map(String),
      draw: () => {},
    });
    expect(options.series.map((series) => series.label)).toEqual([
      undefined,
      'Parent with Fork',
      'Parent',
      'Subagent 1',
    ]);
    expect(options.axes!.map((axis) => axis.label)).toEqual(['model call', 'tokens']);
  });
});
