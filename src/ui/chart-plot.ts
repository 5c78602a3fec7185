/**
 * The context chart's plot as uPlot takes it: its data (one x per model call) and its options (the
 * axes, a line per compared run and per agent). No component state: ./components/ContextChart.svelte
 * gives the labels, colours and hooks, and keeps the plot.
 */
import type uPlot from 'uplot';
import type { CallEntry } from '../run/ledger';
import { roundTicks } from './axes';

/** A model call as the chart plots it: its number in the run, its agent and what it sent. */
export type PlottedCall = Pick<CallEntry, 'seq' | 'agent' | 'sent'>;

/** A compared run's parent line: its calls, and how it is drawn. */
export interface PlottedRun {
  label: string;
  stroke: string;
  dash: number[];
  calls: readonly PlottedCall[];
}

/**
 * One x per call, in the order calls started; each series holds what its calls sent (the call
 * ledger's figure, ../run/ledger.ts) and nulls elsewhere. The compared runs
 * come first, so that they are drawn under the shown run's lines.
 */
export function alignedData(
  calls: readonly PlottedCall[],
  compared: readonly PlottedRun[],
  agents: readonly string[],
): uPlot.AlignedData {
  const n = Math.max(calls.at(-1)?.seq ?? 0, ...compared.map((run) => run.calls.at(-1)?.seq ?? 0));
  const xs = Array.from({ length: n }, (_, i) => i + 1);
  const column = () => xs.map((): number | null => null);
  const runs = compared.map((run) => {
    const ys = column();
    for (const c of run.calls) ys[c.seq - 1] = c.sent;
    return ys;
  });
  // One pass over the calls, whatever the number of agents (a fan-out has hundreds): drawn each frame of a run.
  const lines = agents.map(column);
  const lineOf = new Map(agents.map((agent, i) => [agent, lines[i]]));
  for (const c of calls) {
    const ys = lineOf.get(c.agent);
    if (ys) ys[c.seq - 1] = c.sent;
  }
  return [xs, ...runs, ...lines];
}

/** An agent's line: the parent's wider than its subagents'. */
export function agentLine(
  agent: string,
  look: { label: string; stroke: string },
  paths: uPlot.Series.PathBuilder,
): uPlot.Series {
  return {
    label: look.label,
    stroke: look.stroke,
    width: agent === 'parent' ? 2.5 : 1.5,
    spanGaps: true,
    paths,
    points: { size: 5 },
  };
}

/** What the plot's options are made of, besides uPlot's defaults. */
export interface PlotSetup {
  width: number;
  axisLabels: { calls: string; tokens: string };
  /** The compared runs' lines, each with its colour resolved. */
  compared: readonly PlottedRun[];
  /** The agents' lines (see agentLine). */
  lines: readonly uPlot.Series[];
  /** Steps: a context holds its value until the agent's next call. */
  paths: uPlot.Series.PathBuilder;
  /** Told the y ticks as uPlot writes them. */
  yTicks: (ticks: number[]) => string[];
  draw: (u: uPlot) => void;
}

export function plotOptions(setup: PlotSetup): uPlot.Options {
  const axis = { size: 36, labelSize: 14, stroke: '#64748b', grid: { stroke: '#e2e8f0' } };
  return {
    width: setup.width,
    height: 170,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: {
      x: { time: false },
      // From 0 to the round tick above the peak: heights compare as sizes.
      y: { range: (_u, _min, max) => [0, roundTicks(max, 4).at(-1)!] },
    },
    axes: [
      {
        ...axis,
        label: setup.axisLabels.calls,
        // Calls are counted: whole numbers only.
        incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
      },
      {
        ...axis,
        label: setup.axisLabels.tokens,
        size: 52,
        // Four or five round ticks from 0, whatever the height: a peak is read against them.
        splits: (u) => roundTicks(u.scales.y.max ?? 0, 4),
        values: (_u, ticks) => setup.yTicks(ticks),
      },
    ],
    series: [
      {},
      ...setup.compared.map((run) => ({
        label: run.label,
        stroke: run.stroke,
        dash: run.dash,
        // Wide and light: a mode whose parent grew as the shown one did (Fork on a fresh
        // conversation) still shows around the shown line.
        width: 5,
        alpha: 0.6,
        spanGaps: true,
        paths: setup.paths,
        points: { size: 4 },
      })),
      ...setup.lines,
    ],
    hooks: { draw: [setup.draw] },
  };
}
