/**
 * The session worker's protocol: the page hands it the files of a Claude Code session (as Blobs,
 * which cross threads without copying their bytes), it reads and converts them off the page's
 * thread (src/run/claude-code.ts) and answers with the run record, or with why it cannot.
 *
 *   page ──open(files, onProgress)──► session worker ──► { ok: true, opened } | { ok: false, code }
 *          ◄──onProgress(done, total)──  (characters read, as it goes)
 */
import type { OpenedSession } from '../../run/claude-code';

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
  | { ok: true; opened: OpenedSession; chars: number[]; tokens: number[] }
  | { ok: false; code: 'noSession' | 'empty'; params: Record<string, string | number> };

export interface SessionWorkerApi {
  open(inputs: SessionInput[], onProgress: (done: number, total: number) => void): Promise<SessionAnswer>;
}
