import { lookup as dnsLookup } from 'node:dns';
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Plugin } from 'vite';
import {
  RELAY_HEALTH_PATH,
  RELAY_MAX_BODY_BYTES,
  RELAY_PATH,
  RELAY_TARGET_HEADER,
} from '../src/models/relay.ts';
import {
  bodyTooLarge,
  bodyTooSlow,
  checkOrigin,
  declaredTooBig,
  ERROR_HEADERS,
  errorText,
  forwardedHeaders,
  healthText,
  RELAY_BODY_TIMEOUT_MS,
  RELAY_IDLE_TIMEOUT_MS,
  RELAY_MAX_RESPONSE_BYTES,
  Refusal,
  relayedPath,
  relayTarget,
  ReplyMeter,
  replyTooBig,
  returnedHeaders,
  targetSilent,
} from './handler.ts';
import {
  ALLOW_LOCAL_ENV,
  guardedLookup,
  mayConnect,
  parseAllowLocal,
  UNREACHABLE,
  type LocalAllowance,
} from './addresses.ts';

export {
  ALLOW_LOCAL_ENV,
  isSpecialUse,
  parseAllowLocal,
  UNREACHABLE,
  type LocalAllowance,
} from './addresses.ts';
export {
  RELAY_BODY_TIMEOUT_MS,
  RELAY_IDLE_TIMEOUT_MS,
  RELAY_MAX_RESPONSE_BYTES,
  returnedHeaders,
  upstreamURL,
} from './handler.ts';

/**
 * The relay on the page's own server (`npm start`, `vite preview`): the checks of the shared
 * Web-standard handler (relay/handler.ts: origin, path, target, limits, reply headers, as plain
 * functions) on Node's own streams, plus what only a server of one's own can do: the check of the
 * address the connection is made to. No Web stream or Request is made on the way: the target's
 * reply is written to the page chunk by chunk as it arrives, its head as soon as it comes (the
 * relay keeps within its budget for the first byte, docs/relay.md). See src/models/relay.ts for the URL shape, docs/relay.md for every limit.
 *
 * It is a door from any web page into the learner's machine, so it refuses by default:
 *   - only requests from its own origin (Origin and Sec-Fetch-Site; Vite's host check, which
 *     runs first, stops DNS rebinding): another origin gets 403;
 *   - only POST {base}/v1/messages and /v1/messages/count_tokens: other paths 404, other methods 405;
 *   - only public addresses, http or https alike, checked on the address the connection is made
 *     to (the lookup is ours, so a name cannot resolve to one address for the check and another
 *     for the call): loopback, private, link-local and other special-use addresses only when the
 *     person running the server allows them (S04_RELAY_ALLOW_LOCAL);
 *   - bodies up to 10 MB, sent within 60 s; replies up to 50 MB, each byte within 120 s of the last.
 * A refusal forwards nothing. Every refusal of an address and every failure to connect gets the
 * same status and sentence, so the relay cannot map which ports are open. The key (authorization,
 * x-api-key) goes to the target only, as in a direct call; the relay never logs a request or
 * echoes a header, and passes back only the reply headers an Anthropic client reads.
 *
 * The reply streams through as it arrives (SSE included); when the browser goes away (Stop), the
 * call to the target is cut too.
 */

type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** How long any client may take to send a request's headers (the whole server). */
export const SERVER_HEADERS_TIMEOUT_MS = 10_000;
/** How long any client may take to send a whole request (the whole server). */
export const SERVER_REQUEST_TIMEOUT_MS = 60_000;

/** The origin the browser sees this server at (as a URL spells it: default port dropped). */
function ownOrigin(req: IncomingMessage): string {
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const written = `${scheme}://${req.headers.host ?? ''}`;
  return URL.canParse(written) ? new URL(written).origin : written;
}

/** Writes one of the relay's own errors; a body not read to its end closes the connection. */
function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // A body not read to its end would be taken for the next request on this connection.
  const headers = req.complete ? ERROR_HEADERS : { ...ERROR_HEADERS, connection: 'close' };
  res.writeHead(refusal.status, headers).end(errorText(refusal));
  if (!req.complete) req.resume();
}

