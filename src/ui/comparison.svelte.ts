/**
 * Compare: the same prompt run in several context modes, one after another, each on a fresh copy
 * of the sample project, and the lesson measured on the learner's own runs (docs/protocol.md, "How a
 * saving is counted"): the saving of isolation = 1 - parent context (isolated) / (none).
 *
 * The runs go `none` first and `isolated` last, so the screen ends on the s04 run, with the
 * single agent's line drawn over it in the chart.
 */
import { runTotals, savingOf, type RunTotals } from '../run/measures';

export { savingOf };
import type { ContextMode, RunRecord, RunStatus } from '../run/record';
import type { RunChoice } from './settings.svelte';
import type { SampleName } from '../sandbox/samples';
import { LANGUAGES } from '../settings/language';
import { exploresMore, samplePrompts } from './sample-prompts';

export interface ComparedRun {
  mode: ContextMode;
  record: RunRecord;
  status: RunStatus;
  totals: RunTotals;
}

/** What Compare needs of the playground. */
export interface Comparable {
  /** What is on screen: the record of the run that just ended. */
  readonly viewer: { readonly record: RunRecord | null };
  readonly status: RunStatus;
  /** A fresh conversation on a fresh copy of the sample project. */
  startOver(): Promise<void>;
  /** Runs `prompt` in `context`, as one run of the comparison `comparison` (History groups them). */
  run(prompt: string, choice: RunChoice): Promise<void>;
}

/** The tutorial's figure for prompt 1: the parent keeps about 330 tokens instead of about 2,750. */
export const TUTORIAL = { isolated: 330, none: 2750, saving: 88 };

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

  /** Which sample prompt (1 to 3, in any of the screen's languages) was compared, or null. */
  promptNumber = $derived.by(() => {
    const sample = this.runs[0]?.record.settings.sample;
    return sample ? sampleNumber(this.prompt, sample) : null;
  });

  /** The prompt compared is the one that explores more (in any of the screen's languages). */
  exploring = $derived(LANGUAGES.some((language) => exploresMore(language) === this.prompt.trim()));

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
        const record = target.viewer.record;
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

  /** Stop: the run under way stops (the playground's Stop) and no further mode starts. */
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

/** Which sample prompt `prompt` is (1 to 3) for `sample`, in any language, or null. */
export function sampleNumber(prompt: string, sample: SampleName): number | null {
  const text = prompt.trim();
  for (const language of LANGUAGES) {
    const i = samplePrompts(sample, language).indexOf(text);
    if (i >= 0) return i + 1;
  }
  return null;
}
