import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { Plugin } from 'vite';
import {
  RELAY_HEALTH_PATH,
  RELAY_MAX_BODY_BYTES,
  RELAY_PATH,
  RELAY_TARGET_HEADER,
  RELAYED_PATHS,
  relayTargetProblem,
} from '../src/models/relay.ts';

/**
 * The relay on the page's own server (`npm start`, `vite preview`): Messages API calls for
 * endpoints that refuse browsers (no CORS) go to the same origin, and the server forwards them.
 * See src/models/relay.ts for the URL shape.
 *
 * It is a door from any web page into the learner's machine, so it refuses by default:
 *   - only requests from its own origin (Origin and Sec-Fetch-Site; Vite's host check, which
 *     runs first, stops DNS rebinding): another origin gets 403;
 *   - only POST {base}/v1/messages and /v1/messages/count_tokens: other paths 404, other methods 405;
 *   - only https targets, or http on loopback: others 400 (no way into the server's network);
 *   - bodies up to 10 MB: more gets 413.
 * A refusal forwards nothing. The key (authorization, x-api-key) goes to the target only, as in a
 * direct call; the relay never logs a request or echoes a header.
 *
 * The reply streams through as it arrives (SSE included): status, headers and body unchanged,
 * each chunk written on; when the browser goes away (Stop), the call to the target is cut too.
 */

type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

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
  'origin',
  'referer',
  'cookie',
  RELAY_TARGET_HEADER,
]);
/** The target's cookies would land on this page's origin. */
const NOT_RETURNED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'set-cookie',
]);

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendJSON(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

function refuse(res: ServerResponse, refusal: Refusal, headers: Record<string, string> = {}) {
  sendJSON(
    res,
    refusal.status,
    { type: 'error', error: { type: 'relay_refused', message: refusal.message } },
    headers,
  );
}

/** The origin the browser sees this server at. */
function ownOrigin(req: IncomingMessage): string {
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  return `${scheme}://${req.headers.host ?? ''}`;
}

/** A page of another origin (or another site) may not use the relay; tools without these headers may. */
function checkOrigin(req: IncomingMessage): void {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== ownOrigin(req)) {
    throw new Refusal(403, 'The relay answers only pages served by this server.');
  }
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new Refusal(403, 'The relay answers only pages served by this server.');
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > RELAY_MAX_BODY_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the client gets the 413 instead of a reset.
      if (size <= RELAY_MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => (size > RELAY_MAX_BODY_BYTES ? reject(tooLarge()) : resolve(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

function tooLarge(): Refusal {
  return new Refusal(413, `The relay takes request bodies up to ${RELAY_MAX_BODY_BYTES / 1024 / 1024} MB.`);
}

function forwardedHeaders(req: IncomingMessage, length: number): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name) || name.startsWith('sec-')) continue;
    out[name] = value;
  }
  out['content-length'] = String(length);
  return out;
}

function returnedHeaders(upstream: IncomingMessage): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value !== undefined && !NOT_RETURNED.has(name)) out[name] = value;
  }
  return out;
}

export interface RelayHandler {
  handle: Handler;
  /** Closes the kept-alive connections to targets (for tests and shutdown). */
  close(): void;
}

/** The relay as a connect middleware: handles `/relay/...`, passes everything else on. */
export function createRelay(): RelayHandler {
  // Kept-alive connections to the targets: a TLS handshake per call would cost far more than
  // the 5 ms the relay may add to the first byte.
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

  async function relay(req: IncomingMessage, res: ServerResponse, pathname: string, search: string) {
    checkOrigin(req);
    if (pathname === RELAY_HEALTH_PATH) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        throw new Refusal(405, 'Use GET for the health check.');
      sendJSON(res, 200, { relay: 's04', maxBodyBytes: RELAY_MAX_BODY_BYTES });
      return;
    }
    const path = pathname.slice(RELAY_PATH.length);
    if (!(RELAYED_PATHS as readonly string[]).includes(path)) {
      throw new Refusal(404, `The relay forwards only ${RELAYED_PATHS.join(' and ')}.`);
    }
    if (req.method !== 'POST') throw new Refusal(405, 'The relay forwards only POST requests.');
    const target = req.headers[RELAY_TARGET_HEADER];
    if (typeof target !== 'string' || !target) {
      throw new Refusal(400, `Name the endpoint's base URL in the ${RELAY_TARGET_HEADER} header.`);
    }
    const problem = relayTargetProblem(target);
    if (problem) throw new Refusal(400, problem);
    const body = await readBody(req);

    const url = new URL(`${target.replace(/\/+$/, '')}${path}${search}`);
    const secure = url.protocol === 'https:';
    const upstream = (secure ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      headers: forwardedHeaders(req, body.length),
      agent: secure ? agents.https : agents.http,
    });
    // The browser went away (Stop, a closed tab) before the reply ended: so does the call.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.on('response', (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.statusMessage, returnedHeaders(reply));
      res.flushHeaders();
      // pipe() writes each chunk as it arrives; nothing in between buffers (the relay runs before
      // Vite's compression, and SSE is never compressed by it).
      reply.pipe(res);
      // A reply cut by the target reaches the browser as a cut reply, not as a complete one.
      reply.on('aborted', () => res.destroy());
      reply.on('error', () => res.destroy());
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (res.destroyed) return;
      sendJSON(res, 502, {
        type: 'error',
        error: {
          type: 'relay_upstream_error',
          message: `The relay could not reach ${url.origin} (${error.code ?? error.message}).`,
        },
      });
    });
    upstream.end(body);
  }

  return {
    handle(req, res, next) {
      const { pathname, search } = new URL(req.url ?? '/', 'http://relay');
      if (pathname !== RELAY_PATH && !pathname.startsWith(`${RELAY_PATH}/`)) {
        next();
        return;
      }
      relay(req, res, pathname, search).catch((error: unknown) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const refusal =
          error instanceof Refusal ? error : new Refusal(400, 'The relay could not read the request.');
        // A body not read to its end would be taken for the next request on this connection.
        const close: Record<string, string> = req.complete ? {} : { connection: 'close' };
        refuse(res, refusal, close);
        if (!req.complete) req.resume();
      });
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** Mounts the relay on the dev server (`npm start`) and on `vite preview`. A static host has none. */
export function relay(): Plugin {
  const { handle } = createRelay();
  return {
    name: 's04:relay',
    // Before Vite's own middlewares (after its host check): compression would hold SSE back.
    configureServer(server) {
      server.middlewares.use(handle);
    },
    configurePreviewServer(server) {
      server.middlewares.use(handle);
    },
  };
}