/** The request body, up to RELAY_MAX_BODY_BYTES, sent within `ms` (the handler's rules). */
function readBody(req: IncomingMessage, ms: number): Promise<Buffer> {
  return new Promise((done, fail) => {
    if (Number(req.headers['content-length']) > RELAY_MAX_BODY_BYTES) return fail(bodyTooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    // A client trickling its body would hold the connection (and a slot of the server) forever.
    const timer = setTimeout(() => {
      req.pause();
      req.removeAllListeners('data');
      fail(bodyTooSlow(ms));
    }, ms);
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      // Past the limit the rest is read and dropped, so the client gets the 413 instead of a reset.
      if (size <= RELAY_MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(timer);
      if (size > RELAY_MAX_BODY_BYTES) fail(bodyTooLarge());
      else done(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    });
    req.on('error', () => {
      clearTimeout(timer);
      fail(new Refusal(400, 'The relay could not read the request.'));
    });
  });
}

/** The limits of one call, the resolved-address check and the kept-alive agents. */
interface Forwarding {
  agents: { http: HttpAgent; https: HttpsAgent };
  resolve: LookupFunction;
  allowance: LocalAllowance;
  idleMs: number;
  maxBytes: number;
}

/**
 * Calls the target with node:http(s) through the guarded lookup and writes its reply to the page
 * as it arrives: the head (allowed headers only) as soon as it comes, each chunk counted against
 * the cap. The target is timed only while the relay waits for it: when the page lags, the target
 * is paused and the page is timed instead (a page that reads nothing is closed, the call too).
 */
function forward(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer, f: Forwarding): void {
  const secure = url.protocol === 'https:';
  const headers = forwardedHeaders(Object.entries(req.headers));
  headers['content-length'] = String(body.byteLength);
  const upstream = (secure ? httpsRequest : httpRequest)(url, {
    method: 'POST',
    headers,
    agent: secure ? f.agents.https : f.agents.http,
    lookup: guardedLookup(f.resolve, url, f.allowance),
  });
  let finished = false;
  let meter: ReplyMeter | null = null;
  /** Whom the one timer waits for: the target (its silence) or the page (reading nothing). */
  let waitingFor: 'target' | 'page' = 'target';
  const finish = () => {
    finished = true;
    clearTimeout(timer);
  };
  // Ends the call for a limit: before the reply, an error reply; within a stream, an SSE error
  // event where one may end it; otherwise the reply is cut.
  const stop = (refusal: Refusal | null) => {
    if (finished) return;
    finish();
    upstream.destroy();
    const tail = refusal && meter ? meter.ending(refusal) : null;
    if (tail) res.end(tail);
    else if (refusal && !res.headersSent) refuse(req, res, refusal);
    else res.destroy();
  };
  const timer = setTimeout(() => stop(waitingFor === 'page' ? null : targetSilent(f.idleMs)), f.idleMs);
  // The browser went away (Stop, a closed tab): so does the call.
  res.on('close', () => {
    if (!res.writableFinished) stop(null);
  });
  // Refused by the lookup, no such name, refused, reset, a TLS or HTTP error: one answer.
  upstream.on('error', () => stop(res.headersSent ? null : new Refusal(502, UNREACHABLE)));
  upstream.on('response', (reply) => {
    if (finished) return void reply.resume();
    timer.refresh();
    if (declaredTooBig(reply.headers['content-length'], f.maxBytes)) return stop(replyTooBig(f.maxBytes));
    const status = reply.statusCode ?? 502;
    res.writeHead(status, returnedHeaders(reply.headers));
    if (status === 204 || status === 205 || status === 304) {
      finish();
      reply.resume();
      res.end();
      return;
    }
    res.flushHeaders();
    meter = new ReplyMeter(ReplyMeter.isSSE(reply.headers['content-type']), f.maxBytes);
    reply.on('data', (chunk: Buffer) => {
      if (finished) return;
      // An SSE reply passes whole events only (ReplyMeter): maybe nothing of this chunk yet.
      const passing = meter!.take(chunk);
      if (passing instanceof Refusal) return stop(passing);
      if (!passing.byteLength || res.write(passing)) return void timer.refresh();
      reply.pause();
      waitingFor = 'page';
      timer.refresh();
    });
    res.on('drain', () => {
      if (finished) return;
      waitingFor = 'target';
      timer.refresh();
      reply.resume();
    });
    // A reply cut by the target reaches the browser as a cut reply, not a complete one.
    reply.on('end', () => {
      if (finished) return;
      finish();
      if (reply.complete) res.end(meter!.rest());
      else res.destroy();
    });
    reply.on('aborted', () => stop(null));
    reply.on('error', () => stop(null));
  });
  upstream.end(body);
}

/** Answers one request under /relay with the shared checks, in their order. */
async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  f: Forwarding,
  bodyMs: number,
): Promise<void> {
  try {
    checkOrigin(req.headers.origin, header(req, 'sec-fetch-site'), ownOrigin(req));
    if (pathname === RELAY_HEALTH_PATH) {
      const text = healthText(req.method);
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : text);
      return;
    }
    const url = relayTarget(header(req, RELAY_TARGET_HEADER), relayedPath(pathname, req.method));
    // An address written in the URL is never looked up, so it is checked here, before any socket.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    const refused = isIP(literal) && !mayConnect(literal, url, f.allowance);
    // The body is read first, as for a target that fails later: the reply tells nothing apart.
    const body = await readBody(req, bodyMs);
    if (refused) throw new Refusal(502, UNREACHABLE);
    forward(req, res, url, body, f);
  } catch (error) {
    refuse(
      req,
      res,
      error instanceof Refusal ? error : new Refusal(400, 'The relay could not read the request.'),
    );
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The relay's limits and the injected resolver; each defaults to the production value. */
export interface RelayOptions {
  /** S04_RELAY_ALLOW_LOCAL's value (default: the environment's). */
  allowLocal?: string;
  /** Resolves target names (default: dns.lookup); tests inject one to stay on loopback. */
  lookup?: LookupFunction;
  /** Waits this long for each byte of the target's reply, the first included. */
  idleTimeoutMs?: number;
  /** Passes on replies up to this many bytes. */
  maxResponseBytes?: number;
  /** Waits this long for a request body. */
  bodyTimeoutMs?: number;
}

export interface RelayHandler {
  handle: Handler;
  /** Closes the kept-alive connections to targets (for tests and shutdown). */
  close(): void;
}

/** The relay as a connect middleware: handles `/relay/...`, passes everything else on. */
export function createRelay(options: RelayOptions = {}): RelayHandler {
  const allowance = parseAllowLocal(options.allowLocal ?? process.env[ALLOW_LOCAL_ENV]);
  const resolve = options.lookup ?? (dnsLookup as LookupFunction);
  // Kept-alive connections to the targets: a TLS handshake per call would cost far more than
  // the relay may add to the first byte (docs/relay.md). A kept socket was checked when it connected.
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  const forwarding: Forwarding = {
    agents,
    resolve,
    allowance,
    idleMs: options.idleTimeoutMs ?? RELAY_IDLE_TIMEOUT_MS,
    maxBytes: options.maxResponseBytes ?? RELAY_MAX_RESPONSE_BYTES,
  };
  const bodyMs = options.bodyTimeoutMs ?? RELAY_BODY_TIMEOUT_MS;

  return {
    handle(req, res, next) {
      const { pathname } = new URL(req.url ?? '/', 'http://relay');
      if (pathname !== RELAY_PATH && !pathname.startsWith(`${RELAY_PATH}/`)) {
        next();
        return;
      }
      serve(req, res, pathname, forwarding, bodyMs).catch(() => res.destroy());
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** Closes clients that trickle their headers or requests (slowloris) on the whole server. */
export function limitSlowClients(server: Server | null | undefined): void {
  if (!server) return;
  server.headersTimeout = SERVER_HEADERS_TIMEOUT_MS;
  server.requestTimeout = SERVER_REQUEST_TIMEOUT_MS;
}

/** Mounts the relay on the dev server (`npm start`) and on `vite preview`. A static host has none. */
export function relay(): Plugin {
  const { handle } = createRelay();
  return {
    name: 's04:relay',
    // Before Vite's own middlewares (after its host check): compression would hold SSE back.
    configureServer(server) {
      limitSlowClients(server.httpServer as Server | null);
      server.middlewares.use(handle);
    },
    configurePreviewServer(server) {
      limitSlowClients(server.httpServer as Server);
      server.middlewares.use(handle);
    },
  };
}
