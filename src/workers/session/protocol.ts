/**
 * The session worker's protocol: the page hands it the files of a Claude Code session (as Blobs,
 * which cross threads without copying their bytes), it reads and converts them off the page's
 * thread (src/run/claude-code.ts), hands the run's events over a batch at a time as the opening
 * worker does (src/run/opening.ts), and answers with the record's head, or with why it cannot.
 *
 *   page ──open(files, secrets, onProgress, onEvents)──► session worker
 *          ◄──onProgress(done, total)──  (characters read, as it goes)
 *          ◄──onEvents(events, sizes)── ... (EVENTS_BATCH at a time)
 *          ◄──{ ok: true, head, events, problems, removed } | { ok: false, code }
 */
import type { SessionProblem } from '../../run/claude-code';
import type { Secrets } from '../../run/outgoing';
import type { RunRecord } from '../../run/record';
import type { RemovedPart } from '../../run/secrets';

/** One file of the session, with its path inside what was opened (a dropped folder's). */
export interface SessionInput {
  path: string;
  file: Blob;
}

export type SessionAnswer =
  | {
      ok: true;
      head: Omit<RunRecord, 'events'>;
      /** How many events were sent in batches. */
      events: number;
      problems: SessionProblem[];
      removed: RemovedPart[];
    }
  | { ok: false; code: 'noSession' | 'empty'; params: Record<string, string | number> };

export interface SessionWorkerApi {
  /** `secrets`: what the page's redaction knows (its key and endpoint), for src/run/outgoing.ts. */
  open(
    inputs: SessionInput[],
    secrets: Secrets,
    onProgress: (done: number, total: number) => void,
    onEvents: (events: RunRecord['events'], sizes: number[]) => void,
  ): Promise<SessionAnswer>;
}
