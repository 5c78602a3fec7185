#!/usr/bin/env node
/**
 * A mock of Anthropic's Messages API on loopback, for tests and for trying the playground with
 * a "real" provider without a key or a network. Node's http only, no dependencies.
 *
 *   POST    /v1/messages   JSON, or SSE with `stream: true`: message_start, content_block_start,
 *                          content_block_delta (text, input_json in several parts, thinking,
 *                          signature), content_block_stop, message_delta, message_stop, pings between
 *   OPTIONS *              CORS preflight: echoes the Origin and the requested headers (the SDK's
 *                          browser build sends authorization, anthropic-*, x-stainless-*)
 *   GET     /_requests     every request received (preflights too), API keys redacted, with the reply sent
 *   DELETE  /_requests     forgets them
 *   GET     /_health       ok
 *   /no-cors/...            the same API as an endpoint that does not allow browsers: no CORS
 *                          headers, preflights refused (base URL `<mock>/no-cors`; for the relay)
 *
 * What it answers is a scenario, chosen by the API key if it names one, else by the model name,
 * else the server's default (`--scenario`, default mock-s04). The key `bad-key` always gets 401.
 *
 *   mock-s04          a small s04 run decided from the request: the parent delegates with `task`,
 *                     the subagent runs `ls`, reads a file it saw, summarises; the parent answers
 *                     (a parent with no `task` tool, as in context mode none, takes those steps)
 *   mock-trace        the 8 responses of public/traces/s04.json (the reference run), thinking
 *                     blocks restored, routed to parent or subagent by the system prompt
 *   mock-thinking     mock-s04 with unasked thinking + redacted_thinking blocks first (as some
 *                     compatible endpoints do); their signatures are checked when sent back
 *   mock-401 mock-429 mock-500       those errors, always (429 and 500 are retried by the SDK)
 *   mock-no-task      mock-s04 for a parent without `task` (context mode none); a request that
 *                     offers `task` gets 400 (a Compare whose isolated run fails)
 *   mock-529-then-ok  529 overloaded on the first attempt of each call, then mock-s04
 *   mock-slow         mock-s04 streamed at ~100 ms per event (for Stop)
 *   mock-hang         sends the response headers, then nothing
 *   mock-parallel     the parent calls `task` twice in one response (two subagents at once)
 *   mock-fanout       every agent that has `task` calls it four times in one response, then sums
 *                     up; one without answers after ~30 ms (with delegation depth 3: 340 subagents)
 *   mock-drop         streams four text deltas of each reply, then destroys the socket
 *                     (a connection lost mid-reply)
 *   mock-tool-use-no-block   text only, but `stop_reason: "tool_use"` (a model that says it
 *                     calls a tool and sends none)
 *   mock-unknown-block       an answer holding a content block of a type no client knows
 *   mock-spoof        mock-s04 streamed at ~60 ms per event, whose first parent text is HTML that
 *                     tries to restyle, cover and impersonate the app (a <style>, a full-page fixed
 *                     div, a role=status "Finished", a "Run" button) and loads a pixel from this
 *                     server (GET /pixel.png, recorded like every request)
 *   mock-shell        the parent runs the user's prompt as one bash command, then ends its turn
 *                     (drives the sandbox from a test; the output is in the next request)
 *   mock-runaway-bash     the parent runs a command that never ends when the prompt says "runaway"
 *   mock-runaway-python   (`while true; do :; done`, `python3 -c "while True: pass"`,
 *   mock-runaway-node     `node -e 'while (true) {}'`), else `echo ready`; then it quotes the result
 *   mock-refusal      every reply: a little text, then `stop_reason: "refusal"` (with `stop_details`)
 *   mock-max-tokens   every reply: text cut at `stop_reason: "max_tokens"`
 *   mock-max-tokens-tool  every reply: text, then a `task` tool_use whose input JSON stops in the
 *                     middle (as a reply cut at max_tokens sends it), `stop_reason: "max_tokens"`
 *   mock-context-window   every reply: text, then `stop_reason: "model_context_window_exceeded"`
 *   mock-overloaded-mid-stream  streams four text deltas, then `event: error` (overloaded_error)
 *                     and ends the response, as the API does when it fails in the middle of a reply
 *   mock-overloaded-subagent    mock-s04 for the parent; a subagent's reply breaks off as above
 *   mock-hostile-headers  mock-s04 whose replies also carry headers a page must never get from an
 *                     endpoint (Clear-Site-Data "storage", Set-Cookie, Refresh, Link, CSP): the relay drops them
 *
 * Like the real API it rejects malformed conversations with 400: a tool_use without its
 * tool_result, a thinking block whose signature was changed, fields the API does not accept
 * (e.g. an SDK-internal `parsed_output`) in content blocks sent back, a message with empty content.
 *
 * Usage: npm run mock-api -- [--port 41800] [--scenario mock-s04] [--retry-after-ms 20] [--no-cors] [--quiet]
 * (`--no-cors`: every path behaves as under /no-cors/.) It listens on 127.0.0.1 only. Tests start it in-process with `startMockApi({ port: 0 })`.
 */
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { ApiError, checkRequest, invalid } from './mock-api/checks.mjs';
import {
  BAD_ENDINGS,
  DROPPED_TEXT,
  OVERLOADED_TEXT,
  TOOL_USE_WITHOUT_BLOCK,
  WITH_UNKNOWN_BLOCK,
  delegates,
  fanoutReply,
  isSubagent,
  parallelReply,
  runawayReply,
  s04Reply,
  shellReply,
  spoofReply,
  traceReply,
  withThinking,
} from './mock-api/replies.mjs';
import { fullMessage, sseEvents } from './mock-api/sse.mjs';

