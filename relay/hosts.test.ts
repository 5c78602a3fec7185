import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startMockApi, type MockApi } from '../scripts/mock-api.mjs';
import { probeRelay } from '../src/models/relay.ts';
import { onRequest as cloudflare } from '../functions/relay/[[path]].ts';
import vercel from '../api/relay.ts';
import netlify from '../netlify/functions/relay.ts';
import {
  ALLOWED_HOSTS_ENV,
  handleRelay,
  parseAllowedHosts,
  PRESET_ORIGINS,
  Refusal,
  serverlessRelay,
  type Upstream,
} from './handler.ts';
import { createRelay, UNREACHABLE, type RelayHandler } from './node.ts';

/**
 * One table of cases, run against every place the relay is deployed: the shared handler itself,
 * the Node adapter of the playground's server (over HTTP), and the Cloudflare Pages, Vercel and
 * Netlify functions (called as their platforms call them). The serverless ones reach the mock
 * API on loopback only because S04_RELAY_ALLOWED_HOSTS names it here.
 */

let mock: MockApi;
let server: Server;
let node: RelayHandler;
let nodeBase: string;

const SITE = 'https://playground.example';
/** The runtime's fetch, kept for the Node adapter while a test stubs the page's. */
const realFetch = globalThis.fetch;
const KEY = 'sk-relay-hosts-key-0123456789';

