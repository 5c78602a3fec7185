import {
  RELAY_HEALTH_PATH,
  RELAY_MAX_BODY_BYTES,
  RELAY_PATH,
  RELAY_TARGET_HEADER,
  RELAYED_PATHS,
  relayTargetProblem,
} from '../src/models/relay.ts';
import { PRESETS } from '../src/settings/presets.ts';

/**
 * The relay as one Web-standard handler: a Request in, a Response out. The playground's own
 * server runs its checks, exported here as plain functions, on Node's own streams (relay/node.ts,
 * which adds the check of the resolved address), and each static host runs the handler through
 * a thin file of its own:
 * functions/relay/[[path]].ts (Cloudflare Pages), api/relay.ts (Vercel),
 * netlify/functions/relay.ts (Netlify). Every rule and limit is in docs/relay.md.
 *
 * Here are the checks every host shares: the caller's origin, the path and method, the target's
 * form, the request body's size and time, the reply's size, the target's silence, a reader that
 * reads nothing, and the reply headers passed back. Where the target may be reached is the
 * host's decision (`RelayConfig.refuseTarget`).
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

/** Calls the target: a rejection means it could not be reached (one answer for every reason). */
export type Upstream = (
  url: URL,
  init: { headers: Headers; body: Uint8Array<ArrayBuffer>; signal: AbortSignal },
) => Promise<Response>;

/** What a host decides for the shared handler; limits default to the production values. */
export interface RelayConfig {
  /** Why the relay must not call this URL (a refusal), or null; asked before any connection. */
  refuseTarget(url: URL): Refusal | null;
  /** The sentence for a target that could not be reached. */
  unreachable: string;
  /** Calls the target (default: fetch, redirects not followed). */
  upstream?: Upstream;
  /** True when the upstream hands back a decoded body (fetch does): Content-Encoding is dropped. */
  decodesBody?: boolean;
  idleTimeoutMs?: number;
  maxResponseBytes?: number;
  bodyTimeoutMs?: number;
}

/** fetch as the serverless hosts' upstream: a redirect is passed back, never followed elsewhere. */
export const fetchUpstream: Upstream = (url, { headers, body, signal }) =>
  fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' });

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

