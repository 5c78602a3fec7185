import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onRequest as cloudflare } from '../functions/relay/[[path]].ts';
import vercel from '../api/relay.ts';
import netlify from '../netlify/functions/relay.ts';
import { RELAY_MAX_RESPONSE_BYTES, ReplyMeter, Refusal } from './checks.ts';
import { ALLOWED_HOSTS_ENV } from './handler.ts';
import { createRelay, type RelayHandler } from './node.ts';

/**
 * A stream that grows past the relay's cap ends with an SSE error event on every host, however
 * the target's bytes are split: here a target sends endless SSE events in pieces that never end
 * where an event ends, as a host's fetch may hand them over.
 */

const SITE = 'https://playground.example';
/** One event of about 100 KB; the target writes them in pieces of 65,543 bytes. */
const EVENT = `event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"${'y'.repeat(100_000)}"}}\n\n`;
const PIECE = 65_543;

let target: Server;
let targetURL = '';
let nodeServer: Server;
let node: RelayHandler;
let nodeBase = '';

beforeAll(async () => {
  target = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const stream = Buffer.from(EVENT.repeat(8));
    let at = 0;
    const more = () => {
      while (!response.destroyed) {
        const piece = Buffer.alloc(PIECE);
        for (let i = 0; i < PIECE; i++, at = (at + 1) % stream.length) piece[i] = stream[at];
        if (!response.write(piece)) return;
      }
    };
    response.on('drain', more);
    response.on('close', () => response.off('drain', more));
    more();
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const address = target.address();
  targetURL = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  vi.stubEnv(ALLOWED_HOSTS_ENV, targetURL);
  node = createRelay({ allowLocal: targetURL.replace('http://', '') });
  nodeServer = createServer((req, res) => node.handle(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => nodeServer.listen(0, '127.0.0.1', resolve));
  const own = nodeServer.address();
  nodeBase = `http://127.0.0.1:${typeof own === 'object' && own ? own.port : 0}`;
});

afterAll(async () => {
  vi.unstubAllEnvs();
  node.close();
  nodeServer.closeAllConnections();
  target.closeAllConnections();
  await new Promise((resolve) => nodeServer.close(resolve));
  await new Promise((resolve) => target.close(resolve));
});

function call(base: string, url: string): Request {
  return new Request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: base,
      'sec-fetch-site': 'same-origin',
      'x-s04-relay-target': targetURL,
    },
    body: '{}',
  });
}

const HOSTS: Array<[string, () => Promise<Response>]> = [
  ['the Node adapter', () => fetch(call(nodeBase, `${nodeBase}/relay/v1/messages`))],
  [
    'the Cloudflare Pages Function',
    () =>
      cloudflare({
        request: call(SITE, `${SITE}/relay/v1/messages`),
        env: { [ALLOWED_HOSTS_ENV]: targetURL },
      }),
  ],
  ['the Vercel function', () => vercel.fetch(call(SITE, `${SITE}/api/relay?path=v1/messages`))],
  ['the Netlify function', () => netlify(call(SITE, `${SITE}/relay/v1/messages`))],
];

describe('a stream cut at the cap', () => {
  it.each(HOSTS)('ends with an SSE error event after whole events on %s', async (_name, send) => {
    const response = await send();
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.length).toBeLessThanOrEqual(RELAY_MAX_RESPONSE_BYTES + 1000);
    const events = text.split('\n\n').slice(0, -1);
    expect(events.length).toBeGreaterThan(100);
    // Every event but the last is a whole delta; the last is the relay's error.
    for (const event of events.slice(0, -1)) expect(event).toBe(EVENT.slice(0, -2));
    expect(events.at(-1)).toMatch(
      /^event: error\ndata: \{"type":"error","error":\{"type":"relay_refused","message":".*over 50 MB/,
    );
  });
});

describe('ReplyMeter', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const text = (passed: Uint8Array | Refusal) => new TextDecoder().decode(passed as Uint8Array);

  it('passes whole SSE events only, wherever the pieces are cut, and the rest at the end', () => {
    const meter = new ReplyMeter(true, 1000);
    expect(text(meter.take(bytes('event: a\ndata: 1\n')))).toBe('');
    expect(text(meter.take(bytes('\nevent: b\nda')))).toBe('event: a\ndata: 1\n\n');
    expect(text(meter.take(bytes('ta: 2\r\n')))).toBe('');
    expect(text(meter.take(bytes('\r\nx')))).toBe('event: b\ndata: 2\r\n\r\n');
    expect(text(meter.rest())).toBe('x');
  });

  it('drops what it holds and ends with an error event at the cap; other replies pass as they come', () => {
    const meter = new ReplyMeter(true, 20);
    expect(text(meter.take(bytes('data: 1\n\ndata: 2')))).toBe('data: 1\n\n');
    const over = meter.take(bytes('xxxxxxxxxxxx'));
    expect(over).toBeInstanceOf(Refusal);
    expect(text(meter.ending(over as Refusal)!)).toBe(
      `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'relay_refused', message: (over as Refusal).message } })}\n\n`,
    );
    const plain = new ReplyMeter(false, 20);
    expect(text(plain.take(bytes('{"a":')))).toBe('{"a":');
    expect(plain.ending(new Refusal(502, 'x'))).toBeNull();
  });
});
