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
 *
 * Or, to compare two versions of the Node relay in one process (no browser, no build):
 *   node scripts/relay-ttfb.mjs --compare <commit>[:<path of its relay>] [requests=200]
 * loads the working tree's relay/node.ts and the commit's (default path relay/node.ts; older
 * commits kept it in another folder: `--compare <commit>:<that path>`), serves each
 * on its own loopback port, and times direct, new and old calls interleaved, the order rotating.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startMockApi } from './mock-api.mjs';
import { median } from './stats.mjs';

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

/** Serves a createRelay() on a loopback port (loopback targets allowed). */
async function serveRelay(createRelay) {
  const relay = createRelay({ allowLocal: '1' });
  const server = createServer((req, res) => relay.handle(req, res, () => res.writeHead(404).end()));
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      relay.close();
      server.closeAllConnections();
      return new Promise((done) => server.close(done));
    },
  };
}

/**
 * The working tree's Node relay against the one at `ref` (a commit, optionally `:path`), in this
 * process: direct, new and old calls interleaved (each round in a rotated order), TTFB medians,
 * p95 and what each relay adds to the direct median.
 */
export async function compareRelays(ref, requests = 200) {
  const [commit, path = 'relay/node.ts'] = ref.split(':');
  const root = resolve(import.meta.dirname, '..');
  // The old files, extracted under node_modules so that their imports resolve as in the repository.
  const old = mkdtempSync(join(root, 'node_modules', '.relay-ttfb-'));
  const { createServer: createVite } = await import('vite');
  const vite = await createVite({
    root,
    configFile: false,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  const servers = [];
  const mock = await startMockApi({ port: 0 });
  const agents = {};
  const times = { direct: [], new: [], old: [] };
  try {
    execFileSync('sh', ['-c', `git -C "${root}" archive "${commit}" | tar -x -C "${old}"`]);
    const current = await vite.ssrLoadModule(join(root, 'relay/node.ts'));
    const before = await vite.ssrLoadModule(join(old, path));
    const urls = {
      direct: mock.url,
      new: (servers[0] = await serveRelay(current.createRelay)).url,
      old: (servers[1] = await serveRelay(before.createRelay)).url,
    };
    const call = (name) => {
      agents[name] ??= new Agent({ keepAlive: true });
      return name === 'direct'
        ? ttfb(`${mock.url}/v1/messages`, { 'x-api-key': 'bench-key' }, agents[name])
        : ttfb(
            `${urls[name]}/relay/v1/messages`,
            { 'x-api-key': 'bench-key', origin: urls[name], 'x-s04-relay-target': mock.url },
            agents[name],
          );
    };
    const names = Object.keys(times);
    // Warm-up, not counted: connections, JIT.
    for (let i = 0; i < 20; i++) for (const name of names) await call(name);
    for (let i = 0; i < requests; i++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(i + k) % names.length];
        times[name].push(await call(name));
      }
    }
  } finally {
    for (const agent of Object.values(agents)) agent.destroy();
    await Promise.all(servers.map((server) => server.close()));
    await mock.close();
    await vite.close();
    rmSync(old, { recursive: true, force: true });
  }
  const direct = median(times.direct);
  return {
    requests,
    old: ref,
    directMedianMs: round(direct),
    newMedianMs: round(median(times.new)),
    oldMedianMs: round(median(times.old)),
    newAddedMedianMs: round(median(times.new) - direct),
    oldAddedMedianMs: round(median(times.old) - direct),
    directP95Ms: round(p95(times.direct)),
    newP95Ms: round(p95(times.new)),
    oldP95Ms: round(p95(times.old)),
  };
}

if (
  process.argv[1] &&
  import.meta.url === pathToFileURL(process.argv[1]).href &&
  process.argv[2] === '--compare'
) {
  const [, ref, n] = process.argv.slice(2);
  if (!ref) {
    console.log('Usage: node scripts/relay-ttfb.mjs --compare <commit>[:<path>] [requests=200]');
    process.exit(1);
  }
  console.log(JSON.stringify(await compareRelays(ref, Number(n ?? 200)), null, 2));
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [appURL, n] = process.argv.slice(2);
  if (!appURL) {
    console.log('Usage: node scripts/relay-ttfb.mjs <playground server URL> [requests=50]');
    process.exit(1);
  }
  console.log(JSON.stringify(await relayTtfb(appURL.replace(/\/+$/, ''), Number(n ?? 50)), null, 2));
}
