/**
 * Compare: the same prompt run in several context modes, one after another, each on a fresh copy
 * of the sample project, and the lesson measured on the learner's own runs (docs/protocol.md, "How a
 * saving is counted"): the saving of isolation = 1 - parent context (isolated) / (none).
 *
 * The runs go `none` first and `isolated` last, so the screen ends on the s04 run, with the
 * single agent's line drawn over it in the chart.
 */
import { runTotals, savingOf, type RunTotals } from '../run/measures';
import type { ContextMode, RunRecord, RunStatus } from '../run/record';

export { savingOf };

/** What a run may be given other than the settings on screen: Compare's mode and its comparison. */
export interface RunChoice {
  /** The context mode for this run (else the one chosen on screen). */
  context?: ContextMode;
  /** The comparison this run is one mode of (History groups its runs). */
  comparison?: string;
}

export interface ComparedRun {
  mode: ContextMode;
  record: RunRecord;
  status: RunStatus;
  totals: RunTotals;
}

/** What Compare needs of the runtime (./runtime.svelte.ts). */
export interface Comparable {
  /** The live record: the run that just ended. */
  readonly record: RunRecord | null;
  /** Its status at its end (the boot's, when no run began). */
  readonly status: RunStatus;
  /** A fresh conversation on a fresh copy of the sample project. */
  startOver(): Promise<void>;
  /** Runs `prompt` in `context`, as one run of the comparison `comparison` (History groups them). */
  run(prompt: string, choice: RunChoice): Promise<unknown>;
}

export class Comparison {
  prompt = $state('');
  modes = $state.raw<ContextMode[]>([]);
  runs = $state.raw<ComparedRun[]>([]);
  /** The mode running now, or null when the comparison is over. */
  current = $state<ContextMode | null>(null);
  /** Why it ended early: a run stopped or failed. */
  ended = $state<RunStatus | null>(null);

  /** The saving of isolation, in percent, once both runs it needs are done. */
  saving = $derived.by(() => {
    const isolated = this.runs.find((r) => r.mode === 'isolated' && r.status.kind === 'finished');
    const none = this.runs.find((r) => r.mode === 'none' && r.status.kind === 'finished');
    if (!isolated || !none || none.totals.parentContext === 0) return null;
    return savingOf(isolated.totals, none.totals);
  });

  readonly #target: Comparable;
  #stopped = false;

  constructor(target: Comparable) {
    this.#target = target;
  }

  get running(): boolean {
    return this.current !== null;
  }

  /** Whether there is a comparison to show (under way, or with runs finished). */
  get shown(): boolean {
    return this.running || this.runs.length > 0;
  }

  /** Runs `prompt` in each mode (none first, isolated last); a stopped or failed run ends it. */
  async start(prompt: string, withFork: boolean): Promise<void> {
    if (this.running) return;
    const modes: ContextMode[] = withFork ? ['none', 'fork', 'isolated'] : ['none', 'isolated'];
    this.prompt = prompt;
    this.modes = modes;
    this.runs = [];
    this.ended = null;
    this.#stopped = false;
    const target = this.#target;
    // Its runs share an id in their settings: History lists them as one entry.
    const comparison = `compare-${Date.now().toString(36)}`;
    try {
      for (const mode of modes) {
        if (this.#stopped) break;
        this.current = mode;
        await target.startOver();
        await target.run(prompt, { context: mode, comparison });
        const record = target.record;
        const status = target.status;
        if (record) this.runs = [...this.runs, { mode, record, status, totals: runTotals(record) }];
        if (status.kind !== 'finished') {
          this.ended = status;
          break;
        }
      }
    } finally {
      this.current = null;
    }
  }

  /** Stop: the run under way stops (the runtime's Stop) and no further mode starts. */
  stop(): void {
    this.#stopped = true;
  }

  clear(): void {
    if (this.running) return;
    this.runs = [];
    this.modes = [];
    this.ended = null;
  }
}
