/**
 * What the e2e specs and the bench read of the page's internals, as `window.__s04`: only in a
 * test build (`vite build --mode test`, see App.svelte); a production build has none of it
 * (test/production-build.test.ts checks).
 */
import { unpackRecord } from '../run/link';
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
    /** Unpacks a link's `#run=` as a page opened from it does (e2e/share-unpack.spec.ts). */
    unpackLink: (packed: string) => unpackRecord(packed),
  };
}

/** `window.__s04` of an embedded run: the run on screen only. */
export function exposeStageForTests(stage: Shown): void {
  (window as unknown as { __s04: unknown }).__s04 = shownHook(stage);
}

/** `window.__s04`: the paths the specs and scripts/bench.mjs use. */
export function exposeForTests(playground: Playground): void {
  const { conversation, sandbox } = playground;
  const more = {
    get comparison() {
      return playground.comparison;
    },
    get sandbox() {
      return sandbox;
    },
    /** The spare subagent worker waiting for the next task, if there is one. */
    get spareWorker() {
      return conversation.spare;
    },
    /** The live agent workers. */
    get liveWorkers() {
      return conversation.workers;
    },
    readFile: (path: string) => sandbox.readFile(path),
    /** Shows these runs as a finished comparison (the bench draws the chart with every mode over a big run). */
    showComparison: (runs: Array<{ mode: ContextMode; record: RunRecord }>) => {
      playground.comparison.modes = runs.map((run) => run.mode);
      playground.comparison.runs = runs.map((run) => ({
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
