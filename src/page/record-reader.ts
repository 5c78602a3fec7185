/**
 * Opens a run off the page's thread: an imported file, a link's packed run, a `record=` address or
 * a History entry goes to a worker of its own (src/workers/opening/), which reads it within the run
 * file's limits, checks, clamps and cleans it, and hands the events back a batch at a time. The
 * page appends them and reduces them into the run's replay as they come, a batch in each task of
 * its own, so that no task of its own is long however big the run. `signal` (the
 * learner's Cancel) terminates the worker at once, whatever it was doing, and nothing on screen
 * changes; a worker that dies (out of memory) is said, not thrown at the page.
 */
import * as Comlink from 'comlink';
import { RecordError } from '../run/check';
import { LinkError, type LinkProblem } from '../run/link';
import { takeSizes } from '../run/opening';
import type { Secrets } from '../run/outgoing';
import { RECORD_FORMAT, RECORD_VERSION, type RecordEvent, type RunRecord } from '../run/record';
import { Replay } from '../run/replay';
import type { RecordProblem } from '../run/record-error';
import type { RemovedPart } from '../run/secrets';
import { StorageProblem, type StorageProblemCode } from '../run/storage-problem';
import type { OpenAnswer, OpeningWorkerApi, OpenSource } from '../workers/opening/protocol';
import OpeningWorker from '../workers/opening/opening.ts?worker';
import { endWorker } from './end-worker';

export type { OpenSource } from '../workers/opening/protocol';

/** A run read by the worker, ready to be shown as it is (already clamped and cleaned). */
export interface ReadRecord {
  record: RunRecord;
  /** What was taken out of it (src/run/outgoing.ts). */
  removed: RemovedPart[];
  /** Where a `record=` file was read, after redirects. */
  address?: string;
}

export interface ReadOptions {
  /** What the page's redaction knows: its key and endpoint. */
  secrets: Secrets;
  /** Cancels: the worker is terminated and the reading rejects (RecordError or LinkError `cancelled`). */
  signal?: AbortSignal;
  /** Bytes read so far, and the size expected (null when unknown). */
  onProgress?: (received: number, total: number | null) => void;
}

/** How long preparing the replay may add to the task that takes in one batch of events. */
const BATCH_PREPARE_MS = 30;

/**
 * What takes in a worker's events a batch at a time (src/run/opening.ts `batches`): `events` grows
 * with each, and the run's replay is prepared between the batches (what a replay learns of this
 * array is kept for the screen's replay of it: src/run/replay.ts).
 */
export interface EventBatches {
  events: RecordEvent[];
  take: (batch: RecordEvent[], sizes: number[]) => void;
}

export function eventBatches(): EventBatches {
  const events: RecordEvent[] = [];
  const replay = new Replay(events);
  return {
    events,
    take: (batch, sizes) => {
      if (!Array.isArray(batch)) return;
      // Sizes that do not fit the batch are not told: the screen then measures those messages.
      takeSizes(batch, sizes);
      for (const event of batch) events.push(event);
      replay.prepare(BATCH_PREPARE_MS);
    },
  };
}

/** Reads the run `source` names in a worker; resolves with it, or rejects with why it cannot be shown. */
export async function readRecord(source: OpenSource, options: ReadOptions): Promise<ReadRecord> {
  const { signal, onProgress, secrets } = options;
  const cancelled = () =>
    source.kind === 'address' ? new LinkError('cancelled') : new RecordError('cancelled');
  if (signal?.aborted) throw cancelled();
  const worker = new OpeningWorker({ name: 'opening' });
  let stop = () => {};
  const api = Comlink.wrap<OpeningWorkerApi>(worker);
  try {
    const ended = new Promise<never>((_, reject) => {
      stop = () => reject(cancelled());
      signal?.addEventListener('abort', stop);
      worker.addEventListener('error', (event) =>
        reject(new RecordError('readFailed', { reason: event.message || 'the worker stopped' })),
      );
    });
    const { events, take } = eventBatches();
    const answer: OpenAnswer = await Promise.race([
      api.open(
        source,
        secrets,
        Comlink.proxy((received: number, total: number | null) => onProgress?.(received, total)),
        Comlink.proxy(take),
      ),
      ended,
    ]);
    if (!answer.ok) throw errorOf(answer);
    const { head } = answer;
    if (
      head?.format !== RECORD_FORMAT ||
      head.version !== RECORD_VERSION ||
      events.length !== answer.events
    ) {
      throw new Error('the opening worker answered something other than a run');
    }
    return { record: { ...head, events }, removed: answer.removed, address: answer.address };
  } finally {
    signal?.removeEventListener('abort', stop);
    endWorker(worker, api); // a Cancel mid-read leaves nothing of the reading behind
  }
}

/** The error the worker's answer names, made again on this side. */
function errorOf(answer: Extract<OpenAnswer, { ok: false }>): Error {
  const { kind, code, params, message } = answer;
  const make = (Class: new (...args: never[]) => Error) =>
    new (Class as unknown as new (code: string, params: object) => Error)(code, params);
  if (kind === 'record') return make(RecordError) as RecordError<RecordProblem>;
  if (kind === 'link') return make(LinkError) as LinkError<LinkProblem>;
  if (kind === 'storage') return new StorageProblem(code as StorageProblemCode, params);
  return new Error(message);
}
