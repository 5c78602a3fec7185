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
 * server runs it through a thin Node adapter (relay/node.ts, which adds the check of the
 * resolved address), and each static host through a thin file of its own:
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

/** An Anthropic-style error reply; the relay's own errors are final (the SDK does not retry them). */
export function errorResponse(refusal: Refusal): Response {
  const text = JSON.stringify({ type: 'error', error: { type: 'relay_refused', message: refusal.message } });
  return new Response(text, {
    status: refusal.status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-should-retry': 'false' },
  });
}

const OTHER_ORIGIN = 'The relay answers only pages served by this server.';

/** A page of another origin (or another site) may not use the relay; tools without these headers may. */
function checkOrigin(request: Request): void {
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== new URL(request.url).origin) throw new Refusal(403, OTHER_ORIGIN);
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') throw new Refusal(403, OTHER_ORIGIN);
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
  const tooLarge = new Refusal(
    413,
    `The relay takes request bodies up to ${megabytes(RELAY_MAX_BODY_BYTES)}.`,
  );
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
    return new Refusal(408, `The relay takes a request body within ${seconds(ms)}.`);
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

function forwardedHeaders(request: Request): Headers {
  const out = new Headers();
  for (const [name, value] of request.headers) {
    if (NOT_FORWARDED.has(name) || NOT_FORWARDED_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    out.append(name, value);
  }
  // Uncompressed, so that the reply's cap counts what the page would get.
  out.set('accept-encoding', 'identity');
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
  checkOrigin(request);
  if (pathname === RELAY_HEALTH_PATH) {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      throw new Refusal(405, 'Use GET for the health check.');
    const text = JSON.stringify({ relay: 's04', maxBodyBytes: RELAY_MAX_BODY_BYTES });
    return new Response(request.method === 'HEAD' ? null : text, {
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  }
  const path = pathname.slice(RELAY_PATH.length);
  if (!pathname.startsWith(RELAY_PATH) || !(RELAYED_PATHS as readonly string[]).includes(path)) {
    throw new Refusal(404, `The relay forwards only ${RELAYED_PATHS.join(' and ')}.`);
  }
  if (request.method !== 'POST') throw new Refusal(405, 'The relay forwards only POST requests.');
  const target = request.headers.get(RELAY_TARGET_HEADER);
  if (!target) throw new Refusal(400, `Name the endpoint's base URL in the ${RELAY_TARGET_HEADER} header.`);
  const problem = relayTargetProblem(target);
  if (problem) throw new Refusal(400, problem);
  const url = upstreamURL(target, path);
  const refused = config.refuseTarget(url);
  // The body is read first, as for a target that fails later: the reply tells nothing apart.
  const body = await readBody(request, bodyMs);
  if (refused) throw refused;

  const unreachable = () => new Refusal(502, config.unreachable);
  const gaveUp = () =>
    new Refusal(504, `The endpoint sent nothing for ${seconds(idleMs)}; the relay gave up.`);
  const tooBig = () =>
    new Refusal(502, `The endpoint's reply is over ${megabytes(maxBytes)}, the relay's limit.`);
  const abort = new AbortController();
  // The browser went away (Stop, a closed tab) before the reply began: so does the call.
  request.signal?.addEventListener('abort', () => abort.abort(), { once: true });
  const call = (config.upstream ?? fetchUpstream)(url, {
    headers: forwardedHeaders(request),
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
  if (Number(reply.headers.get('content-length')) > maxBytes) {
    abort.abort();
    reply.body?.cancel().catch(() => {});
    throw tooBig();
  }
  const headers = returnedHeaders(Object.fromEntries(reply.headers));
  if (config.decodesBody) delete headers['content-encoding'];
  if (!reply.body) return new Response(null, { status: reply.status, headers: headers as HeadersInit });
  return new Response(replyBody(reply, abort, idleMs, maxBytes, gaveUp, tooBig), {
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
  tooBig: () => Refusal,
): ReadableStream<Uint8Array> {
  const reader = reply.body!.getReader();
  const sse = /^text\/event-stream/i.test(reply.headers.get('content-type') ?? '');
  let atEventEnd = true;
  let size = 0;
  let slow: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    abort.abort();
    reader.cancel().catch(() => {});
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        clearTimeout(slow);
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await timeout(reader.read(), idleMs, gaveUp);
        } catch (error) {
          stop();
          if (error instanceof Refusal && sse && atEventEnd) {
            const event = { type: 'error', error: { type: 'relay_refused', message: error.message } };
            controller.enqueue(new TextEncoder().encode(`event: error\ndata: ${JSON.stringify(event)}\n\n`));
            controller.close();
          } else controller.error(error);
          return;
        }
        if (chunk.done) {
          controller.close();
          return;
        }
        size += chunk.value.byteLength;
        if (size > maxBytes) {
          stop();
          const refusal = tooBig();
          if (sse && atEventEnd) {
            const event = { type: 'error', error: { type: 'relay_refused', message: refusal.message } };
            controller.enqueue(new TextEncoder().encode(`event: error\ndata: ${JSON.stringify(event)}\n\n`));
            controller.close();
          } else controller.error(refusal);
          return;
        }
        const tail = chunk.value.subarray(-4);
        atEventEnd = /\r?\n\r?\n$/.test(String.fromCharCode(...tail));
        controller.enqueue(chunk.value);
        // A caller that reads nothing for as long as the target may stay silent is closed.
        slow = setTimeout(() => {
          stop();
          controller.error(new Refusal(504, 'The page read nothing of the reply; the relay gave up.'));
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
