import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockApi, type MockApi } from '../scripts/mock-api.mjs';
import { createRelay, type RelayHandler } from './relay.ts';

/** The relay's handler on an ephemeral port, as Vite mounts it; other paths get Vite's 404. */
let server: Server;
let relay: RelayHandler;
let base: string;
let mock: MockApi;

beforeAll(async () => {
  mock = await startMockApi({ port: 0 });
  relay = createRelay();
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

describe('the relay (build/relay.ts)', () => {
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

  it('answers the target being unreachable with 502, naming the host but not the key', async () => {
    const response = await call('/relay/v1/messages', { target: 'http://127.0.0.1:9' });
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(text).toContain('relay_upstream_error');
    expect(text).toContain('http://127.0.0.1:9');
    expect(text).not.toContain(KEY);
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
        /only to https/,
      );
    });

    it('an http: target that is not loopback: 400', async () => {
      await expectRefused(
        await call('/relay/v1/messages', { target: 'http://192.168.1.10:8080' }),
        400,
        /plain http only to this machine/,
      );
      await expectRefused(
        await call('/relay/v1/messages', { target: 'http://example.com/anthropic' }),
        400,
        /plain http only to this machine/,
      );
    });

    it('other schemes, a malformed target, credentials in it, or none at all: 400', async () => {
      await expectRefused(
        await call('/relay/v1/messages', { target: 'ftp://127.0.0.1/' }),
        400,
        /only to https/,
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
