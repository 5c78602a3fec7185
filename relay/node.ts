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
import { RELAY_PATH } from '../src/models/relay.ts';
import { handleRelay, Refusal, type RelayConfig, type Upstream } from './handler.ts';

export {
  RELAY_BODY_TIMEOUT_MS,
  RELAY_IDLE_TIMEOUT_MS,
  RELAY_MAX_RESPONSE_BYTES,
  returnedHeaders,
  upstreamURL,
} from './handler.ts';

/**
 * The relay on the page's own server (`npm start`, `vite preview`): the shared Web-standard
 * handler (relay/handler.ts: origin, path, target, limits, reply headers) behind a thin
 * Node adapter, which adds what only a server of one's own can do: the check of the address the
 * connection is made to. See src/models/relay.ts for the URL shape, docs/relay.md for every limit.
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

/** The origin the browser sees this server at. */
function ownOrigin(req: IncomingMessage): string {
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  return `${scheme}://${req.headers.host ?? ''}`;
}

/**
 * Calls the target with node:http(s) through the guarded lookup and kept-alive agents, and hands
 * the reply back as a Response whose body follows the reader (the target is paused meanwhile).
 */
function nodeUpstream(
  agents: { http: HttpAgent; https: HttpsAgent },
  resolve: LookupFunction,
  allowance: LocalAllowance,
): Upstream {
  return (url, { headers, body, signal }) =>
    new Promise<Response>((done, fail) => {
      const secure = url.protocol === 'https:';
      const outgoing: Record<string, string> = Object.fromEntries(headers);
      outgoing['content-length'] = String(body.byteLength);
      const upstream = (secure ? httpsRequest : httpRequest)(url, {
        method: 'POST',
        headers: outgoing,
        agent: secure ? agents.https : agents.http,
        lookup: guardedLookup(resolve, url, allowance),
      });
      signal.addEventListener('abort', () => upstream.destroy(), { once: true });
      // Refused by the lookup, no such name, refused, reset, a TLS or HTTP error: one answer.
      upstream.on('error', () => fail(new Error('unreachable')));
      upstream.on('response', (reply) => {
        const replyHeaders = new Headers();
        for (let i = 0; i < reply.rawHeaders.length; i += 2) {
          replyHeaders.append(reply.rawHeaders[i], reply.rawHeaders[i + 1]);
        }
        const status = reply.statusCode ?? 502;
        const empty = status === 204 || status === 205 || status === 304;
        const stream = new ReadableStream<Uint8Array>(
          {
            start(controller) {
              reply.on('data', (chunk: Buffer) => {
                controller.enqueue(chunk);
                if ((controller.desiredSize ?? 0) <= 0) reply.pause();
              });
              // A reply cut by the target reaches the browser as a cut reply, not a complete one.
              reply.on('end', () =>
                reply.complete ? controller.close() : controller.error(new Error('cut')),
              );
              reply.on('aborted', () => controller.error(new Error('cut')));
              reply.on('error', () => controller.error(new Error('cut')));
            },
            pull() {
              reply.resume();
            },
            cancel() {
              upstream.destroy();
            },
          },
          { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
        );
        if (empty) reply.resume();
        done(new Response(empty ? null : stream, { status, headers: replyHeaders }));
      });
      // As a Buffer, the body goes out with the headers in one write (a plain Uint8Array is
      // written apart, and the target's answer waited for it: 4 ms more to the first byte here).
      upstream.end(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    });
}

/** The incoming request as a Web Request (its body streamed, its signal the browser going away). */
function toRequest(req: IncomingMessage, res: ServerResponse): Request {
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const body = hasBody
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          req.on('data', (chunk: Buffer) => controller.enqueue(chunk));
          req.on('end', () => controller.close());
          req.on('error', (error) => controller.error(error));
        },
        cancel() {
          req.pause();
        },
      })
    : null;
  return new Request(`${ownOrigin(req)}${req.url ?? '/'}`, {
    method: req.method,
    headers,
    body,
    signal: gone.signal,
    // Node's fetch needs it for a streamed body; the DOM types lack it.
    duplex: 'half',
  } as RequestInit);
}

/** Writes a Response to the Node reply, chunk by chunk, waiting for the browser when it lags. */
async function send(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  // A body not read to its end would be taken for the next request on this connection.
  if (!req.complete) headers.connection = 'close';
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    if (!req.complete) req.resume();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on('close', () => {
    if (!res.writableFinished) reader.cancel().catch(() => {});
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) {
        await new Promise<void>((resume, stop) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            resume();
          };
          res.on('drain', go);
          res.on('close', go);
          // The handler gave up on a reader that read nothing.
          reader.closed.catch(stop);
        });
      }
    }
    res.end();
  } catch {
    res.destroy();
  }
  if (!req.complete) req.resume();
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
  const config: RelayConfig = {
    // An address written in the URL is never looked up, so it is checked here, before any socket.
    refuseTarget(url) {
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      return isIP(literal) && !mayConnect(literal, url, allowance) ? new Refusal(502, UNREACHABLE) : null;
    },
    unreachable: UNREACHABLE,
    upstream: nodeUpstream(agents, resolve, allowance),
    idleTimeoutMs: options.idleTimeoutMs,
    maxResponseBytes: options.maxResponseBytes,
    bodyTimeoutMs: options.bodyTimeoutMs,
  };

  return {
    handle(req, res, next) {
      const { pathname } = new URL(req.url ?? '/', 'http://relay');
      if (pathname !== RELAY_PATH && !pathname.startsWith(`${RELAY_PATH}/`)) {
        next();
        return;
      }
      handleRelay(toRequest(req, res), config, pathname)
        .then((response) => send(response, req, res))
        .catch(() => res.destroy());
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
