/**
 * History as the screen sees it: the kept runs, newest first, and a sentence when runs cannot be
 * kept. IndexedDB is opened after the page's start, never on the way to the first run; a record
 * begun before it is open is saved once it is.
 *
 * No run is lost to one click. `Delete` (and "Delete all runs") only takes runs off the list and
 * offers `Undo`; the runs leave IndexedDB once that Undo has been on screen for UNDO_MS without
 * being used. Until then the record is untouched where it is kept, so Undo gives it back exactly
 * (same id, events, status, place in the list), and a page closed or reloaded during the window
 * keeps the run: it is listed again on the next visit. We chose that over deleting at once and
 * writing the record back on Undo, because closing a tab is no clear intent to delete, and a
 * write-back can fail (a full disk) where a deletion never started cannot.
 *
 * Deletions made one after another stack up: each stays undoable, Undo gives back the latest first
 * (as an editor's undo does), and the window restarts at each deletion and each Undo, so the runs
 * a person is still working through are never committed under them. The window counts only while
 * History is open: an Undo nobody could see has not had its time.
 */
import type { Keeper, RunKeeping, Summarize } from '../page/recorder.svelte';
import type { RunRecord } from '../run/record';
import { RunStore, type RecordWriter, type RunSummary } from '../run/store';
import { sentenceOf, type Sentence } from './sentence';

/** Runs taken off the list by one click, still undoable. */
export interface Deletion {
  /** The runs, as they were listed. */
  runs: RunSummary[];
  /** Whether it was "Delete all runs" (else `Delete` of one run). */
  all: boolean;
}

export class History implements RunKeeping {
  /** How long an Undo is offered after the last deletion or Undo, counted while History is open. */
  static readonly UNDO_MS = 15_000;
  /** Every run in IndexedDB, newest first, those deleted but still undoable included. */
  #kept = $state.raw<RunSummary[]>([]);
  /** Deletions that can still be undone, the latest last. */
  deletions = $state.raw<Deletion[]>([]);
  /** Runs whose Undo has run out, on their way out of IndexedDB. */
  #leaving = $state.raw<readonly string[]>([]);
  /** The kept runs as listed: newest first, without the deleted ones. */
  readonly runs = $derived.by(() => {
    const gone = [...this.#leaving, ...this.deletions.flatMap((d) => d.runs.map((r) => r.id))];
    return gone.length === 0 ? this.#kept : without(this.#kept, gone);
  });
  /** Why runs are not kept (storage missing or full); null while all is well. */
  problem = $state.raw<Sentence | null>(null);
  /** Why deleted runs could not leave IndexedDB (they are listed again); null while all is well. */
  deleteProblem = $state.raw<Sentence | null>(null);
  /** Why History could not be opened, given again to whoever asks it for a run. */
  #failure: unknown;
  #store: Promise<RunStore | null> | undefined;
  readonly #open: () => Promise<RunStore>;
  /** Counts the list's reads, so that a late one never overwrites a newer list. */
  #listed = 0;
  #shown = false;
  #window: ReturnType<typeof setTimeout> | undefined;

  constructor(open: () => Promise<RunStore> = () => RunStore.open()) {
    this.#open = open;
  }

  /** Opens IndexedDB once; resolves null (with `problem` set) where it cannot be used. */
  store(): Promise<RunStore | null> {
    this.#store ??= this.#open().catch((error: unknown) => {
      this.#failure = error;
      this.problem = sentenceOf(error);
      return null;
    });
    return this.#store;
  }

  /** Re-reads the list of kept runs. */
  async refresh(): Promise<void> {
    const store = await this.store();
    if (!store) return;
    const listed = ++this.#listed;
    const kept = await store.list();
    if (listed === this.#listed) this.#kept = kept;
  }

  async load(id: string): Promise<RunRecord> {
    const store = await this.store();
    if (!store) throw this.#failure;
    return store.load(id);
  }

  /** Takes a run off the list, undoably; it leaves IndexedDB once its Undo has had its time. */
  delete(id: string): void {
    const run = this.runs.find((r) => r.id === id);
    if (run) this.#deleted({ runs: [run], all: false });
  }

  /**
   * Takes every listed run off the list as one undoable deletion, or those of `asked` still
   * listed (the runs a confirmation named); says how many.
   */
  deleteAll(asked: readonly RunSummary[] = this.runs): number {
    const runs = asked.filter((run) => this.runs.some((listed) => listed.id === run.id));
    if (runs.length > 0) this.#deleted({ runs, all: true });
    return runs.length;
  }

  /** Lists the latest deletion's runs again, where they were; returns it (undefined if none). */
  undo(): Deletion | undefined {
    const latest = this.deletions.at(-1);
    if (!latest) return undefined;
    this.deletions = this.deletions.slice(0, -1);
    this.#restartWindow();
    return latest;
  }

  /** Whether History is on screen: an Undo's time counts only while it can be seen. */
  shown(visible: boolean): void {
    this.#shown = visible;
    this.#restartWindow();
  }

  #deleted(deletion: Deletion): void {
    this.deletions = [...this.deletions, deletion];
    this.deleteProblem = null;
    this.#restartWindow();
  }

  #restartWindow(): void {
    clearTimeout(this.#window);
    this.#window = undefined;
    if (this.#shown && this.deletions.length > 0) {
      this.#window = setTimeout(() => void this.commit(), History.UNDO_MS);
    }
  }

  /** Deletes from IndexedDB every run still undoable: their Undo has run out. */
  async commit(): Promise<void> {
    clearTimeout(this.#window);
    this.#window = undefined;
    const ids = this.deletions.flatMap((d) => d.runs.map((r) => r.id));
    this.deletions = [];
    if (ids.length === 0) return;
    this.#leaving = [...this.#leaving, ...ids];
    try {
      const store = await this.store();
      await store?.delete(...ids);
      this.#kept = without(this.#kept, ids);
      this.#listed++; // a list read before the deletion is out of date
    } catch (error) {
      this.deleteProblem = {
        key: 'history.notDeleted',
        params: { count: ids.length, reason: sentenceOf(error) },
      };
    } finally {
      this.#leaving = this.#leaving.filter((id) => !ids.includes(id));
    }
  }

  /** Keeps a record as it grows: each change is saved within a second, in a batch. */
  keep(record: RunRecord, summarize: Summarize): Keeper {
    let writer: RecordWriter | undefined;
    let release = () => {};
    const live = new Promise<void>((resolve) => (release = resolve));
    const ready = this.store().then((store) => {
      if (!store) return undefined;
      writer = store.keep(record, summarize);
      // Held while the record may still grow on this page: other pages then know it is not interrupted.
      store.hold(record.id, live);
      writer.onProblem = (problem) => (this.problem = sentenceOf(problem));
      return writer;
    });
    return {
      changed: () => {
        if (writer) writer.changed();
        else void ready.then((w) => w?.changed());
      },
      save: async () => {
        const w = await ready;
        await w?.save();
        if (w) await this.refresh();
      },
      done: release,
    };
  }
}

/** The runs whose id is not one of `ids`. */
function without(runs: readonly RunSummary[], ids: readonly string[]): RunSummary[] {
  const gone = new Set(ids);
  return runs.filter((run) => !gone.has(run.id));
}
