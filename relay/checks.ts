import {
  RELAY_MAX_BODY_BYTES,
  RELAY_PATH,
  RELAY_TARGET_HEADER,
  RELAYED_PATHS,
  relayTargetProblem,
} from '../src/models/relay.ts';

/**
 * The relay's checks, shared by every host: the caller's origin, the path and method, the target's
 * form, the request body's size and time, the reply's size, the target's silence, a reader that
 * reads nothing, and the headers passed on and back. Plain functions over plain values: the Web
 * handler (relay/handler.ts) and the Node adapter (relay/node.ts) both run them, so that every host
 * refuses the same things with the same sentences. Every rule and limit is in docs/relay.md.
 *
 * Nothing here imports Node: it runs under workerd, Node and any runtime with fetch and streams.
 */

/** The largest reply the relay passes on. */
export const RELAY_MAX_RESPONSE_BYTES = 50 * 1024 * 1024;
/** How long the relay waits for the target's next byte (the first included). */
export const RELAY_IDLE_TIMEOUT_MS = 120_000;
/** How long a client may take to send a request body. */
export const RELAY_BODY_TIMEOUT_MS = 60_000;
/** The environment variable that lists the hosts a serverless relay forwards to. */
export const ALLOWED_HOSTS_ENV = 'S04_RELAY_ALLOWED_HOSTS';

/** Headers that describe one hop, not the message (RFC 9110 7.6.1), plus what names the browser's page. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'accept-encoding',
  'origin',
  'referer',
  'cookie',
  // What a host or proxy in front of the relay adds about the learner's connection.
  'forwarded',
  'via',
  'x-real-ip',
  'true-client-ip',
  'cdn-loop',
  RELAY_TARGET_HEADER,
]);
const NOT_FORWARDED_PREFIXES = ['sec-', 'cf-', 'x-forwarded-', 'x-nf-', 'x-vercel-'];

/**
 * The reply headers passed back: what an Anthropic client reads (type, request ids, rate limits,
 * retry advice). Anything else would act on the page's own origin (Set-Cookie, Clear-Site-Data,
 * Refresh, Link, Content-Security-Policy, ...), so it is dropped.
 */
const RETURNED = new Set([
  'content-type',
  'content-encoding',
  'request-id',
  'x-request-id',
  'retry-after',
  'retry-after-ms',
  'x-should-retry',
]);
const RETURNED_PREFIX = 'anthropic-';

/** The reply headers an Anthropic client needs; everything else stays with the relay. */
export function returnedHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && (RETURNED.has(name) || name.startsWith(RETURNED_PREFIX))) out[name] = value;
  }
  return out;
}

/**
 * The URL the relay calls: the target's path with `path` appended, nothing else (the base URL's
 * own query or fragment is refused before, the caller's query is not passed on).
 */
export function upstreamURL(target: string, path: string): URL {
  const url = new URL(target);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  url.search = '';
  url.hash = '';
  return url;
}

/** A refusal: the status and the one sentence the caller gets. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

function megabytes(bytes: number): string {
  // The relay's own limits are binary (10 MB = 10 x 1024 x 1024 bytes); the hosts document theirs
  // in decimal units (Netlify's 6 MB, Vercel's 4.5 MB): each is said in its own.
  const unit = bytes % 1024 === 0 ? 1024 : 1000;
  const mb = bytes / unit / unit;
  return mb >= 1 ? `${Math.round(mb * 100) / 100} MB` : `${Math.round(bytes / unit)} KB`;
}

/** The headers of the relay's own errors: final (the SDK does not retry them). */
export const ERROR_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  'cache-control': 'no-store',
  'x-should-retry': 'false',
};

/** An Anthropic-style error body for a refusal. */
export function errorText(refusal: Refusal): string {
  return JSON.stringify({ type: 'error', error: { type: 'relay_refused', message: refusal.message } });
}

const OTHER_ORIGIN = 'The relay answers only pages served by this server.';

/**
 * A page of another origin (or another site) may not use the relay; tools without these headers
 * may. `own` is the origin the relay is served at.
 */
export function checkOrigin(
  origin: string | null | undefined,
  site: string | null | undefined,
  own: string,
): void {
  if (origin != null && origin !== own) throw new Refusal(403, OTHER_ORIGIN);
  if (site != null && site !== 'same-origin' && site !== 'none') throw new Refusal(403, OTHER_ORIGIN);
}

/** The health check's answer (GET or HEAD only): what the Settings dialog probes. */
export function healthText(method: string | undefined, maxBodyBytes = RELAY_MAX_BODY_BYTES): string {
  if (method !== 'GET' && method !== 'HEAD') throw new Refusal(405, 'Use GET for the health check.');
  return JSON.stringify({ relay: 's04', maxBodyBytes });
}

/** The path the relay forwards to (`/v1/messages` or count_tokens) for a POST to `pathname`. */
export function relayedPath(pathname: string, method: string | undefined): string {
  const path = pathname.slice(RELAY_PATH.length);
  if (!pathname.startsWith(RELAY_PATH) || !(RELAYED_PATHS as readonly string[]).includes(path)) {
    throw new Refusal(404, `The relay forwards only ${RELAYED_PATHS.join(' and ')}.`);
  }
  if (method !== 'POST') throw new Refusal(405, 'The relay forwards only POST requests.');
  return path;
}

/** The URL to call, from the target header's base URL: its form checked, `path` appended. */
export function relayTarget(target: string | null | undefined, path: string): URL {
  if (!target) throw new Refusal(400, `Name the endpoint's base URL in the ${RELAY_TARGET_HEADER} header.`);
  const problem = relayTargetProblem(target);
  if (problem) throw new Refusal(400, problem);
  return upstreamURL(target, path);
}

