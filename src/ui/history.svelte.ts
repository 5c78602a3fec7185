/**
 * History as the screen sees it: the kept runs, newest first, and a sentence when runs cannot be
 * kept. IndexedDB is opened after the page's start, never on the way to the first run; a record
 * begun before it is open is saved once it is.
 */
import type { RunRecord } from '../run/record';
import { RunStore, type RecordWriter, type RunSummary } from '../run/store';
import { sentenceOf, type Sentence } from './sentence';

type Summarize = ConstructorParameters<typeof RecordWriter>[2];

/** Saves a growing record, once History is open (and not at all if it cannot be). */
export interface Keeper {
  changed(): void;
  save(): Promise<void>;
}

export class History {
  runs = $state.raw<RunSummary[]>([]);
  /** Why runs are not kept (storage missing or full); null while all is well. */
  problem = $state.raw<Sentence | null>(null);
  /** Why History could not be opened, given again to whoever asks it for a run. */
  #failure: unknown;
  #store: Promise<RunStore | null> | undefined;

  /** Opens IndexedDB once; resolves null (with `problem` set) where it cannot be used. */
  store(): Promise<RunStore | null> {
    this.#store ??= RunStore.open().catch((error: unknown) => {
      this.#failure = error;
      this.problem = sentenceOf(error);
      return null;
    });
    return this.#store;
  }

  /** Re-reads the list of kept runs. */
  async refresh(): Promise<void> {
    const store = await this.store();
    if (store) this.runs = await store.list();
  }

  async load(id: string): Promise<RunRecord> {
    const store = await this.store();
    if (!store) throw this.#failure;
    return store.load(id);
  }

  async delete(id: string): Promise<void> {
    const store = await this.store();
    await store?.delete(id);
    await this.refresh();
  }

  async clear(): Promise<void> {
    const store = await this.store();
    await store?.clear();
    await this.refresh();
  }

  /** Keeps a record as it grows: each change is saved within a second, in a batch. */
  keep(record: RunRecord, summarize: Summarize): Keeper {
    let writer: RecordWriter | undefined;
    const ready = this.store().then((store) => {
      if (!store) return undefined;
      writer = store.keep(record, summarize);
      // Held while this page lives: other pages then know the run is not interrupted.
      store.hold(record.id, new Promise(() => {}));
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
    };
  }
}
