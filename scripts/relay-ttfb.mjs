#!/usr/bin/env node
/**
 * What the relay adds to the time to first byte: streamed Messages API calls to the mock API,
 * straight and through the relay of a running playground server (`vite preview` or `npm start`),
 * interleaved so that both see the same machine load. TTFB = from sending the request to the
 * first byte of the body (the SSE `message_start`). Both sides keep their connections alive, as
 * a browser does.
 *
 * Usage: node scripts/relay-ttfb.mjs http://127.0.0.1:41731 [requests=50]
 * The server must allow the relay to reach loopback (`S04_RELAY_ALLOW_LOCAL=1 npx vite preview ...`,
 * docs/relay.md); npm run bench runs it against the server it starts, which does.
 */
import { Agent, request } from 'node:http';
import { pathToFileURL } from 'node:url';
import { startMockApi } from './mock-api.mjs';

const BODY = JSON.stringify({
  model: 'mock-s04',
  max_tokens: 8000,
  stream: true,
  system: 'You are a coding agent at /w. Use the task tool to delegate exploration or subtasks.',
  messages: [{ role: 'user', content: 'Use a subtask to find what testing framework this project uses' }],
});

/** ms from the request to the first body byte; the rest of the reply is read and dropped. */
function ttfb(url, headers, agent) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = request(url, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', ...headers },
    });
    req.on('response', (res) => {
      if (res.statusCode !== 200) reject(new Error(`${url}: HTTP ${res.statusCode}`));
      let first;
      res.on('data', () => (first ??= performance.now() - start));
      res.on('end', () => resolve(first));
    });
    req.on('error', reject);
    req.end(BODY);
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)];
const round = (n) => Math.round(n * 100) / 100;

/** Direct vs relayed TTFB (medians and p95, in ms) against a fresh mock API on loopback. */
export async function relayTtfb(appURL, requests = 50) {
  const mock = await startMockApi({ port: 0 });
  const agents = { direct: new Agent({ keepAlive: true }), relayed: new Agent({ keepAlive: true }) };
  const direct = [];
  const relayed = [];
  try {
    const call = {
      direct: () => ttfb(`${mock.url}/v1/messages`, { 'x-api-key': 'bench-key' }, agents.direct),
      relayed: () =>
        ttfb(
          `${appURL}/relay/v1/messages`,
          { 'x-api-key': 'bench-key', origin: appURL, 'x-s04-relay-target': mock.url },
          agents.relayed,
        ),
    };
    // Warm-up, not counted: connections, JIT.
    for (let i = 0; i < 5; i++) {
      await call.direct();
      await call.relayed();
    }
    for (let i = 0; i < requests; i++) {
      // Alternate which goes first, so neither always follows the other's work.
      if (i % 2) {
        direct.push(await call.direct());
        relayed.push(await call.relayed());
      } else {
        relayed.push(await call.relayed());
        direct.push(await call.direct());
      }
    }
  } finally {
    agents.direct.destroy();
    agents.relayed.destroy();
    await mock.close();
  }
  return {
    requests,
    directMedianMs: round(median(direct)),
    relayedMedianMs: round(median(relayed)),
    addedMedianMs: round(median(relayed) - median(direct)),
    directP95Ms: round(p95(direct)),
    relayedP95Ms: round(p95(relayed)),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [appURL, n] = process.argv.slice(2);
  if (!appURL) {
    console.log('Usage: node scripts/relay-ttfb.mjs <playground server URL> [requests=50]');
    process.exit(1);
  }
  console.log(JSON.stringify(await relayTtfb(appURL.replace(/\/+$/, ''), Number(n ?? 50)), null, 2));
}