function megabytes(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return mb >= 1 ? `${Math.round(mb * 100) / 100} MB` : `${Math.round(bytes / 1024)} KB`;
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

/** An Anthropic-style error reply; the relay's own errors are final (the SDK does not retry them). */
export function errorResponse(refusal: Refusal): Response {
  return new Response(errorText(refusal), { status: refusal.status, headers: ERROR_HEADERS });
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
export function healthText(method: string | undefined): string {
  if (method !== 'GET' && method !== 'HEAD') throw new Refusal(405, 'Use GET for the health check.');
  return JSON.stringify({ relay: 's04', maxBodyBytes: RELAY_MAX_BODY_BYTES });
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

/** The refusal of a request body over RELAY_MAX_BODY_BYTES. */
export function bodyTooLarge(): Refusal {
  return new Refusal(413, `The relay takes request bodies up to ${megabytes(RELAY_MAX_BODY_BYTES)}.`);
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
 * Counts a reply's bytes against the cap and knows whether a limit hit now may end it with an SSE
 * error event (an SSE reply, cut at the end of an event) or must cut it.
 */
export class ReplyMeter {
  private size = 0;
  private atEventEnd = true;
  constructor(
    private readonly sse: boolean,
    private readonly maxBytes: number,
  ) {}

  /** The content types an SSE error event may end. */
  static isSSE(contentType: string | null | undefined): boolean {
    return /^text\/event-stream/i.test(contentType ?? '');
  }

  /** Counts a chunk about to pass: the refusal when it would take the reply over the cap. */
  count(chunk: Uint8Array): Refusal | null {
    this.size += chunk.byteLength;
    if (this.size > this.maxBytes) return replyTooBig(this.maxBytes);
    const n = chunk.byteLength;
    const at = (back: number) => (n >= back ? chunk[n - back] : -1);
    // An event ends with a blank line: \n\n, or \r\n before the last \n.
    this.atEventEnd = at(1) === 10 && (at(2) === 10 || (at(2) === 13 && at(3) === 10));
    return null;
  }

  /** What ends the reply for `refusal`: an SSE error event, or null (the reply is cut). */
  ending(refusal: Refusal): Uint8Array | null {
    if (!this.sse || !this.atEventEnd) return null;
    const event = { type: 'error', error: { type: 'relay_refused', message: refusal.message } };
    return new TextEncoder().encode(`event: error\ndata: ${JSON.stringify(event)}\n\n`);
  }
}

/** A timer that can be re-armed, for the waits the relay bounds. */
function timeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Refusal): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(onTimeout()), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The request body, up to RELAY_MAX_BODY_BYTES, sent within `ms`. */
async function readBody(request: Request, ms: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = bodyTooLarge();
  if (Number(request.headers.get('content-length')) > RELAY_MAX_BODY_BYTES) throw tooLarge;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const all = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      // Past the limit the rest is read and dropped, so the client gets the 413 instead of a reset.
      if (size <= RELAY_MAX_BODY_BYTES) chunks.push(value);
    }
  })();
  // A client trickling its body would hold the connection (and a slot of the server) forever.
  await timeout(all, ms, () => {
    reader.cancel().catch(() => {});
    return bodyTooSlow(ms);
  });
  if (size > RELAY_MAX_BODY_BYTES) throw tooLarge;
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
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

/**
 * The shared relay: answers `/relay/health` and forwards `POST /relay/v1/messages` (and
 * count_tokens) as `pathname` says (a host that rewrites the URL passes the original path).
 */
export async function handleRelay(
  request: Request,
  config: RelayConfig,
  pathname = new URL(request.url).pathname,
): Promise<Response> {
  try {
    return await relay(request, config, pathname);
  } catch (error) {
    return errorResponse(
      error instanceof Refusal ? error : new Refusal(400, 'The relay could not read the request.'),
    );
  }
}

async function relay(request: Request, config: RelayConfig, pathname: string): Promise<Response> {
  const idleMs = config.idleTimeoutMs ?? RELAY_IDLE_TIMEOUT_MS;
  const maxBytes = config.maxResponseBytes ?? RELAY_MAX_RESPONSE_BYTES;
  const bodyMs = config.bodyTimeoutMs ?? RELAY_BODY_TIMEOUT_MS;
  checkOrigin(
    request.headers.get('origin'),
    request.headers.get('sec-fetch-site'),
    new URL(request.url).origin,
  );
  if (pathname === RELAY_HEALTH_PATH) {
    const text = healthText(request.method);
    return new Response(request.method === 'HEAD' ? null : text, {
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  }
  const path = relayedPath(pathname, request.method);
  const url = relayTarget(request.headers.get(RELAY_TARGET_HEADER), path);
  const refused = config.refuseTarget(url);
  // The body is read first, as for a target that fails later: the reply tells nothing apart.
  const body = await readBody(request, bodyMs);
  if (refused) throw refused;

  const unreachable = () => new Refusal(502, config.unreachable);
  const gaveUp = () => targetSilent(idleMs);
  const abort = new AbortController();
  // The browser went away (Stop, a closed tab) before the reply began: so does the call.
  request.signal?.addEventListener('abort', () => abort.abort(), { once: true });
  const call = (config.upstream ?? fetchUpstream)(url, {
    headers: new Headers(forwardedHeaders(request.headers)),
    body,
    signal: abort.signal,
  }).catch(() => {
    throw unreachable();
  });
  let reply: Response;
  try {
    reply = await timeout(call, idleMs, gaveUp);
  } catch (error) {
    abort.abort();
    throw error;
  }
  if (declaredTooBig(reply.headers.get('content-length'), maxBytes)) {
    abort.abort();
    reply.body?.cancel().catch(() => {});
    throw replyTooBig(maxBytes);
  }
  const headers = returnedHeaders(Object.fromEntries(reply.headers));
  if (config.decodesBody) delete headers['content-encoding'];
  if (!reply.body) return new Response(null, { status: reply.status, headers: headers as HeadersInit });
  return new Response(replyBody(reply, abort, idleMs, maxBytes, gaveUp), {
    status: reply.status,
    headers: headers as HeadersInit,
  });
}

/**
 * The reply's body as it arrives, read only as fast as the caller reads (no read-ahead): so the
 * target's silence is timed only while the relay waits for it, and a caller that reads nothing
 * for as long is given up on, the call to the target with it. A limit hit mid-stream ends an SSE
 * stream with an error event the SDK reports; any other reply is cut.
 */
function replyBody(
  reply: Response,
  abort: AbortController,
  idleMs: number,
  maxBytes: number,
  gaveUp: () => Refusal,
): ReadableStream<Uint8Array> {
  const reader = reply.body!.getReader();
  const meter = new ReplyMeter(ReplyMeter.isSSE(reply.headers.get('content-type')), maxBytes);
  let slow: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    abort.abort();
    reader.cancel().catch(() => {});
  };
  const end = (controller: ReadableStreamDefaultController<Uint8Array>, error: unknown) => {
    stop();
    const tail = error instanceof Refusal ? meter.ending(error) : null;
    if (!tail) return controller.error(error);
    controller.enqueue(tail);
    controller.close();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        clearTimeout(slow);
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await timeout(reader.read(), idleMs, gaveUp);
        } catch (error) {
          return end(controller, error);
        }
        if (chunk.done) {
          controller.close();
          return;
        }
        const over = meter.count(chunk.value);
        if (over) return end(controller, over);
        controller.enqueue(chunk.value);
        // A caller that reads nothing for as long as the target may stay silent is closed.
        slow = setTimeout(() => {
          stop();
          controller.error(new Refusal(504, PAGE_READ_NOTHING));
        }, idleMs);
      },
      cancel() {
        clearTimeout(slow);
        stop();
      },
    },
    { highWaterMark: 0 },
  );
}

