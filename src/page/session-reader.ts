/**
 * Opens a Claude Code session: its files go to a worker of their own (src/workers/session/), which
 * converts them into a run record off the page's thread; the record that comes back is checked
 * like any imported run (src/run/check.ts) before anything shows it.
 */
import * as Comlink from 'comlink';
import { checkRecord } from '../run/check';
import { SessionError, type SessionProblem } from '../run/claude-code';
import type { RunRecord } from '../run/record';
import type { SessionInput, SessionWorkerApi } from '../workers/session/protocol';
import SessionWorker from '../workers/session/session.ts?worker';

/** The largest session opened, all its files together. */
export const MAX_SESSION_BYTES = 200 * 1024 * 1024;

export interface ReadSession {
  record: RunRecord;
  problems: SessionProblem[];
}

/** Reads a session's files in a worker; `onProgress` hears the share done (0 to 1). */
export async function readSession(
  inputs: SessionInput[],
  onProgress: (share: number) => void,
): Promise<ReadSession> {
  const worker = new SessionWorker({ name: 'session' });
  try {
    const api = Comlink.wrap<SessionWorkerApi>(worker);
    const failed = new Promise<never>((_, reject) =>
      worker.addEventListener('error', (event) =>
        reject(new Error(event.message || 'the session worker failed')),
      ),
    );
    const answer = await Promise.race([
      api.open(
        inputs,
        Comlink.proxy((done: number, total: number) => onProgress(total > 0 ? Math.min(1, done / total) : 1)),
      ),
      failed,
    ]);
    if (!answer.ok) throw new SessionError(answer.code, answer.params);
    return { record: checkRecord(answer.opened.record), problems: answer.opened.problems };
  } finally {
    worker.terminate();
  }
}
