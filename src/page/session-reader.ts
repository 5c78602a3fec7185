/**
 * Opens a Claude Code session: its files go to a worker of their own (src/workers/session/), which
 * converts them into a run record and checks it like any imported run (src/run/check.ts), both off
 * the page's thread; what comes back is checked to be that answer before anything shows it.
 */
import * as Comlink from 'comlink';
import { RecordError } from '../run/record-error';
import { SessionError, type SessionProblem } from '../run/claude-code';
import type { Secrets } from '../run/outgoing';
import { RECORD_FORMAT, RECORD_VERSION, type RunRecord } from '../run/record';
import type { RemovedPart } from '../run/secrets';
import type { SessionInput, SessionWorkerApi } from '../workers/session/protocol';
import SessionWorker from '../workers/session/session.ts?worker';
import type { EventBatches } from './record-reader';
import { endWorker } from './end-worker';

/** The problems a sentence exists for (src/ui/locales, `sessions.problem`). */
const PROBLEMS = new Set<unknown>([
  'missingSubagent',
  'noParent',
  'unlinked',
  'brokenLines',
  'severalSessions',
  'failedSubagent',
  'untyped',
  'unreadable',
  'untimed',
  'longLines',
]);

export { MAX_SESSION_BYTES } from '../run/claude-code';

export interface ReadSession {
  /** The run, already clamped and cleaned of secrets (src/run/outgoing.ts). */
  record: RunRecord;
  /** What was taken out of it. */
  removed: RemovedPart[];
  problems: SessionProblem[];
}

/**
 * Reads a session's files in a worker; `onProgress` hears the share done (0 to 1). `signal` (the
 * learner's Cancel) terminates the worker at once: it then rejects with RecordError `cancelled`.
 * The events come in batches to `batches` (./record-reader.ts `eventBatches`, given by the caller:
 * this module loads with the first session, that one with the page).
 */
export async function readSession(
  inputs: SessionInput[],
  secrets: Secrets,
  batches: EventBatches,
  onProgress: (share: number) => void,
  signal?: AbortSignal,
): Promise<ReadSession> {
  if (signal?.aborted) throw new RecordError('cancelled');
  const worker = new SessionWorker({ name: 'session' });
  let stop = () => {};
  const api = Comlink.wrap<SessionWorkerApi>(worker);
  try {
    const failed = new Promise<never>((_, reject) => {
      stop = () => reject(new RecordError('cancelled'));
      signal?.addEventListener('abort', stop);
      worker.addEventListener('error', (event) =>
        reject(new RecordError('readFailed', { reason: event.message || 'the worker stopped' })),
      );
    });
    const { events, take } = batches;
    const answer = await Promise.race([
      api.open(
        inputs,
        secrets,
        Comlink.proxy((done: number, total: number) => onProgress(total > 0 ? Math.min(1, done / total) : 1)),
        Comlink.proxy(take),
      ),
      failed,
    ]);
    if (!answer.ok) throw new SessionError(answer.code, answer.params);
    const { head, problems } = answer;
    if (
      head?.format !== RECORD_FORMAT ||
      head.version !== RECORD_VERSION ||
      events.length !== answer.events
    ) {
      throw new Error('the session worker answered something other than a run');
    }
    const removed = Array.isArray(answer.removed) ? answer.removed : [];
    const told = Array.isArray(problems) ? problems : [];
    return {
      record: { ...head, events },
      removed,
      problems: told.filter((p) => PROBLEMS.has(p?.code)),
    };
  } finally {
    signal?.removeEventListener('abort', stop);
    endWorker(worker, api); // a Cancel mid-read leaves nothing of the reading behind
  }
}
