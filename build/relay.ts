import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import {
  Agent as HttpAgent,
  request as httpRequest,
  type ClientRequest,
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
  RELAYED_PATHS,
  relayTargetProblem,
} from '../src/models/relay.ts';

/**
 * The relay on the page's own server (`npm start`, `vite preview`): Messages API calls for
 * endpoints that refuse browsers (no CORS) go to the same origin, and the server forwards them.
 * See src/models/relay.ts for the URL shape, and docs/relay.md for every limit in one place.
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
 * The reply streams through as it arrives (SSE included): status, allowed headers and body
 * unchanged, each chunk written on; when the browser goes away (Stop), the call to the target is
 * cut too.
 */

type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** The environment variable through which the person running the server allows local targets. */
export const ALLOW_LOCAL_ENV = 'S04_RELAY_ALLOW_LOCAL';
/** The largest reply the relay passes on. */
export const RELAY_MAX_RESPONSE_BYTES = 50 * 1024 * 1024;
/** How long the relay waits for the target's next byte (the first included). */
export const RELAY_IDLE_TIMEOUT_MS = 120_000;
/** How long a client may take to send a request body. */
export const RELAY_BODY_TIMEOUT_MS = 60_000;
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
  RELAY_TARGET_HEADER,
]);

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

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** An Anthropic-style error reply; the relay's own errors are final (the SDK does not retry them). */
function sendError(res: ServerResponse, refusal: Refusal, headers: Record<string, string> = {}) {
  const text = JSON.stringify({ type: 'error', error: { type: 'relay_refused', message: refusal.message } });
  res.writeHead(refusal.status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    'x-should-retry': 'false',
    ...headers,
  });
  res.end(text);
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

function readBody(req: IncomingMessage, timeoutMs: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > RELAY_MAX_BODY_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // A client trickling its body would hold the connection (and a slot of the server) forever.
    const timer = setTimeout(() => {
      reject(new Refusal(408, `The relay takes a request body within ${seconds(timeoutMs)}.`));
    }, timeoutMs);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the client gets the 413 instead of a reset.
      if (size <= RELAY_MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(timer);
      if (size > RELAY_MAX_BODY_BYTES) reject(tooLarge());
      else resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

function megabytes(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return mb >= 1 ? `${Math.round(mb * 100) / 100} MB` : `${Math.round(bytes / 1024)} KB`;
}

function tooLarge(): Refusal {
  return new Refusal(413, `The relay takes request bodies up to ${megabytes(RELAY_MAX_BODY_BYTES)}.`);
}

function forwardedHeaders(req: IncomingMessage, length: number): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name) || name.startsWith('sec-')) continue;
    out[name] = value;
  }
  // Uncompressed, so that the reply's cap counts what the page would get.
  out['accept-encoding'] = 'identity';
  out['content-length'] = String(length);
  return out;
}

