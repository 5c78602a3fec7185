import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockApi, type MockApi } from '../scripts/mock-api.mjs';

/**
 * The Cloudflare Pages Function under workerd, Cloudflare's own runtime (the `workerd` package):
 * functions/relay/[[path]].ts bundled as Pages bundles it, behind a worker that routes `/relay`
 * and below to it as Pages does, and one relayed call to the mock API on 127.0.0.1, which only
 * this test allows (S04_RELAY_ALLOWED_HOSTS as a binding, and workerd's network opened to local
 * addresses).
 */

const ROOT = resolve(import.meta.dirname, '..');
const WORKERD = join(ROOT, 'node_modules', '.bin', 'workerd');

/**
 * The compatibility date the relay is run with: the one its deployments are made with, unless the
 * installed workerd is older (a runtime refuses a date after its own release; `workerd --version`
 * prints that date).
 */
const COMPATIBILITY_DATE = '2026-11-01';

/**
 * Why workerd cannot run here (null: it can; the package ships a native binary for some platforms
 * only), and its release date as `workerd --version` prints it.
 */
function probeWorkerd(): { problem: string | null; date: string | null } {
  const probe = spawnSync(WORKERD, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  if (probe.error) return { problem: `workerd did not start: ${probe.error.message}`, date: null };
  if (probe.status !== 0) {
    return { problem: `workerd --version exited ${probe.status}: ${probe.stderr.trim()}`, date: null };
  }
  return { problem: null, date: /\d{4}-\d{2}-\d{2}/.exec(probe.stdout)?.[0] ?? null };
}

const { problem, date: runtimeDate } = probeWorkerd();
/** The date used: the relay's, or the installed runtime's own where that is older. */
const compatibilityDate =
  runtimeDate !== null && runtimeDate < COMPATIBILITY_DATE ? runtimeDate : COMPATIBILITY_DATE;
if (problem) console.log(`Skipped: the Cloudflare relay under workerd: ${problem}`);

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

describe.skipIf(problem !== null)('the Cloudflare Pages Function under workerd', () => {
  let mock: MockApi;
  let dir: string;
  let workerd: ChildProcess;
  let base: string;
  let log = '';

  beforeAll(async () => {
    mock = await startMockApi({ port: 0 });
    dir = mkdtempSync(join(tmpdir(), 's04-workerd-'));
    const entry = join(dir, 'pages.ts');
    // What Pages does with functions/: `/relay` and below go to the function, the rest to assets.
    writeFileSync(
      entry,
      `import { onRequest } from ${JSON.stringify(join(ROOT, 'functions', 'relay', '[[path]].ts'))};\n` +
        `export default {\n` +
        `  fetch(request, env) {\n` +
        `    const { pathname } = new URL(request.url);\n` +
        `    if (pathname === '/relay' || pathname.startsWith('/relay/')) return onRequest({ request, env });\n` +
        `    return new Response('a static file', { status: 404 });\n` +
        `  },\n` +
        `};\n`,
    );
    const bundle = await rolldown({ input: entry, platform: 'neutral', logLevel: 'silent' });
    await bundle.write({ file: join(dir, 'worker.js'), format: 'esm' });
    await bundle.close();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    writeFileSync(
      join(dir, 'config.capnp'),
      `using Workerd = import "/workerd/workerd.capnp";\n` +
        `const config :Workerd.Config = (\n` +
        `  services = [\n` +
        `    (name = "main", worker = .relay),\n` +
        // The default outbound network reaches public addresses only; the mock is on loopback.
        `    (name = "internet", network = (allow = ["public", "local"])),\n` +
        `  ],\n` +
        `  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],\n` +
        `);\n` +
        `const relay :Workerd.Worker = (\n` +
        `  modules = [(name = "worker.js", esModule = embed "worker.js")],\n` +
        `  compatibilityDate = "${compatibilityDate}",\n` +
        `  bindings = [(name = "S04_RELAY_ALLOWED_HOSTS", text = "${mock.url}")],\n` +
        `);\n`,
    );
    workerd = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'pipe', 'pipe'] });
    workerd.stdout?.on('data', (chunk) => (log += chunk));
    workerd.stderr?.on('data', (chunk) => (log += chunk));
    // Ready when the health check answers (workerd prints nothing when it listens).
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (workerd.exitCode !== null) throw new Error(`workerd exited ${workerd.exitCode}: ${log}`);
      const status = await fetch(`${base}/relay/health`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) break;
      if (Date.now() > deadline) throw new Error(`workerd did not answer within 20 s: ${log}`);
      await new Promise((resume) => setTimeout(resume, 100));
    }
  }, 60_000);

  afterAll(async () => {
    workerd?.kill();
    await mock?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const headers = (extra: Record<string, string> = {}) => ({
    'content-type': 'application/json',
    authorization: 'Bearer sk-workerd-key',
    origin: base,
    'sec-fetch-site': 'same-origin',
    ...extra,
  });
  const body = JSON.stringify({
    model: 'mock-s04',
    max_tokens: 8000,
    stream: true,
    system: 'You are a coding agent at /w. Use the task tool to delegate exploration or subtasks.',
    messages: [{ role: 'user', content: 'hello' }],
  });

  it('answers the health check (the Settings checkbox shows)', async () => {
    const response = await fetch(`${base}/relay/health`);
    expect(await response.json()).toMatchObject({ relay: 's04' });
  });

  it('relays a streamed call to the allowed loopback mock, with only the allowed reply headers', async () => {
    mock.clearRequests();
    const response = await fetch(`${base}/relay/v1/messages`, {
      method: 'POST',
      headers: headers({ 'x-api-key': 'mock-hostile-headers', 'x-s04-relay-target': `${mock.url}/no-cors` }),
      body,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('clear-site-data')).toBeNull();
    const text = await response.text();
    expect(text).toMatch(/^event: message_start/);
    expect(text).toContain('event: message_stop');
    expect(mock.requests()).toMatchObject([{ method: 'POST', path: '/v1/messages', noCors: true }]);
  });

  it('refuses another origin and a host not on its list, forwarding nothing', async () => {
    mock.clearRequests();
    const other = await fetch(`${base}/relay/v1/messages`, {
      method: 'POST',
      headers: headers({ origin: 'https://evil.example', 'x-s04-relay-target': mock.url }),
      body,
    });
    expect(other.status).toBe(403);
    const unlisted = await fetch(`${base}/relay/v1/messages`, {
      method: 'POST',
      headers: headers({ 'x-s04-relay-target': 'http://127.0.0.2:9' }),
      body,
    });
    expect(unlisted.status).toBe(403);
    expect(await unlisted.text()).toContain('only to known provider hosts');
    expect(mock.requests()).toEqual([]);
  });
});