const HOST = '127.0.0.1';
const MAX_BODY = 32 * 1024 * 1024;
const MAX_RECORDS = 1000;

export const SCENARIOS = [
  'mock-s04',
  'mock-trace',
  'mock-thinking',
  'mock-401',
  'mock-429',
  'mock-529-then-ok',
  'mock-500',
  'mock-no-task',
  'mock-slow',
  'mock-hang',
  'mock-parallel',
  'mock-fanout',
  'mock-drop',
  'mock-tool-use-no-block',
  'mock-unknown-block',
  'mock-spoof',
  'mock-shell',
  'mock-runaway-bash',
  'mock-runaway-python',
  'mock-runaway-node',
  'mock-hostile-headers',
  'mock-refusal',
  'mock-max-tokens',
  'mock-max-tokens-tool',
  'mock-context-window',
  'mock-overloaded-mid-stream',
  'mock-overloaded-subagent',
];

/** The command each mock-runaway-* scenario never sees the end of (until Stop or the timeout). */
const RUNAWAY_COMMANDS = {
  'mock-runaway-bash': 'while true; do :; done',
  'mock-runaway-python': 'python3 -c "while True: pass"',
  'mock-runaway-node': "node -e 'while (true) {}'",
};

/** What mock-hostile-headers adds to each reply: each would act on the page's origin if passed on. */
const HOSTILE_HEADERS = {
  'clear-site-data': '"storage"',
  'set-cookie': 's04-mock=1; Path=/',
  refresh: '0; url=https://example.invalid/',
  link: '</evil.css>; rel=stylesheet',
  'content-security-policy': "default-src 'none'",
  'x-hostile': 'yes',
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// The server.

function apiKeyOf(headers) {
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '');
  return headers['x-api-key'] || bearer?.[1] || '';
}

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'cookie']);

function redacted(headers) {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, SECRET_HEADERS.has(k) ? '[redacted]' : v]),
  );
}

/** The mock as an endpoint without CORS (as DashScope's is): /no-cors/..., or every path with `--no-cors`. */
const NO_CORS_PREFIX = '/no-cors';

