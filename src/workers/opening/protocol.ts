/**
 * The opening worker's protocol: the page names a run to open (a file, a link's packed run, a
 * `record=` address, a History entry), the worker reads it within the run file's limits, checks,
 * clamps and cleans it (src/run/opening.ts), hands the events over a batch at a time, then answers
 * with the record's head, or with why it cannot be opened (a code the page turns back into its
 * error). The page terminates the worker when the learner cancels.
 *
 *   page ──open(source, secrets, onProgress, onEvents)──► opening worker
 *        ◄──onProgress(received, total)── (bytes read so far)
 *        ◄──onEvents(events, sizes)── ... (EVENTS_BATCH at a time)
 *        ◄──{ ok: true, head, events, removed, address } | { ok: false, kind, code, params }
 */
import type { Secrets } from '../../run/outgoing';
import type { RunRecord } from '../../run/record';
import type { RemovedPart } from '../../run/secrets';

export type OpenSource =
  /** An imported file (a Blob crosses threads without copying its bytes). */
  | { kind: 'file'; file: Blob }
  /** The run a link's fragment carries (`#run=`). */
  | { kind: 'packed'; packed: string }
  /** The address of a run file (`record=`); `idleMs` and `totalMs` shorter in tests only. */
  | { kind: 'address'; address: string; idleMs?: number; totalMs?: number }
  /** A run kept in History, by its id. */
  | { kind: 'history'; id: string };

export type OpenAnswer =
  | {
      ok: true;
      head: Omit<RunRecord, 'events'>;
      /** How many events were sent in batches. */
      events: number;
      removed: RemovedPart[];
      /** Where a `record=` file was read, after redirects. */
      address?: string;
    }
  | {
      ok: false;
      /** Which error the page makes of it: RecordError, LinkError, StorageProblem, or another. */
      kind: 'record' | 'link' | 'storage' | 'other';
      code: string;
      params: Record<string, string | number>;
      message: string;
    };

export interface OpeningWorkerApi {
  open(
    source: OpenSource,
    secrets: Secrets,
    onProgress: (received: number, total: number | null) => void,
    onEvents: (events: RunRecord['events'], sizes: number[]) => void,
  ): Promise<OpenAnswer>;
}
