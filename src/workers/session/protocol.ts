/**
 * The session worker's protocol: the page hands it the files of a Claude Code session (as Blobs,
 * which cross threads without copying their bytes), it reads and converts them off the page's
 * thread (src/run/claude-code.ts) and answers with the run record, or with why it cannot.
 *
 *   page ──open(files, secrets, onProgress)──► session worker ──► { ok: true, opened } | { ok: false, code }
 *          ◄──onProgress(done, total)──  (characters read, as it goes)
 */
import type { OpenedSession } from '../../run/claude-code';
import type { Secrets } from '../../run/outgoing';
import type { RemovedPart } from '../../run/secrets';

/** One file of the session, with its path inside what was opened (a dropped folder's). */
export interface SessionInput {
  path: string;
  file: Blob;
}

export type SessionAnswer =
  /**
   * `chars[i]` and `tokens[i]`: the size of event i's message (src/run/size.ts), measured here;
   * -1 for other events.
   */
  | { ok: true; opened: OpenedSession; chars: number[]; tokens: number[]; removed: RemovedPart[] }
  | { ok: false; code: 'noSession' | 'empty'; params: Record<string, string | number> };

export interface SessionWorkerApi {
  /** `secrets`: what the page's redaction knows (its key and endpoint), for src/run/outgoing.ts. */
  open(
    inputs: SessionInput[],
    secrets: Secrets,
    onProgress: (done: number, total: number) => void,
  ): Promise<SessionAnswer>;
}