/** The reply headers an Anthropic client needs; everything else stays with the relay. */
export function returnedHeaders(headers: IncomingMessage['headers']): Record<string, string | string[]> {
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
  const idleMs = options.idleTimeoutMs ?? RELAY_IDLE_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? RELAY_MAX_RESPONSE_BYTES;
  const bodyMs = options.bodyTimeoutMs ?? RELAY_BODY_TIMEOUT_MS;
  // Kept-alive connections to the targets: a TLS handshake per call would cost far more than
  // the 5 ms the relay may add to the first byte. A kept socket was checked when it connected.
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  const unreachable = () => new Refusal(502, UNREACHABLE);

  async function relay(req: IncomingMessage, res: ServerResponse, pathname: string) {
    checkOrigin(req);
    if (pathname === RELAY_HEALTH_PATH) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        throw new Refusal(405, 'Use GET for the health check.');
      const text = JSON.stringify({ relay: 's04', maxBodyBytes: RELAY_MAX_BODY_BYTES });
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(text);
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
    const url = upstreamURL(target, path);
    // An address written in the URL is never looked up, so it is checked here, before any socket.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !mayConnect(literal, url, allowance)) {
      // The body is read first, as for a target that fails later: the reply tells nothing apart.
      await readBody(req, bodyMs);
      throw unreachable();
    }
    const body = await readBody(req, bodyMs);
    await forward(req, res, url, body);
  }

  function forward(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer): Promise<void> {
    const secure = url.protocol === 'https:';
    const upstream: ClientRequest = (secure ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      headers: forwardedHeaders(req, body.length),
      agent: secure ? agents.https : agents.http,
      lookup: guardedLookup(resolve, url, allowance),
    });
    return new Promise<void>((done, fail) => {
      let idle: NodeJS.Timeout | undefined;
      let sse = false;
      let atEventEnd = true;
      // Once the relay gave up, the target's own end (cut by it) must not cut what it sent instead.
      let gaveUp = false;
      const stopIdle = () => clearTimeout(idle);
      /** Ends a reply already under way with an SSE error event when it can, else cuts it. */
      const giveUp = (status: number, message: string) => {
        gaveUp = true;
        stopIdle();
        upstream.destroy();
        if (!res.headersSent) {
          fail(new Refusal(status, message));
          return;
        }
        if (sse && atEventEnd && !res.destroyed) {
          const error = { type: 'error', error: { type: 'relay_refused', message } };
          res.end(`event: error\ndata: ${JSON.stringify(error)}\n\n`);
        } else res.destroy();
        done();
      };
      const armIdle = () => {
        clearTimeout(idle);
        idle = setTimeout(
          () => giveUp(504, `The endpoint sent nothing for ${seconds(idleMs)}; the relay gave up.`),
          idleMs,
        );
      };
      const tooBig = () =>
        giveUp(502, `The endpoint's reply is over ${megabytes(maxBytes)}, the relay's limit.`);
      armIdle();

      // The browser went away (Stop, a closed tab) before the reply ended: so does the call.
      res.on('close', () => {
        stopIdle();
        if (!res.writableFinished) upstream.destroy();
        done();
      });
      upstream.on('response', (reply) => {
        if (gaveUp) return;
        armIdle();
        if (Number(reply.headers['content-length']) > maxBytes) {
          tooBig();
          return;
        }
        sse = /^text\/event-stream/i.test(reply.headers['content-type'] ?? '');
        res.writeHead(reply.statusCode ?? 502, returnedHeaders(reply.headers));
        res.flushHeaders();
        let size = 0;
        // Each chunk is written as it arrives; nothing in between buffers (the relay runs before
        // Vite's compression, and SSE is never compressed by it). A slow reader pauses the target.
        reply.on('data', (chunk: Buffer) => {
          if (gaveUp) return;
          armIdle();
          size += chunk.length;
          if (size > maxBytes) {
            tooBig();
            return;
          }
          atEventEnd = /\r?\n\r?\n$/.test(chunk.subarray(-4).toString('latin1'));
          if (!res.write(chunk)) {
            // Waiting for the browser is not the target's silence; a browser that reads nothing
            // for as long is a slow client, and both connections are closed.
            stopIdle();
            reply.pause();
            const slow = setTimeout(() => {
              gaveUp = true;
              upstream.destroy();
              res.destroy();
            }, idleMs);
            res.once('drain', () => {
              clearTimeout(slow);
              armIdle();
              reply.resume();
            });
            res.once('close', () => clearTimeout(slow));
          }
        });
        reply.on('end', () => {
          if (gaveUp) return;
          stopIdle();
          if (!reply.complete) res.destroy();
          else res.end();
          done();
        });
        // A reply cut by the target reaches the browser as a cut reply, not as a complete one.
        reply.on('aborted', () => {
          if (gaveUp) return;
          stopIdle();
          res.destroy();
        });
        reply.on('error', () => {
          if (gaveUp) return;
          stopIdle();
          res.destroy();
        });
      });
      upstream.on('error', () => {
        if (gaveUp) return;
        if (res.headersSent || res.destroyed) {
          stopIdle();
          if (!res.writableFinished) res.destroy();
          done();
          return;
        }
        // Refused by the lookup, no such name, refused, reset, a TLS or HTTP error: one answer.
        stopIdle();
        fail(unreachable());
      });
      upstream.end(body);
    });
  }

  return {
    handle(req, res, next) {
      const { pathname } = new URL(req.url ?? '/', 'http://relay');
      if (pathname !== RELAY_PATH && !pathname.startsWith(`${RELAY_PATH}/`)) {
        next();
        return;
      }
      relay(req, res, pathname).catch((error: unknown) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        if (res.destroyed) return;
        const refusal =
          error instanceof Refusal ? error : new Refusal(400, 'The relay could not read the request.');
        // A body not read to its end would be taken for the next request on this connection.
        const close: Record<string, string> = req.complete ? {} : { connection: 'close' };
        sendError(res, refusal, close);
        if (!req.complete) req.resume();
      });
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
