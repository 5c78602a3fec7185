/**
 * A link to a run at a step, with no server: the run travels in the URL's fragment, which a
 * browser never sends to any server.
 *
 *   record ──JSON──► deflate-raw ──► base64url ──► https://site/?step=42#run=<that>
 *
 * A run too large for that (LINK_MAX_CHARS) is linked by the address of its exported file instead,
 * `?record=<https URL>&step=42`, fetched with CORS (./fetch-record.ts). Either way what arrives is
 * checked exactly as an imported file is (parseRecord: size, JSON, shape, story). A link never
 * carries the API key nor the endpoint a run was sent to: only the record, and the step.
 */
import { MAX_RECORD_BYTES, megabytes, parseRecord, RecordError } from './check';
import { said } from './record-error';
import { FRAGMENT_KEY } from './link-key';
import type { RunRecord } from './record';
import { CodedError } from './coded-error';

export { FRAGMENT_KEY, packedIn } from './link-key';

/**
 * The longest link offered, in characters: 32 KB. Browsers open far longer ones (Chromium 2 MB),
 * but chat apps, mail and slide tools cut or refuse links long before that; a prompt-1 run of the
 * demo model makes a link of about a third of it.
 */
export const LINK_MAX_CHARS = 32 * 1024;

const LINK_PROBLEMS = {
  damaged: () =>
    'the run in this link is damaged or cut short (it cannot be unpacked); ask for the link again',
  address: (p: { url: string }) =>
    `record= takes an https address (http only for this machine), not ${p.url}`,
  unreachable: () =>
    'the server did not answer, or it does not let other sites read the file (it sends no CORS header)',
  status: (p: { status: string }) => `the server answered ${p.status}`,
  redirect: (p: { url: string }) =>
    `the server sent it on to ${p.url}, an address record= does not take (https, or http on this machine only)`,
  silent: (p: { seconds: number }) =>
    `the server sent nothing for ${p.seconds} s; try again later, or ask for the file at another address`,
  slow: (p: { seconds: number }) =>
    `the file took more than ${p.seconds} s to arrive; try again on a faster connection, or ask for a smaller run`,
  cancelled: () => 'fetching it was cancelled',
};

export type LinkProblem = keyof typeof LINK_PROBLEMS;
type ParamsOf<C extends LinkProblem> = Parameters<(typeof LINK_PROBLEMS)[C]>[0];

/** A link whose run cannot be had: `code` and `params` say why; `message` says it in English. */
export class LinkError<C extends LinkProblem = LinkProblem> extends CodedError<C> {
  override name = 'LinkError';

  constructor(code: C, ...params: ParamsOf<C> extends undefined ? [] : [ParamsOf<C>]) {
    const { given, message } = said(LINK_PROBLEMS, code, params[0]);
    super(code, given, message);
  }
}

/** The record as a link carries it: no endpoint (a setting of the learner's, maybe private). */
export function shareable(record: RunRecord): RunRecord {
  const { baseURL: _endpoint, ...settings } = record.settings;
  const events = record.events.map((event) => {
    if (event.type !== 'run' || event.settings.baseURL === undefined) return event;
    const { baseURL: _ignored, ...ran } = event.settings;
    return { ...event, settings: ran };
  });
  return { ...record, settings, events };
}

/** How much of a packed run the decompressor is given at once (deflate unpacks 1 byte to 1032 at most). */
const PACKED_SLICE = 16 * 1024;

/** A record's JSON text, compressed and written in base64url: what `#run=` holds. */
export async function packRecord(json: string): Promise<string> {
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return toBase64Url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/**
 * The run a fragment carries, checked as an import is. A damaged or truncated fragment is refused
 * by name; one that unpacks to more than a run file may hold (a "zip bomb") is cut off unread.
 */
export async function unpackRecord(packed: string): Promise<RunRecord> {
  const bytes = fromBase64Url(packed);
  if (!bytes) throw new LinkError('damaged');
  // A stream of the bytes at hand, not a Blob's: a Blob's stream hands them over in tasks of their
  // own, each queued behind whatever the page has to do (much, on a page booting from the link);
  // this one unpacks the run in the task that asked for it. It hands the
  // decompressor a slice at a time, as it asks for more: a link that unpacks to a gigabyte is
  // stopped at the cap after a few slices, never unpacked whole (a slice unpacks to 16 MB at most).
  let at = 0;
  const source = new ReadableStream<BufferSource>(
    {
      pull(controller) {
        if (at >= bytes.byteLength) return controller.close();
        controller.enqueue(bytes.subarray(at, (at += PACKED_SLICE)));
      },
    },
    { highWaterMark: 0 },
  );
  const stream = source.pipeThrough(new DecompressionStream('deflate-raw'));
  let text: string;
  let size: number;
  try {
    ({ text, size } = await readCapped(stream, MAX_RECORD_BYTES));
  } catch (error) {
    if (error instanceof RecordError) throw error;
    throw new LinkError('damaged');
  }
  return parseRecord(text, size);
}

/**
 * A stream's bytes as UTF-8 text, refused (RecordError `tooBig`) as soon as it passes `max` bytes:
 * neither a link nor a server gets the page to hold more than a run file may be. `onChunk` is told
 * the bytes so far as they come; `signal` stops the reading (it then throws the signal's reason).
 */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  max: number,
  onChunk?: (size: number) => void,
  signal?: AbortSignal,
): Promise<{ text: string; size: number }> {
  const reader = stream.getReader();
  const stop = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener('abort', stop);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason;
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        void reader.cancel().catch(() => {});
        throw tooBig(size, max);
      }
      chunks.push(value);
      onChunk?.(size);
    }
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  // Joined here rather than through a Blob, which would wait for a task of its own.
  const joined = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return { text: new TextDecoder().decode(joined), size };
}

/** The refusal of a run of `size` bytes or more, in the words of an import's. */
export function tooBig(size: number, max: number): RecordError {
  return new RecordError('tooBig', { size: megabytes(size), max: megabytes(max) });
}

/** The page links lead to: the address of this one without its query and fragment. */
export function playgroundBase(href: string): string {
  const url = new URL(href);
  url.search = '';
  url.hash = '';
  return url.href;
}

/** A link to the page at `base` showing a packed run at `step`. */
export function fragmentLink(base: string, packed: string, step: number): string {
  const url = new URL(base);
  url.search = `?step=${step}`;
  url.hash = `${FRAGMENT_KEY}=${packed}`;
  return url.href;
}

/** A link to the page at `base` showing the run file at `address` at `step`. */
export function recordLink(base: string, address: string, step: number): string {
  const url = new URL(base);
  url.search = new URLSearchParams({ record: address, step: String(step) }).toString();
  url.hash = '';
  return url.href;
}

/** Bytes in base64url without padding (RFC 4648 §5): safe in a fragment as it is. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  const CHUNK = 0x8000; // String.fromCharCode takes this many arguments anywhere
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of a base64url text, or null when it is not one (a character out of place, a cut). */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1 || text.length === 0) return null;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