/** The hosts of the provider presets (src/settings/presets.ts), reached over https only. */
export const PRESET_ORIGINS: readonly string[] = PRESETS.filter((preset) =>
  preset.baseURL.startsWith('https://'),
).map((preset) => new URL(preset.baseURL).origin);

/**
 * Reads S04_RELAY_ALLOWED_HOSTS: unset or empty means the presets' hosts; otherwise a
 * comma-separated list of host names (https, port 443), origins (`http://127.0.0.1:8080`) and
 * `presets` (the default list), e.g. `presets,api.example.com`.
 */
export function parseAllowedHosts(value: string | undefined): Set<string> {
  const text = (value ?? '').trim();
  if (!text) return new Set(PRESET_ORIGINS);
  const origins = new Set<string>();
  for (const entry of text.split(',').map((part) => part.trim().toLowerCase())) {
    if (entry === 'presets') {
      for (const origin of PRESET_ORIGINS) origins.add(origin);
      continue;
    }
    const written = entry.includes('://') ? entry : `https://${entry}`;
    const url = URL.canParse(written) ? new URL(written) : null;
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== written.replace(/\/$/, '')) {
      console.warn(`${ALLOWED_HOSTS_ENV}: "${entry}" is not a host name or an origin; ignored.`);
      continue;
    }
    origins.add(url.origin);
  }
  return origins;
}

/** The sentence for a target outside the serverless relay's allow-list. */
export function notAllowedHost(url: URL): string {
  return (
    `This site's relay forwards only to known provider hosts, not to ${url.host}; ` +
    `its operator can allow more in ${ALLOWED_HOSTS_ENV} (docs/relay.md).`
  );
}

/**
 * The relay for a serverless host, where DNS cannot be hooked: only the allowed hosts' origins
 * are called (S04_RELAY_ALLOWED_HOSTS), with fetch.
 */
export function serverlessRelay(
  allowedHosts: string | undefined,
  options: Partial<RelayConfig> = {},
): (request: Request, pathname?: string) => Promise<Response> {
  const origins = parseAllowedHosts(allowedHosts);
  const config: RelayConfig = {
    refuseTarget: (url) => (origins.has(url.origin) ? null : new Refusal(403, notAllowedHost(url))),
    unreachable: 'The relay could not connect to the endpoint.',
    decodesBody: true,
    ...options,
  };
  return (request, pathname) => handleRelay(request, config, pathname);
}
