/**
 * What the bench and the scripts beside it read of the page's internals, as `window.__s04`
 * (the e2e specs never do: they drive the page through docs/automation-contract.md): only in a
 * test build (`vite build --mode test`, see App.svelte); a production build has none of it
 * (test/production-build.test.ts checks).
 */
import { runTotals } from '../run/measures';
import type { ContextMode, RecordOrigin, RunRecord } from '../run/record';
import type { Playground } from './playground.svelte';
import type { Sentence } from './sentence';
import type { Viewer } from './viewer.svelte';

/** What a hook reads of the run on screen: the Playground's, or an embed's (EmbedStage). */
interface Shown {
  readonly viewer: Viewer;
  readonly notice: Sentence | null;
}

/** The paths of `window.__s04` about the run on screen. */
function shownHook(stage: Shown) {
  const { viewer } = stage;
  return {
    get record() {
      return viewer.record;
    },
    get shown() {
      return viewer.shown;
    },
    get steps() {
      return viewer.steps;
    },
    get opened() {
      return viewer.opened;
    },
    get notice() {
      return stage.notice;
    },
    exportRun: () => viewer.exportRun(),
    importFile: (file: File) => viewer.importFile(file),
    open: (record: RunRecord, origin: RecordOrigin) => viewer.open(record, origin),
    stepTo: (step: number) => viewer.stepTo(step),
    closeOpened: () => viewer.closeOpened(),
  };
}

/** `window.__s04` of an embedded run: the run on screen only. */
export function exposeStageForTests(stage: Shown): void {
  (window as unknown as { __s04: unknown }).__s04 = shownHook(stage);
}

/** `window.__s04`: the paths scripts/bench.mjs and the other scripts use. */
export function exposeForTests(playground: Playground): void {
  const { sandbox } = playground.runtime;
  const more = {
    get sandbox() {
      return sandbox;
    },
    readFile: (path: string) => sandbox.readFile(path),
    /** Shows these runs as a finished comparison (the bench draws the chart with every mode over a big run). */
    showComparison: (runs: Array<{ mode: ContextMode; record: RunRecord }>) => {
      playground.runtime.comparison.modes = runs.map((run) => run.mode);
      playground.runtime.comparison.runs = runs.map((run) => ({
        ...run,
        status: { kind: 'finished' },
        totals: runTotals(run.record),
      }));
    },
  };
  // The getters stay getters (a spread would read them once).
  const hook = Object.defineProperties(shownHook(playground), Object.getOwnPropertyDescriptors(more));
  (window as unknown as { __s04: typeof hook }).__s04 = hook;
}
