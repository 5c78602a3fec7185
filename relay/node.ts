import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
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
 * reply is written to the page chunk by chunk as it arrives, its head as soon as it comes (issue
 * 23: the relay adds at most 5 ms to the first byte). See src/models/relay.ts for the URL shape, docs/relay.md for every limit.
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

/** The environment variable through which the person running the server allows local targets. */
export const ALLOW_LOCAL_ENV = 'S04_RELAY_ALLOW_LOCAL';
/** How long any client may take to send a request's headers (the whole server). */
export const SERVER_HEADERS_TIMEOUT_MS = 10_000;
/** How long any client may take to send a whole request (the whole server). */
export const SERVER_REQUEST_TIMEOUT_MS = 60_000;

/**
 * The one sentence for an address the relay will not connect to and for a connection that
 * failed, whatever the reason: telling them apart would map the ports of the server's network.
 */
export const UNREACHABLE =
  `The relay could not connect to the endpoint: it connects only to public addresses, and to ` +
  `local ones only where its server allows them (${ALLOW_LOCAL_ENV}, see docs/relay.md).`;

/** Loopback, private, link-local and other special-use ranges (IANA's special-purpose registries). */
const SPECIAL_USE = new BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  SPECIAL_USE.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['64:ff9b::', 96], // NAT64: the embedded IPv4 address is not checked
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments, Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: the embedded IPv4 address is not checked
  ['3fff::', 20], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local
  ['ff00::', 8], // multicast
] as const) {
  SPECIAL_USE.addSubnet(prefix, bits, 'ipv6');
}
/** This machine: what S04_RELAY_ALLOW_LOCAL=1 allows. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True for an address the relay never reaches unless allowed: not a public unicast address. */
export function isSpecialUse(address: string): boolean {
  const family = isIP(address);
  // IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are checked as the IPv4 address they carry.
  if (family === 4) return SPECIAL_USE.check(address, 'ipv4');
  if (family === 6) return SPECIAL_USE.check(address, 'ipv6');
  return true;
}

/** Which local targets the person running the server allows (S04_RELAY_ALLOW_LOCAL). */
export interface LocalAllowance {
  /** `1`: every loopback address of this machine, any port. */
  loopback: boolean;
  /** `host:port` entries, matched against the URL's host and against the resolved address. */
  hostPorts: Set<string>;
}

/**
 * Reads S04_RELAY_ALLOW_LOCAL: unset or `0` allows nothing local; `1` allows this machine's
 * loopback; otherwise a comma-separated list of `host:port` (e.g. `localhost:11434,192.168.1.20:8080`).
 */
export function parseAllowLocal(value: string | undefined): LocalAllowance {
  const allowance: LocalAllowance = { loopback: false, hostPorts: new Set() };
  const text = (value ?? '').trim();
  if (!text || text === '0') return allowance;
  if (text === '1') return { ...allowance, loopback: true };
  for (const entry of text.split(',').map((part) => part.trim())) {
    const url = URL.canParse(`http://${entry}`) ? new URL(`http://${entry}`) : null;
    if (!url || !/:\d+$/.test(entry) || url.host !== entry.toLowerCase().replace(/:80$/, '')) {
      console.warn(`${ALLOW_LOCAL_ENV}: "${entry}" is not host:port (e.g. localhost:11434); ignored.`);
      continue;
    }
    allowance.hostPorts.add(hostPort(url.hostname, effectivePort(url)));
  }
  return allowance;
}

function hostPort(host: string, port: number): string {
  const bare = host.replace(/^\[|\]$/g, '');
  return isIP(bare) === 6 ? `[${bare}]:${port}` : `${bare.toLowerCase()}:${port}`;
}

function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** True when the relay may connect to `address` for a target URL (its host and port). */
function mayConnect(address: string, target: URL, allowance: LocalAllowance): boolean {
  if (!isSpecialUse(address)) return true;
  if (allowance.loopback && isIP(address) && LOOPBACK.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6'))
    return true;
  const port = effectivePort(target);
  return (
    allowance.hostPorts.has(hostPort(target.hostname, port)) ||
    allowance.hostPorts.has(hostPort(address, port))
  );
}

/** What a lookup refused: answered with the same sentence as any failure to connect. */
class RefusedAddress extends Error {
  readonly code = 'ERELAYREFUSED';
}

/**
 * A lookup for one call that fails unless every address the name resolves to may be reached:
 * the connection is made to an address this checked, so no second resolution can differ.
 */
function guardedLookup(resolve: LookupFunction, target: URL, allowance: LocalAllowance): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, found) => {
      const addresses = (Array.isArray(found) ? found : []) as LookupAddress[];
      if (error) return callback(error, '', 0);
      if (!addresses.length || addresses.some(({ address }) => !mayConnect(address, target, allowance))) {
        return callback(new RefusedAddress('refused'), '', 0);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

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
      const over = meter!.count(chunk);
      if (over) return stop(over);
      if (res.write(chunk)) return void timer.refresh();
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
      if (reply.complete) res.end();
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
  // the 5 ms the relay may add to the first byte. A kept socket was checked when it connected.
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
