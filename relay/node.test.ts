import type { LookupAddress } from 'node:dns';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type LookupFunction, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startMockApi, type MockApi } from '../scripts/mock-api.mjs';
import {
  createRelay,
  isSpecialUse,
  limitSlowClients,
  parseAllowLocal,
  returnedHeaders,
  UNREACHABLE,
  upstreamURL,
  type RelayHandler,
  type RelayOptions,
} from './node.ts';

/** The relay's handler on an ephemeral port, as Vite mounts it; other paths get Vite's 404. */
let server: Server;
let relay: RelayHandler;
let base: string;
let mock: MockApi;

beforeAll(async () => {
  mock = await startMockApi({ port: 0 });
  // The mock is on loopback: this server's operator allows it, as S04_RELAY_ALLOW_LOCAL=1 would.
  relay = createRelay({ allowLocal: '1' });
  server = createServer((req, res) =>
    relay.handle(req, res, () => {
      res.writeHead(404).end('not the relay');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  relay.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await mock.close();
});
beforeEach(() => mock.clearRequests());

const KEY = 'sk-relay-test-key-0123456789';
const body = JSON.stringify({
  model: 'mock-s04',
  max_tokens: 8000,
  system: 'You are a coding agent at /w. Use the task tool to delegate exploration or subtasks.',
  messages: [{ role: 'user', content: 'hello' }],
});

function call(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; target?: string | null } = {},
) {
  const target = options.target === undefined ? `${mock.url}/no-cors` : options.target;
  return fetch(`${base}${path}`, {
    method: options.method ?? 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${KEY}`,
      origin: base,
      'sec-fetch-site': 'same-origin',
      ...(target === null ? {} : { 'x-s04-relay-target': target }),
      ...options.headers,
    },
    body: options.method === 'GET' || options.method === 'HEAD' ? undefined : (options.body ?? body),
  });
}

/** A refusal: the status, one sentence in Anthropic's error shape, no key, and nothing forwarded. */
async function expectRefused(response: Response, status: number, says: RegExp) {
  expect(response.status).toBe(status);
  const text = await response.text();
  expect(text).not.toContain(KEY);
  const json = JSON.parse(text) as { type: string; error: { type: string; message: string } };
  expect(json.type).toBe('error');
  expect(json.error.type).toBe('relay_refused');
  expect(json.error.message).toMatch(says);
  expect(json.error.message).toMatch(/^[^\n]+\.$/);
  expect(mock.requests()).toEqual([]);
}

describe('the relay (relay/node.ts)', () => {
  it('answers its health check for its own pages', async () => {
    const response = await call('/relay/health', { method: 'GET' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ relay: 's04' });
  });

  it('forwards POST /v1/messages to the target: the key goes there, the reply comes back unchanged', async () => {
    const response = await call('/relay/v1/messages');
    expect(response.status).toBe(200);
    const message = (await response.json()) as { type: string; model: string };
    expect(message).toMatchObject({ type: 'message', model: 'mock-s04' });
    const [received] = mock.requests();
    expect(received).toMatchObject({ method: 'POST', path: '/v1/messages', noCors: true });
    expect(received.headers.authorization).toBe('[redacted]');
    // What names the page or the relay is not passed on.
    expect(received.headers.origin).toBeUndefined();
    expect(received.headers['sec-fetch-site']).toBeUndefined();
    expect(received.headers['x-s04-relay-target']).toBeUndefined();
    expect(received.body).toEqual(JSON.parse(body));
  });

  it('forwards /v1/messages/count_tokens too', async () => {
    await call('/relay/v1/messages/count_tokens');
    expect(mock.requests()).toMatchObject([{ method: 'POST', path: '/v1/messages/count_tokens' }]);
  });

  it('passes error statuses and bodies on unchanged', async () => {
    const response = await call('/relay/v1/messages', { headers: { authorization: 'Bearer bad-key' } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });
    expect(response.headers.get('request-id')).toMatch(/^req_mock_/);
  });

  it('streams SSE through as it arrives: the first event before the last is sent', async () => {
    const started = Date.now();
    const response = await call('/relay/v1/messages', {
      body: JSON.stringify({ ...JSON.parse(body), model: 'mock-slow', stream: true }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const first = await reader.read();
    const firstAt = Date.now() - started;
    expect(new TextDecoder().decode(first.value)).toContain('event: message_start');
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += new TextDecoder().decode(chunk.value);
    }
    const lastAt = Date.now() - started;
    expect(rest).toContain('event: message_stop');
    // mock-slow waits 100 ms before each event; a buffering relay would deliver all at the end.
    expect(lastAt - firstAt).toBeGreaterThan(500);
  });

  it('relays on Node’s own streams: no Web Request, Response or stream is made on the way (issue 23, time to first byte)', async () => {
    // Each conversion to and from Web streams costs promise steps before the call and after the
    // reply (about 3 ms more to the first byte, measured with scripts/relay-ttfb.mjs --compare).
    const made: string[] = [];
    for (const Web of [Request, Response, ReadableStream, WritableStream, TransformStream]) {
      vi.stubGlobal(
        Web.name,
        class extends (Web as new (...args: never[]) => object) {
          constructor(...args: never[]) {
            super(...args);
            made.push(Web.name);
          }
        },
      );
    }
    try {
      const text = await new Promise<string>((resolve, reject) => {
        const req = request(`${base}/relay/v1/messages`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-api-key': KEY,
            origin: base,
            'x-s04-relay-target': mock.url,
          },
        });
        req.on('response', (res) => {
          let got = '';
          res.on('data', (chunk: Buffer) => (got += chunk.toString()));
          res.on('end', () => resolve(got));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ ...JSON.parse(body), stream: true }));
      });
      expect(text).toContain('event: message_stop');
      expect(made).toEqual([]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('cuts the call to the target when the browser goes away', async () => {
    const controller = new AbortController();
    const response = await fetch(`${base}/relay/v1/messages`, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        'x-api-key': 'mock-hang',
        'x-s04-relay-target': mock.url,
      },
      body,
    });
    expect(response.status).toBe(200);
    expect(mock.requests()).toHaveLength(1);
    const before = await openSockets();
    controller.abort();
    await expect.poll(openSockets, { timeout: 2000 }).toBeLessThan(before);
  });

  describe('refuses, forwarding nothing', () => {
    it('a request from another origin: 403', async () => {
      await expectRefused(
        await call('/relay/v1/messages', { headers: { origin: 'https://evil.example' } }),
        403,
        /only pages served by this server/,
      );
      await expectRefused(
        await call('/relay/v1/messages', { headers: { origin: 'null' } }),
        403,
        /only pages served by this server/,
      );
    });

    it('a request a browser marks as cross-site or same-site: 403', async () => {
      for (const site of ['cross-site', 'same-site']) {
        await expectRefused(
          await call('/relay/v1/messages', { headers: { 'sec-fetch-site': site } }),
          403,
          /only pages served by this server/,
        );
      }
    });

    it('another path: 404', async () => {
      await expectRefused(await call('/relay/v1/models'), 404, /only \/v1\/messages/);
      await expectRefused(await call('/relay/v1/complete'), 404, /only \/v1\/messages/);
      await expectRefused(await call('/relay'), 404, /only \/v1\/messages/);
    });

    it('GET (or any method but POST): 405', async () => {
      await expectRefused(await call('/relay/v1/messages', { method: 'GET' }), 405, /only POST/);
      await expectRefused(await call('/relay/v1/messages', { method: 'PUT' }), 405, /only POST/);
    });

    it('a file: target: 400', async () => {
      await expectRefused(
        await call('/relay/v1/messages', { target: 'file:///etc/passwd' }),
        400,
        /only to https or http/,
      );
    });

    it('a base URL with a query or fragment, even an empty one: 400', async () => {
      for (const suffix of ['?', '#', '?x=1', '#frag', '/?']) {
        await expectRefused(
          await call('/relay/v1/messages', { target: `${mock.url}/no-cors${suffix}` }),
          400,
          /^The relay target must be a base URL, without a query or fragment\.$/,
        );
      }
    });

    it('other schemes, a malformed target, credentials in it, or none at all: 400', async () => {
      await expectRefused(
        await call('/relay/v1/messages', { target: 'ftp://127.0.0.1/' }),
        400,
        /only to https or http/,
      );
      await expectRefused(await call('/relay/v1/messages', { target: 'not a url' }), 400, /not a valid URL/);
      await expectRefused(
        await call('/relay/v1/messages', { target: 'https://user:pw@example.com' }),
        400,
        /user name or password/,
      );
      await expectRefused(await call('/relay/v1/messages', { target: null }), 400, /x-s04-relay-target/);
    });

    it('a body over 10 MB: 413', async () => {
      const big = JSON.stringify({ ...JSON.parse(body), padding: 'x'.repeat(10 * 1024 * 1024) });
      await expectRefused(await call('/relay/v1/messages', { body: big }), 413, /up to 10 MB/);
    });
  });

  it('leaves every other path to the server', async () => {
    const response = await fetch(`${base}/relayed/v1/messages`, { method: 'POST', body });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('not the relay');
    expect(mock.requests()).toEqual([]);
  });
});

/** How many connections the mock holds open (a hung reply keeps one until the client goes). */
function openSockets(): Promise<number> {
  return mock.connections();
}

/** Another relay with its own options, on its own ephemeral port; `post` sends a Messages call. */
async function startRelay(options: RelayOptions) {
  const own = createRelay(options);
  const ownServer = createServer((req, res) => own.handle(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => ownServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(ownServer.address() as AddressInfo).port}`;
  return {
    url,
    post(target: string, request: { model?: string; stream?: boolean } = {}) {
      return fetch(`${url}/relay/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'x-s04-relay-target': target },
        body: JSON.stringify({ ...JSON.parse(body), ...request }),
      });
    },
    /** How many client connections the relay's server holds open. */
    connections() {
      return new Promise<number>((resolve) => ownServer.getConnections((_error, count) => resolve(count)));
    },
    async close() {
      own.close();
      ownServer.closeAllConnections();
      await new Promise((resolve) => ownServer.close(resolve));
    },
  };
}

/** A lookup that answers every name with `addresses` and records what it was asked. */
function fakeLookup(addresses: LookupAddress[]) {
  const asked: string[] = [];
  const lookup = ((hostname: string, _options: unknown, callback: (...args: unknown[]) => void) => {
    asked.push(hostname);
    callback(null, addresses);
  }) as unknown as LookupFunction;
  return { lookup, asked };
}

/** The one answer for a refused address and for any failed connection. */
async function expectUnreachable(response: Response) {
  expect(response.status).toBe(502);
  expect(response.headers.get('x-should-retry')).toBe('false');
  expect(await response.json()).toEqual({
    type: 'error',
    error: { type: 'relay_refused', message: UNREACHABLE },
  });
}

describe('the reply headers the relay passes back (issue 23.3)', () => {
  const kept = {
    'content-type': 'text/event-stream; charset=utf-8',
    'request-id': 'req_1',
    'x-request-id': 'req_2',
    'anthropic-organization-id': 'org',
    'anthropic-ratelimit-requests-limit': '50',
    'anthropic-ratelimit-tokens-reset': '2026-01-01T00:00:00Z',
    'retry-after': '3',
    'retry-after-ms': '3000',
    'x-should-retry': 'true',
  };
  const dropped = {
    'set-cookie': ['a=1; Path=/'],
    'clear-site-data': '"storage"',
    refresh: '0; url=https://example.invalid/',
    link: '</x.css>; rel=stylesheet',
    'content-security-policy': "default-src 'none'",
    'content-security-policy-report-only': "default-src 'none'",
    'cross-origin-opener-policy': 'unsafe-none',
    'cross-origin-embedder-policy': 'unsafe-none',
    'cross-origin-resource-policy': 'cross-origin',
    'access-control-allow-origin': '*',
    'strict-transport-security': 'max-age=1',
    location: 'https://example.invalid/',
    'content-disposition': 'attachment; filename=x.html',
    'service-worker-allowed': '/',
    'origin-agent-cluster': '?0',
    'permissions-policy': 'camera=*',
    'x-frame-options': 'ALLOWALL',
    'report-to': '{}',
    'reporting-endpoints': 'a="https://example.invalid"',
    nel: '{}',
    'alt-svc': 'h3=":443"',
    'cache-control': 'public, max-age=31536000',
    'content-length': '12',
    'transfer-encoding': 'chunked',
    connection: 'keep-alive',
    'x-powered-by': 'x',
  };

  it('keeps what an Anthropic client reads: type, request ids, rate limits, retry advice', () => {
    expect(returnedHeaders({ ...kept, ...dropped } as IncomingHttpHeaders)).toEqual(kept);
  });

  for (const [name, value] of Object.entries(dropped)) {
    it(`drops ${name}`, () => {
      expect(returnedHeaders({ [name]: value, 'content-type': 'application/json' })).toEqual({
        'content-type': 'application/json',
      });
    });
  }

  it('a reply carrying Clear-Site-Data, Set-Cookie, Refresh, Link and CSP reaches the client without them', async () => {
    const response = await call('/relay/v1/messages', {
      body: JSON.stringify({ ...JSON.parse(body), model: 'mock-hostile-headers' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('request-id')).toMatch(/^req_mock_/);
    for (const name of [
      'clear-site-data',
      'set-cookie',
      'refresh',
      'link',
      'content-security-policy',
      'x-hostile',
    ]) {
      expect(response.headers.get(name), name).toBeNull();
    }
    expect(await response.json()).toMatchObject({ type: 'message' });
  });
});

describe('the upstream URL (issue 23.4)', () => {
  it('is the base path with /v1/messages appended, nothing else', () => {
    expect(upstreamURL('https://h.example/apps/anthropic', '/v1/messages').href).toBe(
      'https://h.example/apps/anthropic/v1/messages',
    );
    expect(upstreamURL('https://h.example/apps/anthropic//', '/v1/messages').href).toBe(
      'https://h.example/apps/anthropic/v1/messages',
    );
    expect(upstreamURL('https://h.example', '/v1/messages/count_tokens').href).toBe(
      'https://h.example/v1/messages/count_tokens',
    );
    expect(upstreamURL('https://h.example/a/../b/./c', '/v1/messages').href).toBe(
      'https://h.example/b/c/v1/messages',
    );
  });

  it('does not pass the caller’s query on', async () => {
    const response = await call('/relay/v1/messages?beta=true&x=../../other');
    expect(response.status).toBe(200);
    expect(mock.requests()).toMatchObject([{ method: 'POST', path: '/v1/messages' }]);
  });
});

describe('which addresses the relay reaches (issue 23.4)', () => {
  it('classes loopback, private, link-local and other special-use addresses apart from public ones', () => {
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '192.0.0.1',
      '198.18.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      '64:ff9b::a00:1',
      '2001:db8::1',
      'not an address',
    ]) {
      expect(isSpecialUse(address), address).toBe(true);
    }
    for (const address of ['1.1.1.1', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:1.1.1.1']) {
      expect(isSpecialUse(address), address).toBe(false);
    }
  });

  it('reads S04_RELAY_ALLOW_LOCAL: nothing, 1 (loopback), or host:port entries', () => {
    expect(parseAllowLocal(undefined)).toEqual({ loopback: false, hostPorts: new Set() });
    expect(parseAllowLocal('0')).toEqual({ loopback: false, hostPorts: new Set() });
    expect(parseAllowLocal('1')).toEqual({ loopback: true, hostPorts: new Set() });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(parseAllowLocal(' localhost:11434, 192.168.1.20:8080 ,[::1]:9000,nope,host:x')).toEqual({
      loopback: false,
      hostPorts: new Set(['localhost:11434', '192.168.1.20:8080', '[::1]:9000']),
    });
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });

  it('refuses loopback targets, http and https alike, unless the server allows them; nothing is forwarded', async () => {
    const strict = await startRelay({ allowLocal: '' });
    try {
      for (const target of [
        `${mock.url}/no-cors`,
        mock.url.replace('http:', 'https:'),
        mock.url.replace('127.0.0.1', 'localhost'),
        `http://[::1]:${new URL(mock.url).port}`,
        `http://0x7f.1:${new URL(mock.url).port}`,
        `http://2130706433:${new URL(mock.url).port}`,
      ]) {
        await expectUnreachable(await strict.post(target));
      }
      expect(mock.requests()).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it('refuses a name that resolves to a private, link-local or loopback address, before any socket opens', async () => {
    for (const addresses of [
      [{ address: '10.0.0.7', family: 4 }],
      [{ address: '169.254.169.254', family: 4 }],
      [{ address: '192.168.1.1', family: 4 }],
      [{ address: 'fd00::1', family: 6 }],
      [{ address: '::ffff:10.0.0.1', family: 6 }],
      [{ address: '127.0.0.1', family: 4 }],
      // One bad address among several refuses the name: none of them is tried.
      [
        { address: '127.0.0.2', family: 4 },
        { address: '10.9.9.9', family: 4 },
      ],
    ]) {
      const { lookup, asked } = fakeLookup(addresses);
      const strict = await startRelay({ allowLocal: '', lookup });
      try {
        // .test names never resolve in real DNS: without the injected lookup nothing is reached either.
        for (const target of [
          'https://model.test/anthropic',
          `http://model.test:${new URL(mock.url).port}`,
        ]) {
          await expectUnreachable(await strict.post(target));
        }
        expect(asked).toEqual(['model.test', 'model.test']);
      } finally {
        await strict.close();
      }
    }
    expect(mock.requests()).toEqual([]);
  });

  it('answers a refusal, a closed port, a TLS handshake with a plain-http port and an unknown name alike', async () => {
    const closed = await startMockApi({ port: 0 });
    await closed.close();
    const lenient = await startRelay({ allowLocal: '1' });
    const strict = await startRelay({ allowLocal: '' });
    const failingLookup = ((_h: string, _o: unknown, callback: (error: Error) => void) =>
      callback(
        Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }),
      )) as unknown as LookupFunction;
    const unknown = await startRelay({ allowLocal: '1', lookup: failingLookup });
    try {
      const answers = [
        await strict.post(mock.url), // refused
        await lenient.post(closed.url), // ECONNREFUSED
        await lenient.post(mock.url.replace('http:', 'https:')), // an open port, not TLS: EPROTO
        await unknown.post('https://model.test'), // ENOTFOUND
      ];
      const seen = await Promise.all(
        answers.map(async (response) => ({
          status: response.status,
          headers: [...response.headers].filter(([name]) => name !== 'date'),
          body: await response.text(),
        })),
      );
      for (const answer of seen) expect(answer).toEqual(seen[0]);
      expect(JSON.parse(seen[0].body).error.message).toBe(UNREACHABLE);
      expect(UNREACHABLE).toMatch(/S04_RELAY_ALLOW_LOCAL/);
    } finally {
      await Promise.all([lenient.close(), strict.close(), unknown.close()]);
    }
  });

  it('reaches exactly the host:port entries allowed, by name or by address (127.0.0.2 stands for another host)', async () => {
    const other = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'message', from: 'other' }));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
    const otherPort = (other.address() as AddressInfo).port;
    const mockPort = new URL(mock.url).port;
    // model.test resolves to the mock's loopback address; the entry names the name.
    const { lookup } = fakeLookup([{ address: '127.0.0.1', family: 4 }]);
    const listed = await startRelay({ allowLocal: `127.0.0.2:${otherPort},model.test:${mockPort}`, lookup });
    try {
      expect(await (await listed.post(`http://127.0.0.2:${otherPort}`)).json()).toEqual({
        type: 'message',
        from: 'other',
      });
      expect((await listed.post(`http://model.test:${mockPort}/no-cors`)).status).toBe(200);
      expect(mock.requests()).toHaveLength(1);
      // Not listed: the mock's port on its address, another port on 127.0.0.2.
      await expectUnreachable(await listed.post(mock.url));
      await expectUnreachable(await listed.post(`http://127.0.0.2:${mockPort}`));
      expect(mock.requests()).toHaveLength(1);
    } finally {
      await listed.close();
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

describe('the relay’s limits (issue 23.5)', () => {
  /** A loopback server that takes connections and never says a word, or sends a raw reply. */
  async function rawServer(onConnection: (socket: import('node:net').Socket) => void) {
    const sockets = new Set<import('node:net').Socket>();
    const server = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      onConnection(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      async close() {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it('refuses a reply declared over 50 MB without passing any of it on', async () => {
    const huge = await rawServer((socket) =>
      socket.write(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 62914560\r\n\r\n{"x":',
      ),
    );
    const own = await startRelay({ allowLocal: '1' });
    try {
      const response = await own.post(huge.url);
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({
        type: 'error',
        error: { type: 'relay_refused', message: "The endpoint's reply is over 50 MB, the relay's limit." },
      });
    } finally {
      await Promise.all([own.close(), huge.close()]);
    }
  });

  it('ends a streamed reply that grows past the cap with an error event naming it', async () => {
    const own = await startRelay({ allowLocal: '1', maxResponseBytes: 1024 });
    try {
      // mock-slow sends one event each 100 ms: the cap falls between two of them.
      const response = await own.post(`${mock.url}/no-cors`, { model: 'mock-slow', stream: true });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain('event: message_start');
      expect(text.length).toBeLessThan(1024 + 300);
      expect(text).toMatch(
        /event: error\ndata: \{"type":"error","error":\{"type":"relay_refused","message":"The endpoint's reply is over 1 KB, the relay's limit\."\}\}\n\n$/,
      );
      expect(text).not.toContain('message_stop');
    } finally {
      await own.close();
    }
  });

  it('gives up on a target that accepts the connection and sends nothing: 504, an Anthropic-style error', async () => {
    const silent = await rawServer(() => {});
    const own = await startRelay({ allowLocal: '1', idleTimeoutMs: 300 });
    try {
      const response = await own.post(silent.url);
      expect(response.status).toBe(504);
      expect(response.headers.get('x-should-retry')).toBe('false');
      expect(await response.json()).toEqual({
        type: 'error',
        error: { type: 'relay_refused', message: 'The endpoint sent nothing for 300 ms; the relay gave up.' },
      });
    } finally {
      await Promise.all([own.close(), silent.close()]);
    }
  });

  it('ends a stream that falls silent with an error event the SDK reports', async () => {
    const own = await startRelay({ allowLocal: '1', idleTimeoutMs: 300 });
    try {
      const before = await openSockets();
      const response = await own.post(mock.url, { model: 'mock-hang', stream: true });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(
        'event: error\ndata: {"type":"error","error":{"type":"relay_refused","message":"The endpoint sent nothing for 300 ms; the relay gave up."}}\n\n',
      );
      // The call to the target is cut too.
      await expect.poll(openSockets, { timeout: 2000 }).toBe(before);
    } finally {
      await own.close();
    }
  });

  it('waits 120 s by default', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const silent = await rawServer(() => {});
    const own = await startRelay({ allowLocal: '1' });
    try {
      const pending = own.post(silent.url);
      await vi.waitFor(() => expect(vi.getTimerCount()).toBeGreaterThan(0));
      await vi.advanceTimersByTimeAsync(119_000);
      let settled = false;
      void pending.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(10);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1_100);
      const response = await pending;
      expect(await response.json()).toMatchObject({
        error: { message: 'The endpoint sent nothing for 120 s; the relay gave up.' },
      });
    } finally {
      vi.useRealTimers();
      await Promise.all([own.close(), silent.close()]);
    }
  });

  it('closes a client that reads nothing of a large reply, and the call to the target', async () => {
    let upstreamClosed = false;
    const big = await rawServer((socket) => {
      socket.on('close', () => (upstreamClosed = true));
      socket.resume();
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n');
      // 40 MB in 64 KB chunks, as fast as the relay takes them (under the 50 MB cap).
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const pump = () => {
        while (sent < 640 && !socket.destroyed) {
          sent++;
          if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`))
            return void socket.once('drain', pump);
        }
      };
      pump();
    });
    const own = await startRelay({ allowLocal: '1', idleTimeoutMs: 300 });
    try {
      const { port } = new URL(own.url);
      const client = connect(Number(port), '127.0.0.1');
      client.on('error', () => {});
      client.pause(); // reads nothing
      const request = JSON.stringify({ model: 'x' });
      client.write(
        `POST /relay/v1/messages HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n` +
          `x-s04-relay-target: ${big.url}\r\ncontent-length: ${request.length}\r\n\r\n${request}`,
      );
      await expect.poll(() => own.connections(), { timeout: 4000 }).toBe(1);
      await expect.poll(() => own.connections(), { timeout: 4000 }).toBe(0);
      await expect.poll(() => upstreamClosed, { timeout: 2000 }).toBe(true);
      client.destroy();
    } finally {
      await Promise.all([own.close(), big.close()]);
    }
  });

  it('closes a client that trickles its body: 408, and the connection goes', async () => {
    const own = await startRelay({ allowLocal: '1', bodyTimeoutMs: 300 });
    try {
      const { port } = new URL(own.url);
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      const closed = new Promise((resolve) => socket.on('close', resolve));
      socket.write(
        `POST /relay/v1/messages HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n` +
          `x-s04-relay-target: ${mock.url}\r\ncontent-length: 1000\r\n\r\n{"model":`,
      );
      await closed;
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(received).toContain('The relay takes a request body within 300 ms.');
      expect(mock.requests()).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it('sets the server’s header and request timeouts (slow clients are closed)', () => {
    const server = createServer();
    expect(server.headersTimeout).toBe(60_000); // Node's default
    limitSlowClients(server);
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(60_000);
  });
});
