/**
 * History's entries: one per kept run, except the runs of one comparison (Compare runs a prompt in
 * each mode, and each mode's run is kept), which make one entry holding its modes, newest first.
 */
import type { RunSummary } from '../run/store';

export interface HistoryEntry {
  /** The run's id, or the comparison's. */
  key: string;
  /** The entry's runs, newest first: one, or a comparison's modes. */
  runs: RunSummary[];
  /** Whether it is a comparison's runs. */
  compared: boolean;
}

/** Groups `runs` (newest first) into History's entries, in the same order. */
export function historyEntries(runs: readonly RunSummary[]): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  const byComparison = new Map<string, HistoryEntry>();
  for (const run of runs) {
    const comparison = run.settings.comparison;
    const entry = comparison ? byComparison.get(comparison) : undefined;
    if (entry) {
      entry.runs.push(run);
      continue;
    }
    const made: HistoryEntry = { key: comparison ?? run.id, runs: [run], compared: comparison !== undefined };
    if (comparison) byComparison.set(comparison, made);
    entries.push(made);
  }
  return entries;
}
