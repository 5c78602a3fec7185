/**
 * History: runs kept in IndexedDB (through `idb`), so that a reload loses nothing.
 *
 *   runs    one row per run: the record without its events, plus what History lists
 *           (title, model, date, figures, status), newest first by `startedAt`
 *   chunks  the events, appended in batches: [runId, seq] -> events[]
 *
 * A run's events are saved in batches at most a second apart, when the page is idle, so a save
 * is never on the path of a spawn or a tool call. Appending a chunk costs the new events only,
 * not the whole record, and a chunk is bounded (CHUNK_EVENTS events, CHUNK_CHARS characters): the
 * browser copies what it stores on the page's thread, so a save of a busy stretch of a big run is
 * written a chunk per task. Storage that is full or missing (private modes) becomes a sentence for
 * the screen; the playground works on without History.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { RecordEvent, RunRecord, RunSettings, RunStatus } from './record';
import { later } from './later';
import { StorageProblem } from './storage-problem';
import { messageOf } from '../core/errors';
import { messageChars } from './size';

export { StorageProblem, type StorageProblemCode } from './storage-problem';

/** What History lists of a run. */
export interface RunSummary {
  id: string;
  title: string;
  startedAt: number;
  settings: RunSettings;
  status: RunStatus;
  figures: RunFigures;
  /** The page that recorded it (a run still `running` under another page was interrupted). */
  pageId: string;
  events: number;
  chunks: number;
}

export interface RunFigures {
  /** The parent's context at the end, in tokens. */
  parentTokens: number;
  /** Whether the figures are the API's counts (else estimates). */
  counted: boolean;
  calls: number;
  subagents: number;
}

type Header = Omit<RunRecord, 'events'>;

interface HistoryDb extends DBSchema {
  runs: { key: string; value: RunSummary & { header: Header }; indexes: { startedAt: number } };
  chunks: { key: [string, number]; value: { runId: string; seq: number; events: RecordEvent[] } };
}

const DB_NAME = 's04-history';
const LOCK_PREFIX = 's04-run:';

const RUNNING = { kind: 'running' } satisfies RunStatus;

/** The status given to a run whose page went away while it was running. */
export const INTERRUPTED = {
  kind: 'stopped',
  reason: 'interrupted (the page was reloaded or closed)',
} satisfies RunStatus;

/**
 * Why History cannot keep or give back runs, in English; the screen says it in its own language
 * from the code and parameters (the `storage.*` keys of src/ui/locales).
 */
function problemOf(error: unknown): StorageProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'QuotaExceededError') return new StorageProblem('full');
  const detail = messageOf(error);
  return new StorageProblem('blocked', { detail });
}

type Locks = Pick<LockManager, 'request' | 'query'>;

/** A chunk of a growing record holds at most this many events... */
export const CHUNK_EVENTS = 500;
/** ...and about this many characters of them as JSON (one event over it goes alone). */
export const CHUNK_CHARS = 1_000_000;

/**
 * About how many characters an event takes as JSON: a message's size is known once it is measured
 * (./size.ts: the screen measures every message as it arrives), anything else is measured here.
 */
export function eventChars(event: RecordEvent): number {
  if (event.type === 'message') return messageChars(event.message);
  if (event.type === 'spawn') {
    let chars = event.description.length + event.taskId.length;
    for (const message of event.messages) chars += messageChars(message);
    return chars;
  }
  return JSON.stringify(event)?.length ?? 0;
}

/**
 * Where the chunks of events[from..to] end, in order: each holds at most CHUNK_EVENTS events and
 * CHUNK_CHARS characters (a single event over it alone). Nothing to save is one empty chunk.
 */
export function chunkEnds(events: readonly RecordEvent[], from: number, to: number): number[] {
  const ends: number[] = [];
  let start = from;
  let chars = 0;
  for (let i = from; i < to; i++) {
    const size = eventChars(events[i]);
    if (i > start && (i - start === CHUNK_EVENTS || chars + size > CHUNK_CHARS)) {
      ends.push(i);
      start = i;
      chars = 0;
    }
    chars += size;
  }
  ends.push(to);
  return ends;
}