function corsHeaders(req) {
  if (req.noCors) return {};
  return {
    'access-control-allow-origin': req.headers.origin ?? '*',
    'access-control-expose-headers': 'request-id, retry-after, retry-after-ms, x-should-retry',
    'cross-origin-resource-policy': 'cross-origin',
    vary: 'Origin',
  };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(
          new ApiError(413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.'),
        );
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Starts the mock on 127.0.0.1. `port: 0` picks a free port.
 * Resolves with its base URL (give it to the SDK as `baseURL`), the records and `close()`.
 */
export function startMockApi({
  port = 41800,
  scenario = 'mock-s04',
  retryAfterMs = 20,
  cors = true,
  log = () => {},
} = {}) {
  if (!SCENARIOS.includes(scenario))
    throw new Error(`Unknown scenario ${scenario}; one of ${SCENARIOS.join(', ')}`);
  const records = [];
  const overloadedOnce = new Set();
  let count = 0;
  let toolUses = 0;
  const ids = { next: () => `toolu_mock_${String(++toolUses).padStart(4, '0')}` };
  const retryHeaders = { 'retry-after-ms': String(retryAfterMs) };

  function chooseScenario(key, model) {
    if (key === 'bad-key') return 'mock-401';
    if (SCENARIOS.includes(key)) return key;
    if (SCENARIOS.includes(model)) return model;
    return scenario;
  }

  /** What a scenario answers: an error to throw, or a reply with how to send it. */
  function play(name, body, raw, retryCount, origin) {
    // Errors first, as the real API checks the key and its limits before the request.
    switch (name) {
      case 'mock-401':
        throw new ApiError(401, 'authentication_error', 'invalid x-api-key');
      case 'mock-429':
        throw new ApiError(
          429,
          'rate_limit_error',
          'Number of request tokens has exceeded your per-minute rate limit (mock).',
          {
            'retry-after': '0',
            ...retryHeaders,
          },
        );
      case 'mock-500':
        throw new ApiError(500, 'api_error', 'Internal server error', retryHeaders);
      case 'mock-no-task':
        if (delegates(body))
          throw new ApiError(400, 'invalid_request_error', 'tools.0: the tool `task` is not accepted (mock)');
        break;
      case 'mock-529-then-ok': {
        // The SDK numbers its attempts; other clients get a 529 once per distinct request body.
        const first = retryCount === undefined ? !overloadedOnce.has(raw) : retryCount === 0;
        if (first) {
          if (retryCount === undefined) overloadedOnce.add(raw);
          throw new ApiError(529, 'overloaded_error', 'Overloaded', retryHeaders);
        }
      }
    }
    checkRequest(body);
    switch (name) {
      case 'mock-trace':
        return { reply: traceReply(body) };
      case 'mock-thinking':
        return { reply: withThinking(s04Reply(body, ids), body) };
      case 'mock-slow':
        return { reply: s04Reply(body, ids), delayMs: 100 };
      case 'mock-parallel':
        // Subagents stream slowly enough that both are at work at the same time.
        return { reply: parallelReply(body, ids), delayMs: isSubagent(body) ? 40 : 0 };
      case 'mock-fanout':
        return { reply: fanoutReply(body, ids), delayMs: isSubagent(body) ? 30 : 0 };
      case 'mock-hang':
        return { hang: true };
      case 'mock-drop':
        // Four text deltas (16 characters each), each on the wire before the socket goes.
        return {
          reply: { stop_reason: 'end_turn', content: [{ type: 'text', text: DROPPED_TEXT }] },
          dropAfterDeltas: 4,
          delayMs: 30,
        };
      case 'mock-refusal':
      case 'mock-max-tokens':
      case 'mock-max-tokens-tool':
      case 'mock-context-window': {
        const reply = structuredClone(BAD_ENDINGS[name]);
        const partialJson = {};
        for (const [index, block] of reply.content.entries())
          if (block.partial_json !== undefined) partialJson[index] = block.partial_json;
        return { reply, partialJson, delayMs: 20 };
      }
      case 'mock-overloaded-subagent':
      case 'mock-overloaded-mid-stream':
        if (name === 'mock-overloaded-subagent' && !isSubagent(body)) return { reply: s04Reply(body, ids) };
        // Four text deltas (16 characters each) on the wire, then the API's error event.
        return {
          reply: { stop_reason: 'end_turn', content: [{ type: 'text', text: OVERLOADED_TEXT }] },
          errorAfterDeltas: 4,
          streamError: { type: 'overloaded_error', message: 'Overloaded' },
          delayMs: 20,
        };
      case 'mock-tool-use-no-block':
        return { reply: structuredClone(TOOL_USE_WITHOUT_BLOCK) };
      case 'mock-unknown-block':
        return { reply: structuredClone(WITH_UNKNOWN_BLOCK) };
      case 'mock-spoof':
        return { reply: spoofReply(body, ids, origin), delayMs: 60 };
      case 'mock-shell':
        return { reply: shellReply(body, ids) };
      case 'mock-hostile-headers':
        return { reply: s04Reply(body, ids), headers: HOSTILE_HEADERS };
      case 'mock-runaway-bash':
      case 'mock-runaway-python':
      case 'mock-runaway-node':
        return { reply: runawayReply(body, ids, RUNAWAY_COMMANDS[name]) };
      default:
        return { reply: s04Reply(body, ids) };
    }
  }

  async function messages(req, res, record, requestId) {
    const raw = await readBody(req);
    let body;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      record.body = raw;
      throw invalid('The request body is not valid JSON');
    }
    record.body = body;
    const key = apiKeyOf(req.headers);
    if (!key) throw new ApiError(401, 'authentication_error', 'x-api-key header is required');
    const name = chooseScenario(key, body?.model);
    record.scenario = name;
    const retryHeader = req.headers['x-stainless-retry-count'];
    const outcome = play(
      name,
      body,
      raw,
      retryHeader === undefined ? undefined : Number(retryHeader),
      `http://${req.headers.host ?? HOST}`,
    );

    const base = { ...corsHeaders(req), 'request-id': requestId, ...outcome.headers };
    if (outcome.hang) {
      record.response = { status: 200, body: null };
      res.writeHead(200, {
        ...base,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
      });
      res.flushHeaders();
      return; // the socket stays open until the client gives up or the server closes
    }
    const message = fullMessage(outcome.reply, body, count);
    record.response = { status: 200, body: message };
    if (!body.stream) {
      res.writeHead(200, { ...base, 'content-type': 'application/json' });
      res.end(JSON.stringify(message));
      return;
    }
    res.writeHead(200, {
      ...base,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
    });
    res.flushHeaders();
    let closed = false;
    res.on('close', () => (closed = true));
    let deltas = 0;
    for (const [event, data] of sseEvents(message, outcome.partialJson)) {
      if (outcome.delayMs) await sleep(outcome.delayMs);
      if (closed) return;
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      if (event === 'content_block_delta' && ++deltas === outcome.dropAfterDeltas) {
        // Let the deltas reach the client, then cut the connection without ending the response.
        await sleep(50);
        record.response = { status: 200, body: null, dropped: true };
        res.socket?.destroy();
        return;
      }
      if (event === 'content_block_delta' && deltas === outcome.errorAfterDeltas) {
        // The API's way of failing once the reply has begun: an error event, then the end.
        const error = { type: 'error', error: outcome.streamError };
        res.write(`event: error\ndata: ${JSON.stringify(error)}\n\n`);
        record.response = { status: 200, body: null, streamError: outcome.streamError.type };
        res.end();
        return;
      }
    }
    res.end();
  }

  function remember(record) {
    records.push(record);
    if (records.length > MAX_RECORDS) records.shift();
    return record;
  }

  async function handle(req, res) {
    let path = new URL(req.url ?? '/', 'http://mock').pathname;
    req.noCors = !cors;
    if (path.startsWith(`${NO_CORS_PREFIX}/`)) {
      req.noCors = true;
      path = path.slice(NO_CORS_PREFIX.length);
    }
    if (req.method === 'OPTIONS' && req.noCors) {
      // What a server that knows nothing of CORS answers: a browser then refuses the real request.
      res.writeHead(405, { 'content-type': 'text/plain' });
      res.end('Method Not Allowed');
      remember({
        method: 'OPTIONS',
        path,
        headers: redacted(req.headers),
        body: null,
        response: { status: 405, body: null },
      });
      log(`OPTIONS ${path} (preflight refused: no CORS)`);
      return;
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...corsHeaders(req),
        'access-control-allow-methods': 'POST, GET, DELETE, OPTIONS',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '600',
        ...(req.headers['access-control-request-private-network'] === 'true'
          ? { 'access-control-allow-private-network': 'true' }
          : {}),
      });
      res.end();
      remember({
        method: 'OPTIONS',
        path,
        headers: redacted(req.headers),
        body: null,
        response: { status: 204, body: null },
      });
      log(`OPTIONS ${path} (preflight)`);
      return;
    }
    if (path === '/_health') {
      res.writeHead(200, { ...corsHeaders(req), 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    if (path === '/_requests') {
      if (req.method === 'DELETE') records.length = 0;
      res.writeHead(200, { ...corsHeaders(req), 'content-type': 'application/json' });
      res.end(req.method === 'DELETE' ? '[]' : JSON.stringify(records));
      return;
    }

    const requestId = `req_mock_${String(++count).padStart(4, '0')}`;
    const record = remember({
      method: req.method,
      path,
      headers: redacted(req.headers),
      body: null,
      ...(req.noCors ? { noCors: true } : {}),
    });
    try {
      if (path !== '/v1/messages')
        throw new ApiError(404, 'not_found_error', `Not found: ${req.method} ${path}`);
      if (req.method !== 'POST')
        throw new ApiError(405, 'invalid_request_error', `Method ${req.method} not allowed`);
      await messages(req, res, record, requestId);
    } catch (error) {
      const failure =
        error instanceof ApiError ? error : new ApiError(500, 'api_error', String(error?.message ?? error));
      record.response = { status: failure.status, body: failure.body(requestId) };
      if (!res.headersSent) {
        res.writeHead(failure.status, {
          ...corsHeaders(req),
          ...failure.headers,
          'request-id': requestId,
          'content-type': 'application/json',
        });
      }
      res.end(JSON.stringify(failure.body(requestId)));
    }
    log(
      `${req.method} ${path} ${record.scenario ?? ''} -> ${record.response?.status ?? '?'}${record.body?.stream ? ' (stream)' : ''}`,
    );
  }

  const server = createServer((req, res) => void handle(req, res));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      const actual = server.address().port;
      resolve({
        url: `http://${HOST}:${actual}`,
        port: actual,
        /** What was received so far (the same as GET /_requests). */
        requests: () => structuredClone(records),
        clearRequests: () => void (records.length = 0),
        /** How many connections are open (a client that goes away closes its own). */
        connections: () =>
          new Promise((done, fail) => server.getConnections((error, n) => (error ? fail(error) : done(n)))),
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function argValue(args, name) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    console.log(
      'Usage: node scripts/mock-api.mjs [--port 41800] [--scenario NAME] [--retry-after-ms 20] [--no-cors] [--quiet]',
    );
    console.log(`Scenarios (by API key or model name): ${SCENARIOS.join(', ')}; the key bad-key gets 401.`);
    process.exit(0);
  }
  const quiet = args.includes('--quiet');
  const mock = await startMockApi({
    port: Number(argValue(args, '--port') ?? 41800),
    scenario: argValue(args, '--scenario') ?? 'mock-s04',
    retryAfterMs: Number(argValue(args, '--retry-after-ms') ?? 20),
    cors: !args.includes('--no-cors'),
    log: quiet ? () => {} : (line) => console.log(line),
  });
  console.log(`Mock Messages API on ${mock.url} (base URL for the SDK; POST ${mock.url}/v1/messages)`);
  console.log(`Scenarios, chosen by API key or model name: ${SCENARIOS.join(', ')}`);
  const stop = () => void mock.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
