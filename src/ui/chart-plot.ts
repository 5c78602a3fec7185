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
  lineFor: (agent: string) => string = (agent) => agent,
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
    const ys = lineOf.get(lineFor(c.agent));
    if (ys) ys[c.seq - 1] = c.sent;
  }
  return [xs, ...runs, ...lines];
}

/**
 * Above this many subagents the chart draws them all as one series (SUBAGENTS_LINE): each still
 * its own steps in its own colour, but one series to draw, not hundreds (each of which uPlot walks
 * over every call of the run, at every draw), and one key in the legend.
 */
export const GROUPED_ABOVE = 12;

/** The key of the series that holds every subagent's calls in a grouped chart. */
export const SUBAGENTS_LINE = 'subagents';

/** The chart's lines: an agent each, or the parent and one for all its subagents (a large run). */
export function chartLines(agents: readonly string[]): string[] {
  const subagents = agents.filter((agent) => agent !== 'parent').length;
  if (subagents <= GROUPED_ABOVE) return [...agents];
  return agents.includes('parent') ? ['parent', SUBAGENTS_LINE] : [SUBAGENTS_LINE];
}

/** The line an agent's calls are drawn on (see chartLines). */
export function lineForAgent(lines: readonly string[], agent: string): string {
  return lines.includes(SUBAGENTS_LINE) && agent !== 'parent' ? SUBAGENTS_LINE : agent;
}

/** Where a path goes: a Path2D, or a test's list. */
export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
}

/**
 * Every subagent's own steps in one series: per agent, from its first call to its last, its value
 * held until its next call (as the per-agent lines step, uPlot's `stepped` with `align: 1`). `sink`
 * gives the path an agent is drawn on (a path per colour); `x` and `y` place a call's number and
 * tokens on the canvas. One pass over the calls.
 */
export function traceSubagentSteps(
  calls: readonly PlottedCall[],
  x: (seq: number) => number,
  y: (sent: number) => number,
  sink: (agent: string) => PathSink,
): void {
  const last = new Map<string, { x: number; y: number }>();
  for (const c of calls) {
    if (c.agent === 'parent') continue;
    const px = x(c.seq);
    const py = y(c.sent);
    const path = sink(c.agent);
    const before = last.get(c.agent);
    if (before) {
      path.moveTo(before.x, before.y);
      path.lineTo(px, before.y);
      path.lineTo(px, py);
    } else {
      path.moveTo(px, py);
      path.lineTo(px, py);
    }
    last.set(c.agent, { x: px, y: py });
  }
}

/**
 * What is drawn in one colour (a path, its marks), made as first asked for: one stroke per colour
 * however many agents or marks share it. `all` lists them in the order first asked for.
 */
export function byColor<T>(make: () => T): { of(color: string): T; all: Map<string, T> } {
  const all = new Map<string, T>();
  return {
    all,
    of(color) {
      let item = all.get(color);
      if (item === undefined) all.set(color, (item = make()));
      return item;
    },
  };
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