/** A task boundary: the page draws and takes its input between two chunks of a save. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export class RunStore {
  readonly #db: IDBPDatabase<HistoryDb>;
  readonly pageId: string;
  readonly #locks: Locks | undefined;

  private constructor(db: IDBPDatabase<HistoryDb>, pageId: string, locks: Locks | undefined) {
    this.#db = db;
    this.pageId = pageId;
    this.#locks = locks;
  }

  /** Opens History, or rejects with a StorageProblem (no IndexedDB, private mode, blocked). */
  static async open(options: { pageId?: string; locks?: Locks; name?: string } = {}): Promise<RunStore> {
    if (!globalThis.indexedDB) throw new StorageProblem('noIndexedDb');
    const pageId = options.pageId ?? crypto.randomUUID();
    try {
      const db = await openDB<HistoryDb>(options.name ?? DB_NAME, 1, {
        upgrade(db) {
          db.createObjectStore('runs', { keyPath: 'id' }).createIndex('startedAt', 'startedAt');
          db.createObjectStore('chunks', { keyPath: ['runId', 'seq'] });
        },
      });
      return new RunStore(db, pageId, options.locks ?? globalThis.navigator?.locks);
    } catch (error) {
      throw problemOf(error);
    }
  }

  /** Every kept run, newest first; runs whose page went away mid-run are marked interrupted. */
  async list(): Promise<RunSummary[]> {
    const rows = await this.#db.getAllFromIndex('runs', 'startedAt');
    const held = await this.#heldLocks();
    const summaries: RunSummary[] = [];
    for (const { header: _header, ...summary } of rows.reverse()) {
      if (summary.status.kind === 'running' && summary.pageId !== this.pageId && !held.has(summary.id)) {
        summaries.push(await this.#markInterrupted(summary));
      } else summaries.push(summary);
    }
    return summaries;
  }

  async #heldLocks(): Promise<Set<string>> {
    const state = await this.#locks?.query().catch(() => undefined);
    const names = (state?.held ?? []).map((lock) => lock.name ?? '');
    return new Set(names.filter((n) => n.startsWith(LOCK_PREFIX)).map((n) => n.slice(LOCK_PREFIX.length)));
  }

  /** Ends an interrupted run's record with a status that says so. */
  async #markInterrupted(summary: RunSummary): Promise<RunSummary> {
    const row = await this.#db.get('runs', summary.id);
    if (!row) return summary;
    const last = await this.#lastTime(summary.id, row.chunks);
    const event: RecordEvent = { type: 'status', status: INTERRUPTED, t: last };
    const next = { ...row, status: INTERRUPTED, events: row.events + 1, chunks: row.chunks + 1 };
    const tx = this.#db.transaction(['runs', 'chunks'], 'readwrite');
    await Promise.all([
      tx.objectStore('chunks').put({ runId: summary.id, seq: row.chunks, events: [event] }),
      tx.objectStore('runs').put(next),
      tx.done,
    ]);
    const { header: _header, ...updated } = next;
    return updated;
  }

  async #lastTime(id: string, chunks: number): Promise<number> {
    if (chunks === 0) return 0;
    const chunk = await this.#db.get('chunks', [id, chunks - 1]);
    return chunk?.events.at(-1)?.t ?? 0;
  }

  /** A kept run's whole record. */
  async load(id: string): Promise<RunRecord> {
    const row = await this.#db.get('runs', id);
    if (!row) throw new StorageProblem('gone');
    const chunks = await this.#db.getAll('chunks', IDBKeyRange.bound([id, 0], [id, Infinity]));
    chunks.sort((a, b) => a.seq - b.seq);
    return { ...row.header, events: chunks.flatMap((c) => c.events) };
  }

  /** Deletes these runs, all of them or none (one transaction). */
  async delete(...ids: string[]): Promise<void> {
    try {
      const tx = this.#db.transaction(['runs', 'chunks'], 'readwrite');
      await Promise.all([
        ...ids.flatMap((id) => [
          tx.objectStore('runs').delete(id),
          tx.objectStore('chunks').delete(IDBKeyRange.bound([id, 0], [id, Infinity])),
        ]),
        tx.done,
      ]);
    } catch (error) {
      throw problemOf(error);
    }
  }

  async clear(): Promise<void> {
    const tx = this.#db.transaction(['runs', 'chunks'], 'readwrite');
    await Promise.all([tx.objectStore('runs').clear(), tx.objectStore('chunks').clear(), tx.done]);
  }

  /** Keeps a record as it grows; see RecordWriter. */
  keep(record: RunRecord, summarize: () => Pick<RunSummary, 'status' | 'figures'>): RecordWriter {
    return new RecordWriter(this, record, summarize);
  }

  /** Saves a whole record at once (an imported run kept in History). */
  async put(record: RunRecord, summary: Pick<RunSummary, 'status' | 'figures'>): Promise<void> {
    await this.append(record, 0, 0, summary);
  }

  /**
   * @internal Appends events[from..to] of a record (to its end by default) as chunk `seq`, with
   * its summary, in one transaction: the run's row never counts events that are not stored.
   */
  async append(
    record: RunRecord,
    from: number,
    seq: number,
    summary: Pick<RunSummary, 'status' | 'figures'>,
    to = record.events.length,
  ): Promise<void> {
    const { events, ...header } = record;
    const row = {
      id: record.id,
      title: record.title,
      startedAt: record.startedAt,
      settings: record.settings,
      pageId: this.pageId,
      events: to,
      chunks: seq + 1,
      ...summary,
      header,
    };
    try {
      const tx = this.#db.transaction(['runs', 'chunks'], 'readwrite');
      await Promise.all([
        tx.objectStore('chunks').put({ runId: record.id, seq, events: events.slice(from, to) }),
        tx.objectStore('runs').put(row),
        tx.done,
      ]);
    } catch (error) {
      throw problemOf(error);
    }
  }

  /** Holds the run's lock while it is live, so that other pages do not call it interrupted. */
  hold(id: string, until: Promise<unknown>): void {
    void this.#locks?.request(LOCK_PREFIX + id, () => until.catch(() => {})).catch(() => {});
  }

  close(): void {
    this.#db.close();
  }
}