beforeAll(async () => {
  mock = await startMockApi({ port: 0 });
  vi.stubEnv(ALLOWED_HOSTS_ENV, `presets,${mock.url}`);
  node = createRelay({ allowLocal: '1' });
  server = createServer((req, res) => node.handle(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  nodeBase = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  vi.unstubAllEnvs();
  node.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await mock.close();
});
beforeEach(() => mock.clearRequests());

interface Call {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The relay target header; null for none. */
  target?: string | null;
}

/** A host: how a request for `/relay<path>` reaches its relay, as its platform delivers it. */
interface Host {
  name: string;
  /** Serverless: an allow-list of hosts; node: public addresses, checked on the resolved one. */
  policy: 'serverless' | 'node';
  send(call: Call): Promise<Response>;
  /** The largest request body it takes, and how its refusal says it (docs/relay.md). */
  maxBody: { bytes: number; says: string };
}

const TEN_MB = { bytes: 10 * 1024 * 1024, says: 'up to 10 MB' };

function requestFor(base: string, url: string, call: Call): Request {
  const target = call.target === undefined ? `${mock.url}/no-cors` : call.target;
  const method = call.method ?? 'POST';
  return new Request(url, {
    method,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${KEY}`,
      origin: base,
      'sec-fetch-site': 'same-origin',
      ...(target === null ? {} : { 'x-s04-relay-target': target }),
      ...call.headers,
    },
    body: method === 'GET' || method === 'HEAD' ? undefined : (call.body ?? JSON.stringify(messages)),
  });
}

const HOSTS: Host[] = [
  {
    name: 'the shared handler',
    policy: 'serverless',
    send: (call) =>
      serverlessRelay(`presets,${mock.url}`)(requestFor(SITE, `${SITE}/relay${call.path}`, call)),
    maxBody: TEN_MB,
  },
  {
    name: 'the Node adapter (npm start, vite preview)',
    policy: 'node',
    send: (call) => realFetch(requestFor(nodeBase, `${nodeBase}/relay${call.path}`, call)),
    maxBody: TEN_MB,
  },
  {
    name: 'the Cloudflare Pages Function',
    policy: 'serverless',
    send: (call) =>
      cloudflare({
        request: requestFor(SITE, `${SITE}/relay${call.path}`, call),
        env: { [ALLOWED_HOSTS_ENV]: `presets,${mock.url}` },
      }),
    // Cloudflare's smallest (100 MB, Free and Pro plans) is above the relay's own.
    maxBody: TEN_MB,
  },
  {
    name: 'the Vercel function (behind vercel.json’s rewrite)',
    policy: 'serverless',
    send: (call) =>
      vercel.fetch(
        requestFor(SITE, `${SITE}/api/relay?path=${encodeURIComponent(call.path.slice(1))}`, call),
      ),
    // Vercel's functions take request bodies up to 4.5 MB.
    maxBody: { bytes: 4_500_000, says: 'up to 4.5 MB' },
  },
  {
    name: 'the Netlify function',
    policy: 'serverless',
    send: (call) => netlify(requestFor(SITE, `${SITE}/relay${call.path}`, call)),
    // Netlify's functions take buffered request bodies up to 6 MB.
    maxBody: { bytes: 6_000_000, says: 'up to 6 MB' },
  },
];

const messages = {
  model: 'mock-s04',
  max_tokens: 8000,
  system: 'You are a coding agent at /w. Use the task tool to delegate exploration or subtasks.',
  messages: [{ role: 'user', content: 'hello' }],
};

async function expectRefused(response: Response, status: number, says: RegExp | string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('x-should-retry')).toBe('false');
  const json = (await response.json()) as { type: string; error: { type: string; message: string } };
  expect(json.type).toBe('error');
  expect(json.error.type).toBe('relay_refused');
  if (typeof says === 'string') expect(json.error.message).toBe(says);
  else expect(json.error.message).toMatch(says);
  expect(mock.requests()).toEqual([]);
}

/** Refusals every host makes alike, forwarding nothing. */
const REFUSALS: { what: string; call: Call; status: number; says: RegExp }[] = [
  {
    what: 'a request from another origin',
    call: { path: '/v1/messages', headers: { origin: 'https://evil.example' } },
    status: 403,
    says: /only pages served by this server/,
  },
  {
    what: 'a request a browser marks as cross-site',
    call: { path: '/v1/messages', headers: { 'sec-fetch-site': 'cross-site' } },
    status: 403,
    says: /only pages served by this server/,
  },
  { what: 'another path', call: { path: '/v1/complete' }, status: 404, says: /forwards only \/v1\/messages/ },
  { what: 'GET', call: { path: '/v1/messages', method: 'GET' }, status: 405, says: /only POST/ },
  {
    what: 'no target',
    call: { path: '/v1/messages', target: null },
    status: 400,
    says: /x-s04-relay-target/,
  },
  {
    what: 'a target with an empty query',
    call: { path: '/v1/messages', target: 'https://api.anthropic.com?' },
    status: 400,
    says: /without a query or fragment/,
  },
  {
    what: 'a file: target',
    call: { path: '/v1/messages', target: 'file:///etc/passwd' },
    status: 400,
    says: /only to https or http URLs/,
  },
];

for (const host of HOSTS) {
  describe(host.name, () => {
    it('answers the health check the Settings dialog probes, so its checkbox shows', async () => {
      const response = await host.send({ path: '/health', method: 'GET' });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ relay: 's04' });
      // probeRelay, as the page calls it at its own origin.
      const fetchStub = vi.fn((input: RequestInfo | URL) => {
        const { pathname } = new URL(String(input));
        expect(pathname).toBe('/relay/health');
        return host.send({ path: '/health', method: 'GET' });
      });
      vi.stubGlobal('fetch', fetchStub);
      try {
        expect(await probeRelay(SITE)).toBe(true);
      } finally {
        vi.unstubAllGlobals();
      }
    });

    it('forwards POST /v1/messages: the key goes to the target, only allowed headers come back', async () => {
      const response = await host.send({
        path: '/v1/messages',
        headers: { 'x-api-key': 'mock-hostile-headers', 'x-forwarded-for': '203.0.113.9' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/json/);
      for (const name of ['set-cookie', 'clear-site-data', 'refresh', 'link', 'content-security-policy']) {
        expect(response.headers.get(name)).toBeNull();
      }
      expect(((await response.json()) as { type: string }).type).toBe('message');
      const [seen] = mock.requests();
      expect(seen).toMatchObject({ method: 'POST', path: '/v1/messages', noCors: true });
      // The mock redacts the key it was sent: that it holds one is what is seen here.
      expect(seen.headers.authorization).toBe('[redacted]');
      expect(seen.headers['x-s04-relay-target']).toBeUndefined();
      expect(seen.headers.origin).toBeUndefined();
      expect(seen.headers['x-forwarded-for']).toBeUndefined();
    });

    it("refuses a body over its host's limit in its own sentence, and reports that limit", async () => {
      const over = await host.send({ path: '/v1/messages', body: 'x'.repeat(host.maxBody.bytes + 1) });
      expect(over.status).toBe(413);
      expect(await over.text()).toContain(`The relay takes request bodies ${host.maxBody.says}.`);
      expect(mock.requests()).toEqual([]);
      const health = await host.send({ path: '/health', method: 'GET' });
      expect(await health.json()).toMatchObject({ maxBodyBytes: host.maxBody.bytes });
    });

    it('forwards /v1/messages/count_tokens too', async () => {
      await host.send({ path: '/v1/messages/count_tokens' });
      expect(mock.requests()).toMatchObject([{ method: 'POST', path: '/v1/messages/count_tokens' }]);
    });

    it('streams SSE through', async () => {
      const response = await host.send({
        path: '/v1/messages',
        body: JSON.stringify({ ...messages, stream: true }),
      });
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const text = await response.text();
      expect(text).toMatch(/^event: message_start/);
      expect(text).toContain('event: message_stop');
    });

    for (const { what, call, status, says } of REFUSALS) {
      it(`refuses ${what}: ${status}, forwarding nothing`, async () => {
        await expectRefused(await host.send(call), status, says);
      });
    }

    if (host.policy === 'serverless') {
      it('refuses a host not on its allow-list (a loopback port it does not name): 403, before any socket', async () => {
        await expectRefused(
          await host.send({ path: '/v1/messages', target: 'http://127.0.0.2:9/' }),
          403,
          /only to known provider hosts, not to 127\.0\.0\.2:9.*S04_RELAY_ALLOWED_HOSTS/,
        );
      });
    } else {
      it('refuses a private address it is not allowed: 502, before any socket', async () => {
        await expectRefused(
          await host.send({ path: '/v1/messages', target: 'http://10.1.2.3/' }),
          502,
          UNREACHABLE,
        );
      });
    }
  });
}

describe('S04_RELAY_ALLOWED_HOSTS (serverless hosts)', () => {
  it('defaults to the https presets’ hosts, never a local one', () => {
    expect([...parseAllowedHosts(undefined)]).toEqual([
      'https://api.anthropic.com',
      'https://api.deepseek.com',
      'https://api.moonshot.ai',
      'https://api.minimax.io',
      'https://dashscope.aliyuncs.com',
      'https://openrouter.ai',
    ]);
    expect([...parseAllowedHosts('')]).toEqual(PRESET_ORIGINS);
  });

  it('reads host names (https), origins and `presets`; ignores the rest with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect([
        ...parseAllowedHosts('API.example.com, http://127.0.0.1:8080, ftp://x, a.example/path'),
      ]).toEqual(['https://api.example.com', 'http://127.0.0.1:8080']);
      expect(warn).toHaveBeenCalledTimes(2);
      expect([...parseAllowedHosts('presets,api.example.com')]).toEqual([
        ...PRESET_ORIGINS,
        'https://api.example.com',
      ]);
    } finally {
      warn.mockRestore();
    }
  });

  it('by default refuses the mock on loopback (not a preset host), reading nothing from it', async () => {
    const relay = serverlessRelay(undefined);
    await expectRefused(
      await relay(requestFor(SITE, `${SITE}/relay/v1/messages`, { path: '/v1/messages' })),
      403,
      /only to known provider hosts/,
    );
  });

  it('follows no redirect to another host: a 3xx is passed back without its Location', async () => {
    const upstream = vi.fn<Upstream>(
      async () => new Response(null, { status: 307, headers: { location: 'http://10.0.0.1/' } }),
    );
    const response = await handleRelay(
      requestFor(SITE, `${SITE}/relay/v1/messages`, { path: '/v1/messages' }),
      {
        refuseTarget: () => null,
        unreachable: 'x',
        upstream,
      },
    );
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBeNull();
    expect(upstream).toHaveBeenCalledTimes(1);
  });
});

/** The limits every host shares, on the handler with short limits and a scripted target. */
describe('the shared handler’s limits', () => {
  const config = (upstream: Upstream) => ({
    refuseTarget: () => null,
    unreachable: 'unreachable',
    upstream,
    idleTimeoutMs: 200,
    maxResponseBytes: 1000,
    bodyTimeoutMs: 200,
  });
  const request = () => requestFor(SITE, `${SITE}/relay/v1/messages`, { path: '/v1/messages' });
  /** A target reply that sends `chunks`, then stays open, silent. */
  const scripted =
    (chunks: string[], contentType = 'text/event-stream'): Upstream =>
    async () =>
      new Response(
        new ReadableStream({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          },
        }),
        { headers: { 'content-type': contentType } },
      );

  it('a target that never answers: 504 after the idle time', async () => {
    const response = await handleRelay(
      request(),
      config(() => new Promise<Response>(() => {})),
    );
    expect(response.status).toBe(504);
    expect(await response.text()).toContain('The endpoint sent nothing for 200 ms; the relay gave up.');
  });

  it('a stream that falls silent ends with an SSE error event', async () => {
    const response = await handleRelay(request(), config(scripted(['event: ping\ndata: {}\n\n'])));
    const text = await response.text();
    expect(text).toMatch(/^event: ping\ndata: \{\}\n\nevent: error\ndata: .*sent nothing for 200 ms/);
  });

  it('a reply declared over the cap: 502 before any of it', async () => {
    const upstream: Upstream = async () =>
      new Response('x'.repeat(2000), { headers: { 'content-length': '2000' } });
    const response = await handleRelay(request(), config(upstream));
    expect(response.status).toBe(502);
    expect(await response.text()).toContain("The endpoint's reply is over 1 KB, the relay's limit.");
  });

  it('a stream growing past the cap ends with an SSE error event; other replies are cut', async () => {
    const event = `event: delta\ndata: ${'y'.repeat(400)}\n\n`;
    const sse = await handleRelay(request(), config(scripted([event, event, event])));
    const text = await sse.text();
    expect(text.split('event: delta').length - 1).toBe(2);
    expect(text).toMatch(/event: error\ndata: .*over 1 KB, the relay's limit/);
    const json = await handleRelay(
      request(),
      config(scripted(['z'.repeat(600), 'z'.repeat(600)], 'application/json')),
    );
    await expect(json.text()).rejects.toThrow();
  });

  it('a target that cannot be reached: 502 with the host’s sentence', async () => {
    const response = await handleRelay(
      request(),
      config(() => Promise.reject(new Error('ECONNREFUSED'))),
    );
    expect(response.status).toBe(502);
    expect(await response.text()).toContain('"message":"unreachable"');
  });

  it('a refusal of the host is sent only after the body is read, and forwards nothing', async () => {
    const upstream = vi.fn<Upstream>();
    const response = await handleRelay(request(), {
      ...config(upstream),
      refuseTarget: () => new Refusal(403, 'no'),
    });
    expect(response.status).toBe(403);
    expect(upstream).not.toHaveBeenCalled();
  });

  it('a body that trickles: 408', async () => {
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"model":'));
      },
    });
    const trickle = new Request(`${SITE}/relay/v1/messages`, {
      method: 'POST',
      headers: { 'x-s04-relay-target': 'https://api.anthropic.com' },
      body,
      duplex: 'half',
    } as RequestInit);
    const response = await handleRelay(trickle, config(vi.fn<Upstream>()));
    expect(response.status).toBe(408);
    expect(await response.text()).toContain('The relay takes a request body within 200 ms.');
  });

  it('a reader that reads nothing is given up on, and the target’s reply is cancelled', async () => {
    let cancelled = false;
    const upstream: Upstream = async () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            controller.enqueue(new Uint8Array(100));
          },
          cancel() {
            cancelled = true;
          },
        }),
      );
    const response = await handleRelay(request(), { ...config(upstream), maxResponseBytes: 1e9 });
    const reader = response.body!.getReader();
    await reader.read(); // one chunk, then nothing
    await expect.poll(() => cancelled, { timeout: 2000 }).toBe(true);
    await expect(reader.read()).rejects.toThrow(/read nothing/);
  });
});
