import { describe, expect, it } from 'vitest';
import {
  agentLine,
  alignedData,
  byColor,
  chartLines,
  GROUPED_ABOVE,
  lineForAgent,
  plotOptions,
  SUBAGENTS_LINE,
  traceSubagentSteps,
} from './chart-plot';

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

  it('draws a line per agent up to GROUPED_ABOVE subagents, then the parent and one for all subagents', () => {
    const subagents = (n: number) => Array.from({ length: n }, (_, i) => `subagent-${i + 1}`);
    expect(chartLines(['parent', ...subagents(GROUPED_ABOVE)])).toEqual([
      'parent',
      ...subagents(GROUPED_ABOVE),
    ]);
    const lines = chartLines(['parent', ...subagents(GROUPED_ABOVE + 1)]);
    expect(lines).toEqual(['parent', SUBAGENTS_LINE]);
    expect(lineForAgent(lines, 'parent')).toBe('parent');
    expect(lineForAgent(lines, 'subagent-7')).toBe(SUBAGENTS_LINE);
    expect(lineForAgent(['parent', 'subagent-1'], 'subagent-1')).toBe('subagent-1');
  });

  it('puts every subagent call in the grouped series at its own x, with the figure it sent', () => {
    const calls = [
      call(1, 'parent', 100),
      call(2, 'subagent-1', 40),
      call(3, 'subagent-2', 50),
      call(4, 'subagent-1', 90),
      call(5, 'parent', 130),
    ];
    const lines = ['parent', SUBAGENTS_LINE];
    expect(alignedData(calls, [], lines, (agent) => lineForAgent(lines, agent))).toEqual([
      [1, 2, 3, 4, 5],
      [100, null, null, null, 130],
      [null, 40, 50, 90, null],
    ]);
  });

  it("traces each subagent's own steps in the grouped series: held until its next call, never joined to another's", () => {
    const calls = [
      call(1, 'parent', 100),
      call(2, 'subagent-1', 40),
      call(3, 'subagent-2', 50),
      call(4, 'subagent-1', 90),
      call(5, 'subagent-2', 70),
    ];
    const drawn = new Map<string, string[]>();
    const sink = (agent: string) => {
      const moves = drawn.get(agent) ?? [];
      drawn.set(agent, moves);
      return {
        moveTo: (x: number, y: number) => moves.push(`M${x},${y}`),
        lineTo: (x: number, y: number) => moves.push(`L${x},${y}`),
      };
    };
    traceSubagentSteps(
      calls,
      (seq) => seq * 10,
      (sent) => sent,
      sink,
    );
    expect([...drawn.keys()]).toEqual(['subagent-1', 'subagent-2']);
    expect(drawn.get('subagent-1')).toEqual(['M20,40', 'L20,40', 'M20,40', 'L40,40', 'L40,90']);
    expect(drawn.get('subagent-2')).toEqual(['M30,50', 'L30,50', 'M30,50', 'L50,50', 'L50,70']);
  });

  it('keeps one path per colour, in the order first asked for, however many agents share it', () => {
    let made = 0;
    const paths = byColor(() => ({ id: ++made }));
    const a = paths.of('#f00');
    expect(paths.of('#0f0')).toEqual({ id: 2 });
    expect(paths.of('#f00')).toBe(a);
    expect([...paths.all.keys()]).toEqual(['#f00', '#0f0']);
    expect(made).toBe(2);
  });
});