/**
 * Saves a growing record: what was appended since the last save goes as chunks (see chunkEnds),
 * at most DELAY_MS after it was recorded, in an idle moment of the page, one chunk per task, in
 * order. Each chunk is stored with the run's row in one transaction; until a save's last chunk the
 * row says `running` (a page gone mid-save leaves a run that reads as interrupted, never one whose
 * end was not stored). Each save, once all of it is stored, is marked `history:saved` at the
 * moment its events were taken.
 */
export class RecordWriter {
  static readonly DELAY_MS = 800;
  /**
   * Scheduled saves are at least this far apart, however often the record changes (each is a
   * transaction, and a copy of the run's row, on the page's thread): a run of hundreds of subagents
   * changes its record many times a frame, and would be saved at every idle moment of its page.
   */
  static readonly GAP_MS = 250;
  readonly #store: RunStore;
  readonly #record: RunRecord;
  readonly #summarize: () => Pick<RunSummary, 'status' | 'figures'>;
  #saved = 0;
  #seq = 0;
  #scheduled = false;
  /** When the last scheduled save began (the page's clock). */
  #savedAt = -Infinity;
  #saving: Promise<void> = Promise.resolve();
  /** The latest failure, as a sentence; reported once through `onProblem`. */
  onProblem: (problem: StorageProblem) => void = () => {};

  constructor(store: RunStore, record: RunRecord, summarize: () => Pick<RunSummary, 'status' | 'figures'>) {
    this.#store = store;
    this.#record = record;
    this.#summarize = summarize;
  }

  /**
   * Call after appending events: a save is scheduled if none is, in an idle moment at least GAP_MS
   * after the last one began, and at most DELAY_MS from now.
   */
  changed(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    const wait = Math.max(
      0,
      Math.min(this.#savedAt + RecordWriter.GAP_MS - performance.now(), RecordWriter.GAP_MS),
    );
    const idle = () =>
      later(() => {
        this.#scheduled = false;
        this.#savedAt = performance.now();
        void this.save();
      }, RecordWriter.DELAY_MS - wait);
    if (wait > 0) setTimeout(idle, wait);
    else idle();
  }

  /** Saves what is new now; resolves when it is stored. */
  save(): Promise<void> {
    this.#saving = this.#saving.then(async () => {
      const events = this.#record.events.length;
      if (events === this.#saved && this.#seq > 0) return;
      const asOf = performance.now();
      const summary = this.#summarize();
      const ends = chunkEnds(this.#record.events, this.#saved, events);
      try {
        for (const [i, to] of ends.entries()) {
          if (i > 0) await nextTask();
          const last = i === ends.length - 1;
          const status = last ? summary.status : RUNNING;
          await this.#store.append(this.#record, this.#saved, this.#seq, { ...summary, status }, to);
          this.#saved = to;
          this.#seq++;
        }
        // Once stored: the record as it was at `asOf` is in History (docs/automation-contract.md).
        performance.mark('history:saved', { startTime: asOf, detail: { run: this.#record.id, events } });
      } catch (error) {
        this.onProblem(error instanceof StorageProblem ? error : problemOf(error));
      }
    });
    return this.#saving;
  }
}