/**
 * The request bodies each serverless host's platform takes, the smallest its documentation gives
 * (docs/relay.md): Netlify's functions 6 MB (buffered), Vercel's 4.5 MB. Above it the relay refuses
 * in its own sentence, before the platform answers with a page of its own. Cloudflare's smallest
 * (100 MB, on the Free and Pro plans) is above the relay's own limit, which holds there.
 */
export const HOST_MAX_BODY_BYTES = {
  netlify: 6_000_000,
  vercel: 4_500_000,
  cloudflare: RELAY_MAX_BODY_BYTES,
} as const;

/** The refusal of a request body over `max` (RELAY_MAX_BODY_BYTES, or the host's limit). */
export function bodyTooLarge(max = RELAY_MAX_BODY_BYTES): Refusal {
  return new Refusal(413, `The relay takes request bodies up to ${megabytes(max)}.`);
}

/** The refusal of a request body not sent within `ms`. */
export function bodyTooSlow(ms: number): Refusal {
  return new Refusal(408, `The relay takes a request body within ${seconds(ms)}.`);
}

/** The refusal of a target silent for `ms` (before its reply or within it). */
export function targetSilent(ms: number): Refusal {
  return new Refusal(504, `The endpoint sent nothing for ${seconds(ms)}; the relay gave up.`);
}

/** The refusal of a reply over `maxBytes`. */
export function replyTooBig(maxBytes: number): Refusal {
  return new Refusal(502, `The endpoint's reply is over ${megabytes(maxBytes)}, the relay's limit.`);
}

/** The refusal of a page that read nothing of the reply for as long as the target may be silent. */
export const PAGE_READ_NOTHING = 'The page read nothing of the reply; the relay gave up.';

/** True for a reply declared (Content-Length) over `maxBytes`: refused before any of it passes. */
export function declaredTooBig(contentLength: string | null | undefined, maxBytes: number): boolean {
  return Number(contentLength) > maxBytes;
}

/**
 * Counts a reply's bytes against the cap and passes an SSE reply on whole events only: the bytes
 * after the last event's end are held back until the rest of their event arrives. However the
 * target's bytes are split into chunks (a host's fetch splits them anywhere), a limit hit then
 * ends the reply after a whole event, with an SSE error event the SDK reports; any other reply is
 * cut.
 */
export class ReplyMeter {
  private size = 0;
  /** SSE bytes after the last event's end, waiting for the rest of their event. */
  private held: Uint8Array[] = [];
  /** The last two bytes before the next chunk (an event's end may straddle two chunks). */
  private before: [number, number] = [-1, -1];
  constructor(
    private readonly sse: boolean,
    private readonly maxBytes: number,
  ) {}

  /** The content types an SSE error event may end. */
  static isSSE(contentType: string | null | undefined): boolean {
    return /^text\/event-stream/i.test(contentType ?? '');
  }

  /**
   * Counts a chunk of the reply: what may pass on now (maybe nothing, for SSE), or the refusal
   * when it would take the reply over the cap.
   */
  take(chunk: Uint8Array): Uint8Array | Refusal {
    this.size += chunk.byteLength;
    if (this.size > this.maxBytes) return replyTooBig(this.maxBytes);
    if (!this.sse) return chunk;
    const end = this.eventEnd(chunk);
    const n = chunk.byteLength;
    if (n >= 2) this.before = [chunk[n - 2], chunk[n - 1]];
    else if (n === 1) this.before = [this.before[1], chunk[0]];
    if (end < 0) {
      this.held.push(chunk);
      return EMPTY;
    }
    const out = joined([...this.held, chunk.subarray(0, end)]);
    this.held = end < n ? [chunk.slice(end)] : [];
    return out;
  }

  /** What is still held back when the reply ends as it should: it passes as it is. */
  rest(): Uint8Array {
    const out = joined(this.held);
    this.held = [];
    return out;
  }

  /** What ends the reply for `refusal`: an SSE error event (what is held back is dropped), or null (the reply is cut). */
  ending(refusal: Refusal): Uint8Array | null {
    if (!this.sse) return null;
    this.held = [];
    const event = { type: 'error', error: { type: 'relay_refused', message: refusal.message } };
    return new TextEncoder().encode(`event: error\ndata: ${JSON.stringify(event)}\n\n`);
  }

  /** Where the last event ending in `chunk` ends (its blank line: \n\n, or \n\r\n), or -1. */
  private eventEnd(chunk: Uint8Array): number {
    const at = (i: number) => (i >= 0 ? chunk[i] : this.before[2 + i]);
    for (let i = chunk.byteLength - 1; i >= 0; i--) {
      if (chunk[i] !== 10) continue;
      if (at(i - 1) === 10 || (at(i - 1) === 13 && at(i - 2) === 10)) return i + 1;
    }
    return -1;
  }
}

const EMPTY = new Uint8Array(0);

function joined(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/**
 * The request headers passed to the target (names in lower case, as both Headers and Node give
 * them): the caller's, without hop-by-hop headers, what names the page, and the target header.
 */
export function forwardedHeaders(
  headers: Iterable<[string, string | string[] | undefined]>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (value === undefined || NOT_FORWARDED.has(name)) continue;
    if (NOT_FORWARDED_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    out[name] = name in out ? `${out[name]}, ${text}` : text;
  }
  // Uncompressed, so that the reply's cap counts what the page would get.
  out['accept-encoding'] = 'identity';
  return out;
}
