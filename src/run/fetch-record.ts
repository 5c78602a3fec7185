/**
 * Opening a run by its address (`?record=<URL>`): the page fetches the file only because it is
 * in the URL the learner opened, with CORS and without cookies, never more than a run file may
 * hold, then checks it exactly as an imported file (parseRecord). Each way it can fail is one
 * LinkError or RecordError naming it: not an https address, no answer or no CORS, an HTTP
 * error, a redirect to an address `record=` would not take, too big, not a run, a server silent
 * for too long (RECORD_IDLE_MS) or too slow in all (RECORD_TOTAL_MS), or cancelled.
 *
 *   request ──► headers ──► bytes ... bytes ──► parseRecord
 *   └── no byte for RECORD_IDLE_MS ──┘            (each byte resets that wait)
 *   └────────────── RECORD_TOTAL_MS in all ──────┘
 */
import { MAX_RECORD_BYTES, parseRecord, RecordError } from './check';
import { LinkError, readCapped, tooBig } from './link';
import type { RunRecord } from './record';

/** Hosts that may be reached over plain http: this machine only. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** The longest a server may stay silent (no answer, no byte of the file): 30 s. */
export const RECORD_IDLE_MS = 30_000;
/** The longest a whole fetch may take: 120 s. */
export const RECORD_TOTAL_MS = 120_000;

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

export interface FetchRecordOptions {
  fetch?: typeof globalThis.fetch;
  /** Cancels the fetch (the learner's `Cancel`): it then rejects with LinkError `cancelled`. */
  signal?: AbortSignal;
  /** Told of every piece that arrives: bytes so far, and the size the server announced (or null). */
  onProgress?: (received: number, total: number | null) => void;
  /** RECORD_IDLE_MS and RECORD_TOTAL_MS, shorter in tests only. */
  idleMs?: number;
  totalMs?: number;
}

/** Fetches and checks the run file at `raw` (`record=`). */
export async function fetchRecord(raw: string, options: FetchRecordOptions = {}): Promise<RunRecord> {
  return (await fetchRecordFrom(raw, options)).record;
}

/**
 * Fetches and checks the run file at `raw`, and says where it came from: the address it was
 * finally read at, after any redirect (each one followed only to an address recordAddress takes;
 * on an https page the browser itself refuses a plain-http step, as mixed content).
 */
export async function fetchRecordFrom(
  raw: string,
  {
    fetch = globalThis.fetch,
    signal,
    onProgress,
    idleMs = RECORD_IDLE_MS,
    totalMs = RECORD_TOTAL_MS,
  }: FetchRecordOptions = {},
): Promise<{ record: RunRecord; address: string }> {
  const url = recordAddress(raw);
  const stop = new AbortController();
  let why: LinkError | null = null;
  const end = (error: LinkError) => {
    why ??= error;
    stop.abort(error);
  };
  const cancelled = () => end(new LinkError('cancelled'));
  if (signal?.aborted) throw new LinkError('cancelled');
  signal?.addEventListener('abort', cancelled);
  let idle = setTimeout(() => end(new LinkError('silent', { seconds: seconds(idleMs) })), idleMs);
  const quiet = () => {
    clearTimeout(idle);
    idle = setTimeout(() => end(new LinkError('silent', { seconds: seconds(idleMs) })), idleMs);
  };
  const total = setTimeout(() => end(new LinkError('slow', { seconds: seconds(totalMs) })), totalMs);
  /** The reason the fetch was ended (a timeout, Cancel), else `otherwise`. */
  const failure = (otherwise: Error) => why ?? otherwise;
  try {
    let response: Response;
    try {
      response = await fetch(url, {
        mode: 'cors',
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        redirect: 'follow',
        signal: stop.signal,
      });
    } catch {
      // A refused connection and a missing CORS header look the same to a page, on purpose.
      throw failure(new LinkError('unreachable'));
    }
    quiet();
    const address = response.url || url.href;
    if (response.redirected || address !== url.href) {
      try {
        recordAddress(address);
      } catch {
        void response.body?.cancel().catch(() => {});
        throw new LinkError('redirect', { url: address });
      }
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
    const expected = announced > 0 ? announced : null;
    onProgress?.(0, expected);
    if (!response.body) return { record: parseRecord(''), address };
    let read: { text: string; size: number };
    try {
      const onChunk = (received: number) => {
        quiet();
        onProgress?.(received, expected);
      };
      read = await readCapped(response.body, MAX_RECORD_BYTES, onChunk, stop.signal);
    } catch (error) {
      if (error instanceof RecordError) throw error;
      throw failure(new LinkError('unreachable')); // the connection broke off mid-file
    }
    return { record: parseRecord(read.text, read.size), address };
  } finally {
    clearTimeout(idle);
    clearTimeout(total);
    signal?.removeEventListener('abort', cancelled);
  }
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}
