import { RELAY_HEALTH_PATH, RELAY_MAX_BODY_BYTES, RELAY_TARGET_HEADER } from '../src/models/relay.ts';
import { PRESETS } from '../src/settings/presets.ts';
import {
  ALLOWED_HOSTS_ENV,
  bodyTooLarge,
  bodyTooSlow,
  checkOrigin,
  declaredTooBig,
  ERROR_HEADERS,
  errorText,
  forwardedHeaders,
  healthText,
  PAGE_READ_NOTHING,
  Refusal,
  RELAY_BODY_TIMEOUT_MS,
  RELAY_IDLE_TIMEOUT_MS,
  RELAY_MAX_RESPONSE_BYTES,
  relayedPath,
  relayTarget,
  ReplyMeter,
  replyTooBig,
  returnedHeaders,
  targetSilent,
} from './checks.ts';

// The checks are part of this module's face: the hosts and the Node adapter import them from here.
export * from './checks.ts';
/**
 * The relay as one Web-standard handler: a Request in, a Response out. The playground's own
 * server runs its checks, exported here as plain functions, on Node's own streams (relay/node.ts,
 * which adds the check of the resolved address), and each static host runs the handler through
 * a thin file of its own:
 * functions/relay/[[path]].ts (Cloudflare Pages), api/relay.ts (Vercel),
 * netlify/functions/relay.ts (Netlify). Every rule and limit is in docs/relay.md.
 *
 * The checks every host shares are in relay/checks.ts; this file runs them on a Request and its
 * Response. Where the target may be reached is the host's decision (`RelayConfig.refuseTarget`).
 *
 * Nothing here imports Node: it runs under workerd, Node and any runtime with fetch and streams.
 */

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
  /** The largest request body taken (default RELAY_MAX_BODY_BYTES; a host's own may be smaller). */
  maxBodyBytes?: number;
}

/** fetch as the serverless hosts' upstream: a redirect is passed back, never followed elsewhere. */
export const fetchUpstream: Upstream = (url, { headers, body, signal }) =>
  fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' });

/** An Anthropic-style error reply; the relay's own errors are final (the SDK does not retry them). */
export function errorResponse(refusal: Refusal): Response {
  return new Response(errorText(refusal), { status: refusal.status, headers: ERROR_HEADERS });
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

/** The request body, up to `max` bytes, sent within `ms`. */
async function readBody(request: Request, ms: number, max: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = bodyTooLarge(max);
  if (Number(request.headers.get('content-length')) > max) throw tooLarge;
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
      if (size <= max) chunks.push(value);
    }
  })();
  // A client trickling its body would hold the connection (and a slot of the server) forever.
  await timeout(all, ms, () => {
    reader.cancel().catch(() => {});
    return bodyTooSlow(ms);
  });
  if (size > max) throw tooLarge;
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
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
  const maxBody = config.maxBodyBytes ?? RELAY_MAX_BODY_BYTES;
  checkOrigin(
    request.headers.get('origin'),
    request.headers.get('sec-fetch-site'),
    new URL(request.url).origin,
  );
  if (pathname === RELAY_HEALTH_PATH) {
    const text = healthText(request.method, maxBody);
    return new Response(request.method === 'HEAD' ? null : text, {
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  }
  const path = relayedPath(pathname, request.method);
  const url = relayTarget(request.headers.get(RELAY_TARGET_HEADER), path);
  const refused = config.refuseTarget(url);
  // The body is read first, as for a target that fails later: the reply tells nothing apart.
  const body = await readBody(request, bodyMs, maxBody);
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
        // Read until something may pass (an SSE reply passes whole events only) or the end.
        let passing: Uint8Array = new Uint8Array(0);
        while (!passing.byteLength) {
          let chunk: ReadableStreamReadResult<Uint8Array>;
          try {
            chunk = await timeout(reader.read(), idleMs, gaveUp);
          } catch (error) {
            return end(controller, error);
          }
          if (chunk.done) {
            const rest = meter.rest();
            if (rest.byteLength) controller.enqueue(rest);
            controller.close();
            return;
          }
          const taken = meter.take(chunk.value);
          if (taken instanceof Refusal) return end(controller, taken);
          passing = taken;
        }
        controller.enqueue(passing);
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
