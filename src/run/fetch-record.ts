/**
 * Opening a run by its address (`?record=<URL>`): the page fetches the file only because it is
 * in the URL the learner opened, with CORS and without cookies, never more than a run file may
 * hold, then checks it exactly as an imported file (parseRecord). Each way it can fail is one
 * LinkError or RecordError naming it: not an https address, no answer or no CORS, an HTTP
 * error, too big, not a run.
 */
import { MAX_RECORD_BYTES, parseRecord, RecordError } from './check';
import { LinkError, readCapped, tooBig } from './link';
import type { RunRecord } from './record';

/** Hosts that may be reached over plain http: this machine only. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** The address of a run file as `record=` may give it: https, or http on this machine. */
export function recordAddress(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new LinkError('address', { url: raw });
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
  if (!secure || url.username || url.password) throw new LinkError('address', { url: raw });
  return url;
}

/** Fetches and checks the run file at `raw` (`record=`). */
export async function fetchRecord(
  raw: string,
  { fetch = globalThis.fetch, signal }: { fetch?: typeof globalThis.fetch; signal?: AbortSignal } = {},
): Promise<RunRecord> {
  const url = recordAddress(raw);
  let response: Response;
  try {
    response = await fetch(url, {
      mode: 'cors',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    // A refused connection and a missing CORS header look the same to a page, on purpose.
    throw new LinkError('unreachable');
  }
  if (!response.ok) {
    void response.body?.cancel().catch(() => {});
    throw new LinkError('status', { status: `${response.status} ${response.statusText}`.trim() });
  }
  // A size the server announces is refused before a byte of it is read.
  const announced = Number(response.headers.get('content-length'));
  if (announced > MAX_RECORD_BYTES) {
    void response.body?.cancel().catch(() => {});
    throw tooBig(announced, MAX_RECORD_BYTES);
  }
  if (!response.body) return parseRecord('');
  let read: { text: string; size: number };
  try {
    read = await readCapped(response.body, MAX_RECORD_BYTES);
  } catch (error) {
    if (error instanceof RecordError || signal?.aborted) throw error;
    throw new LinkError('unreachable'); // the connection broke off mid-file
  }
  return parseRecord(read.text, read.size);
}
