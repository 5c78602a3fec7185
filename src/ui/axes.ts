/**
 * What the two charts' axes read: round steps for ticks (1, 2 or 5 times a power of ten), the
 * timeline's time ticks, and which compared runs the context chart draws over the one shown.
 */
import type { ContextMode, RunRecord } from '../run/record';

/** A compared run drawn over the shown one: its mode names its line. */
export interface ChartOverlay {
  mode: ContextMode;
  label: string;
  record: RunRecord;
}

/** How each mode's parent line is drawn over another run: its colour and dash, told apart without colour. */
export const OVERLAY_LOOKS: Record<ContextMode, { stroke: string; dash: number[] }> = {
  none: { stroke: '#64748b', dash: [6, 4] },
  fork: { stroke: '#0f766e', dash: [2, 3] },
  isolated: { stroke: 'var(--agent-parent)', dash: [12, 4] },
};

/** The order the chart's legend and table list the modes in. */
const MODE_ORDER: readonly ContextMode[] = ['none', 'fork', 'isolated'];

/** Every compared run but the one on screen, in the legend's order (none, fork, isolated). */
export function overlaysOf<Run extends { mode: ContextMode; record: RunRecord }>(
  runs: readonly Run[],
  shown: RunRecord | null,
): Run[] {
  return runs
    .filter((run) => run.record !== shown)
    .sort((a, b) => MODE_ORDER.indexOf(a.mode) - MODE_ORDER.indexOf(b.mode));
}

/** The smallest step of 1, 2 or 5 times a power of ten that cuts `span` into at most `most` parts. */
export function roundStep(span: number, most: number): number {
  if (!(span > 0) || most < 1) return 1;
  const raw = span / most;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 5, 10]) if (factor * power >= raw) return factor * power;
  return 10 * power;
}

/** Ticks from 0 up to the first round value at or above `max`: `most` parts or fewer, at least one. */
export function roundTicks(max: number, most: number, least = 1): number[] {
  const step = Math.max(least, roundStep(max, most));
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks: number[] = [];
  for (let k = 0; k * step <= top + step / 1e6; k++) ticks.push(k * step);
  return ticks;
}

/** A tick of the timeline's time axis: where (ms from the run's start) and its label. */
export interface TimeTick {
  ms: number;
  label: string;
}

/**
 * Time ticks for a run of `end` ms, at most `most` intervals, none past the end: in ms under a
 * second's step, else in seconds (`0`, `0.5 s`, `1 s`, ...).
 */
export function timeTicks(end: number, most: number): TimeTick[] {
  if (!(end > 0)) return [{ ms: 0, label: '0' }];
  const step = Math.max(1, roundStep(end, most));
  const ticks: TimeTick[] = [];
  for (let ms = 0; ms <= end + step / 1e6; ms += step) {
    const at = Math.round(ms * 1e6) / 1e6;
    ticks.push({ ms: at, label: at === 0 ? '0' : timeLabel(at, step) });
  }
  return ticks;
}

function timeLabel(ms: number, step: number): string {
  if (step < 100) return `${ms} ms`;
  const digits = step >= 1000 ? 0 : step >= 100 ? 1 : 2;
  return `${(ms / 1000).toFixed(digits)} s`;
}
