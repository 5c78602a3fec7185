import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockApi, type MockApi } from '../../scripts/mock-api.mjs';
import { parentLoop, runSubagent, type LoopEvent, type RunTask } from '../core/loop';
import type { Message } from '../core/messages';
import { ModelCallError, type ModelRequest, type StreamEvent } from '../core/model';
import { CHILD_TOOLS, PARENT_TOOLS, parentSystem, subagentSystem, type ToolHandler } from '../core/tools';
import { createRelay } from '../../relay/node';
import { checkRecord } from '../run/check';
import { newRecord, REFERENCE_LIMITS, type RunEvent, type RunRecord, type RunStatus } from '../run/record';
import { reduceAll } from '../run/reduce-range';
import { AnthropicModel, type AnthropicOptions } from './anthropic';
import { loopOf, traceToolOutputs, traceWorkdir, type Trace } from './replay';

const trace: Trace = JSON.parse(
  readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
);
const KEY = 'sk-ant-test-0123456789abcdef';
const WORKDIR = '/home/user/project';

let mock: MockApi;
beforeAll(async () => {
  mock = await startMockApi({ port: 0, retryAfterMs: 5 });
});
afterAll(() => mock.close());
beforeEach(() => mock.clearRequests());

function model(
  name = 'claude-test',
  options: AnthropicOptions & {
    apiKey?: string;
    baseURL?: string;
    relayURL?: string;
    offerRelay?: boolean;
    cache?: boolean;
  } = {},
) {
  return new AnthropicModel({
    provider: 'anthropic',
    apiKey: options.apiKey ?? KEY,
    baseURL: options.baseURL ?? `${mock.url}/`,
    model: name,
    ...options,
  });
}

function parentRequest(
  name = 'claude-test',
  prompt = 'Use a subtask to find what testing framework this project uses',
) {
  return {
    model: name,
    system: parentSystem(WORKDIR),
    tools: PARENT_TOOLS,
    messages: [{ role: 'user', content: prompt }],
    max_tokens: 8000,
  } satisfies ModelRequest;
}

function posts() {
  return mock.requests().filter((r) => r.method === 'POST');
}

/** Resolves with the error a promise rejected with (fails if it resolved). */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('AnthropicModel against the mock Messages API', () => {
  it('streams text and tool_use deltas and resolves with the message exactly as sent', async () => {
    const events: StreamEvent[] = [];
    const request = parentRequest();
    const response = await model().createMessage(request, { onStream: (e) => events.push(e) });

    const [record] = posts();
    const sent = record.response!.body as { id: string; content: unknown[]; usage: Record<string, number> };
    expect(record.path).toBe('/v1/messages'); // the trailing slash of the base URL was dropped
    expect(response.content).toEqual(sent.content);
    expect(response.stop_reason).toBe('tool_use');
    expect(response.id).toBe(sent.id);

    expect(events.filter((e) => e.type === 'block_start').map((e) => e.block.type)).toEqual([
      'text',
      'tool_use',
    ]);
    const text = events.flatMap((e) => (e.type === 'text_delta' && e.index === 0 ? [e.text] : [])).join('');
    expect(text).toBe((response.content[0] as { text: string }).text);
    const json = events.flatMap((e) => (e.type === 'input_json_delta' ? [e.partial_json] : []));
    expect(json.length).toBeGreaterThan(2); // several partial chunks
    expect(JSON.parse(json.join(''))).toEqual((response.content[1] as { input: unknown }).input);
    expect(events.filter((e) => e.type === 'block_stop').map((e) => e.index)).toEqual([0, 1]);
    expect(events.some((e) => e.type === 'retrying')).toBe(false);
  });

  it('sends what the loop asked for, with the browser and version headers', async () => {
    const request = parentRequest();
    await model().createMessage(request);
    const [record] = posts();
    expect(record.body).toEqual({ ...request, stream: true });
    expect(record.headers).toMatchObject({
      authorization: '[redacted]',
      'anthropic-dangerous-direct-browser-access': 'true',
      'x-stainless-retry-count': '0',
      'content-type': 'application/json',
    });
    expect(record.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(JSON.stringify(mock.requests())).not.toContain(KEY);
  });

  it('records usage with the cache counters when the API sends them', async () => {
    const first = await model().createMessage(parentRequest());
    expect(first.usage).toEqual({
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    const sent = posts()[0].response!.body as { usage: unknown };
    expect(first.usage).toEqual(sent.usage);
  });

  it('keeps thinking (with its signature) and redacted_thinking blocks, and they go back valid', async () => {
    const events: StreamEvent[] = [];
    const m = model('mock-thinking');
    const request = parentRequest('mock-thinking');
    const response = await m.createMessage(request, { onStream: (e) => events.push(e) });
    expect(response.content.map((b) => b.type)).toEqual([
      'thinking',
      'redacted_thinking',
      'text',
      'tool_use',
    ]);
    expect(response.content[0]).toMatchObject({
      type: 'thinking',
      signature: expect.stringMatching(/^mocksig_/),
    });
    expect(Object.keys(response.content[0]).sort()).toEqual(['signature', 'thinking', 'type']);
    expect(response.content[1]).toEqual({
      type: 'redacted_thinking',
      data: expect.stringMatching(/^mockredacted_/),
    });
    expect(response.content).toEqual((posts()[0].response!.body as { content: unknown }).content);
    const thought = events.flatMap((e) => (e.type === 'thinking_delta' ? [e.thinking] : [])).join('');
    expect(thought).toBe((response.content[0] as { thinking: string }).thinking);

    // The mock refuses changed signatures and unknown fields, as the API does: sending the
    // response back must pass.
    const toolUse = response.content.find((b) => b.type === 'tool_use')!;
    const next: ModelRequest = {
      ...request,
      messages: [
        ...request.messages,
        { role: 'assistant', content: response.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'done' }] },
      ],
    };
    const answer = await m.createMessage(next);
    expect(answer.stop_reason).toBe('end_turn');
    expect(posts()[1].body).toMatchObject({ messages: next.messages });
  });

  it('sends extended thinking when configured', async () => {
    await model('claude-test', { thinking: { budgetTokens: 2000 } }).createMessage(parentRequest());
    expect(posts()[0].body).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 2000 },
      max_tokens: 8000,
    });
  });

  it('says exactly which body it sends (a run records it for the Model call dialog), without the key', async () => {
    const m = model('claude-test', { thinking: { budgetTokens: 2000 } });
    const request = parentRequest();
    await m.createMessage(request);
    const [sent] = posts();
    expect(m.body(request)).toEqual(sent.body);
    expect(JSON.stringify(Object.keys(m.body(request)))).toBe(
      JSON.stringify(Object.keys(sent.body as object)),
    );
    expect(JSON.stringify(m.body(request))).not.toContain(KEY);
  });

  it('sends the reference body without prompt caching, and cache breakpoints with it', async () => {
    const request = parentRequest();
    await model('claude-test').createMessage(request);
    await model('claude-test', { cache: true }).createMessage(request);
    const [plain, cached] = posts();
    expect(JSON.stringify(plain.body)).not.toContain('cache_control');
    expect((plain.body as { system: unknown }).system).toBe(request.system);
    const body = cached.body as {
      system: Array<{ text: string; cache_control?: unknown }>;
      tools: Array<{ cache_control?: unknown }>;
      messages: Array<{ content: Array<{ cache_control?: unknown }> }>;
    };
    expect(body.system).toEqual([
      { type: 'text', text: request.system, cache_control: { type: 'ephemeral' } },
    ]);
    expect(body.tools.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.messages.at(-1)!.content.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    // The request the loop keeps is not marked.
    expect(JSON.stringify(request)).not.toContain('cache_control');
  });

  it('reports a 401 as an authentication failure, without the key', async () => {
    const error = await failure(model('mock-401').createMessage(parentRequest('mock-401')));
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).status).toBe(401);
    expect(error.message).toMatch(/^Authentication failed \(401\): invalid x-api-key\. Check the API key\.$/);
    expect(error.message).not.toContain(KEY);
    expect(posts()).toHaveLength(1); // not retried

    const bad = await failure(model('claude-test', { apiKey: 'bad-key' }).createMessage(parentRequest()));
    expect((bad as ModelCallError).status).toBe(401);
  });

  it('scrubs the key from an error message that echoes it', async () => {
    const echo = createServer((req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      const message = `key ${req.headers.authorization} is not allowed (also as ${KEY})`;
      res.end(JSON.stringify({ type: 'error', error: { type: 'permission_error', message } }));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const baseURL = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
      const events: StreamEvent[] = [];
      const error = await failure(
        model('claude-test', { baseURL }).createMessage(parentRequest(), { onStream: (e) => events.push(e) }),
      );
      expect(error.message).toMatch(/^Authentication failed \(403\): .*API key and its permissions\.$/);
      expect(error.message).toContain('[redacted]');
      expect(error.message).not.toContain(KEY);
      expect(error.message).not.toContain('0123456789abcdef');
      expect(JSON.stringify(events)).not.toContain(KEY);
    } finally {
      await new Promise((resolve) => echo.close(resolve));
    }
  });

  it('reports a 429 as rate limited after the SDK retried it', async () => {
    const events: StreamEvent[] = [];
    const error = await failure(
      model('mock-429').createMessage(parentRequest('mock-429'), { onStream: (e) => events.push(e) }),
    );
    expect((error as ModelCallError).status).toBe(429);
    expect(error.message).toMatch(/^Rate limited \(429\) after 2 retries: .*rate limit/);
    expect(events).toEqual([
      { type: 'retrying', attempt: 1, reason: 'rate limited (429)' },
      { type: 'retrying', attempt: 2, reason: 'rate limited (429)' },
    ]);
  });

  it('shows a retry on 529 overloaded, then succeeds', async () => {
    const events: StreamEvent[] = [];
    const response = await model('mock-529-then-ok').createMessage(parentRequest('mock-529-then-ok'), {
      onStream: (e) => events.push(e),
    });
    expect(response.stop_reason).toBe('tool_use');
    expect(events[0]).toEqual({ type: 'retrying', attempt: 1, reason: 'overloaded (529)' });
    expect(events.filter((e) => e.type === 'retrying')).toHaveLength(1);
    expect(posts().map((r) => [r.headers['x-stainless-retry-count'], r.response?.status])).toEqual([
      ['0', 529],
      ['1', 200],
    ]);
  });

  it('fails on 500 after the retries with a clear sentence', async () => {
    const events: StreamEvent[] = [];
    const error = await failure(
      model('mock-500').createMessage(parentRequest('mock-500'), { onStream: (e) => events.push(e) }),
    );
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).status).toBe(500);
    expect(error.message).toBe(
      'The API is unavailable (500) after 2 retries: Internal server error. Try again later.',
    );
    expect(posts()).toHaveLength(3);
    expect(
      events.filter((e) => e.type === 'retrying').map((e) => e.type === 'retrying' && e.attempt),
    ).toEqual([1, 2]);
  });

  it('names the base URL and CORS when the endpoint cannot be reached', async () => {
    const closed = await startMockApi({ port: 0 });
    await closed.close();
    const events: StreamEvent[] = [];
    const error = await failure(
      model('claude-test', { baseURL: closed.url, maxRetries: 1 }).createMessage(parentRequest(), {
        onStream: (e) => events.push(e),
      }),
    );
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).status).toBeUndefined();
    // No status, as a stream's error event has none, but nothing the API sent: no stream error.
    expect((error as ModelCallError).streamError).toBeUndefined();
    expect(error.message).toBe(
      `Could not reach ${closed.url}: connection error after 1 retry. Check the base URL and that the endpoint allows browser requests (CORS).`,
    );
    expect(events).toEqual([{ type: 'retrying', attempt: 1, reason: 'connection error' }]);
  });

  it('says the connection was lost when it drops in the middle of a reply', async () => {
    const events: StreamEvent[] = [];
    const error = await failure(
      model('mock-drop').createMessage(parentRequest('mock-drop'), { onStream: (e) => events.push(e) }),
    );
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.message).toMatch(
      new RegExp(
        `^The connection to ${mock.url} was lost in the middle of the reply \\(.+\\)\\. Try again\\.$`,
      ),
    );
    const text = events.flatMap((e) => (e.type === 'text_delta' ? [e.text] : [])).join('');
    expect(text).toBe('Let me look at the project first. I will list the files, then re');
    expect((error as ModelCallError).streamError).toBeUndefined();
    expect(posts()).toHaveLength(1);
  });

  it('says where to look when the endpoint has no /v1/messages', async () => {
    const error = await failure(
      model('claude-test', { baseURL: `${mock.url}/v1` }).createMessage(parentRequest()),
    );
    expect((error as ModelCallError).status).toBe(404);
    expect(error.message).toContain(`base URL (${mock.url}/v1; the SDK adds /v1/messages)`);
  });

  it('refuses a missing key or an invalid base URL before sending anything', async () => {
    const noKey = await failure(model('claude-test', { apiKey: '  ' }).createMessage(parentRequest()));
    expect(noKey.message).toMatch(/^Authentication failed: no API key/);
    const badUrl = await failure(
      model('claude-test', { baseURL: 'not a url' }).createMessage(parentRequest()),
    );
    expect(badUrl.message).toBe('The base URL "not a url" is not a valid URL.');
    expect(posts()).toHaveLength(0);
  });

  it('stops mid-stream with an AbortError, and streams nothing after the abort', async () => {
    const controller = new AbortController();
    let afterAbort = 0;
    const call = model('mock-slow').createMessage(parentRequest('mock-slow'), {
      signal: controller.signal,
      onStream: (e) => {
        if (controller.signal.aborted) afterAbort++;
        else if (e.type === 'text_delta') controller.abort();
      },
    });
    const error = await failure(call);
    expect(error.name).toBe('AbortError');
    // The mock streams ~100 ms per event for seconds: an abort that did not cut the stream would
    // see more. (How soon it lands is the bench's to measure.)
    expect(afterAbort).toBe(0);
  });

  it('does not call at all when already stopped', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(model().createMessage(parentRequest(), { signal: controller.signal }));
    expect(error.name).toBe('AbortError');
    expect(posts()).toHaveLength(0);
  });

  it('fails a call whose stream stalls, and Stop still works while it hangs', async () => {
    const stalled = await failure(
      model('mock-hang', { stallTimeoutMs: 200 }).createMessage(parentRequest('mock-hang')),
    );
    expect(stalled).toBeInstanceOf(ModelCallError);
    expect(stalled.message).toBe(`${mock.url} sent nothing for 200 ms: the connection stalled. Try again.`);

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const stopped = await failure(
      model('mock-hang').createMessage(parentRequest('mock-hang'), { signal: controller.signal }),
    );
    expect(stopped.name).toBe('AbortError');
  });
});

describe("AnthropicModel through the relay of the page's server (relay/node.ts)", () => {
  const relay = createRelay({ allowLocal: '1' });
  const server = createServer((req, res) => relay.handle(req, res, () => res.writeHead(404).end()));
  let relayURL = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    relayURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/relay`;
  });
  afterAll(async () => {
    relay.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('streams a whole reply from an endpoint without CORS; the key goes to that endpoint', async () => {
    const texts: string[] = [];
    const response = await model('mock-s04', { baseURL: `${mock.url}/no-cors`, relayURL }).createMessage(
      parentRequest('mock-s04'),
      { onStream: (e) => void (e.type === 'text_delta' && texts.push(e.text)) },
    );
    expect(response.stop_reason).toBe('tool_use');
    expect(texts.length).toBeGreaterThan(1);
    const [sent] = posts();
    expect(sent).toMatchObject({
      path: '/v1/messages',
      noCors: true,
      body: { stream: true, max_tokens: 8000 },
    });
    expect(sent.headers.authorization).toBe('[redacted]');
    expect(sent.headers['x-s04-relay-target']).toBeUndefined();
  });

  it('tests a connection with one tiny call and names the model that answered', async () => {
    const { model: answered } = await model('mock-s04', { baseURL: `${mock.url}/no-cors`, relayURL }).ping();
    expect(answered).toBe('mock-s04');
    const [sent] = posts();
    expect(sent.body).toEqual({
      model: 'mock-s04',
      max_tokens: 1,
      messages: [{ role: 'user', content: 'Hi' }],
    });
  });

  it('reports a bad key through the relay as an authentication failure, without the key', async () => {
    const error = await failure(
      model('mock-s04', { apiKey: 'bad-key', baseURL: `${mock.url}/no-cors`, relayURL }).ping(),
    );
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).status).toBe(401);
    expect(error.message).toMatch(/^Authentication failed \(401\): invalid x-api-key\. Check the API key\.$/);
  });

  it('refuses a target the relay would refuse before sending anything', async () => {
    const error = await failure(
      model('mock-s04', { baseURL: 'http://10.1.2.3:8080#', relayURL }).createMessage(parentRequest()),
    );
    expect(error.message).toMatch(/without a query or fragment.*\(base URL http:\/\/10\.1\.2\.3:8080#\)\.$/);
    expect(posts()).toHaveLength(0);
  });

  it('says when the relay refused a call, with its reason', async () => {
    const huge = parentRequest('mock-s04', 'x'.repeat(11 * 1024 * 1024));
    const error = await failure(
      model('mock-s04', { baseURL: `${mock.url}/no-cors`, relayURL }).createMessage(huge),
    );
    expect((error as ModelCallError).status).toBe(413);
    expect(error.message).toBe(
      "This page's server refused to relay the call (413): The relay takes request bodies up to 10 MB.",
    );
    expect(posts()).toHaveLength(0);
  });

  it('reports a target the relay gave up on (silent, before or during the reply) in one sentence, without retrying', async () => {
    const impatient = createRelay({ allowLocal: '1', idleTimeoutMs: 300 });
    const own = createServer((req, res) => impatient.handle(req, res, () => res.writeHead(404).end()));
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    const sockets: Socket[] = [];
    const silent = createNetServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const ownURL = `http://127.0.0.1:${(own.address() as AddressInfo).port}/relay`;
    try {
      const before = await failure(
        model('mock-s04', {
          baseURL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
          relayURL: ownURL,
        }).createMessage(parentRequest()),
      );
      expect(before.message).toBe(
        "This page's server refused to relay the call (504): The endpoint sent nothing for 300 ms; the relay gave up.",
      );
      const during = await failure(
        model('mock-hang', { baseURL: mock.url, relayURL: ownURL }).createMessage(parentRequest('mock-hang')),
      );
      expect(during.message).toBe(
        "This page's server refused to relay the call (relay_refused during the stream): The endpoint sent nothing for 300 ms; the relay gave up.",
      );
    } finally {
      impatient.close();
      own.closeAllConnections();
      await new Promise((resolve) => own.close(resolve));
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("says when the page's server itself cannot be reached", async () => {
    const closed = await startMockApi({ port: 0 });
    await closed.close();
    const error = await failure(
      model('mock-s04', {
        baseURL: `${mock.url}/no-cors`,
        relayURL: `${closed.url}/relay`,
        maxRetries: 0,
      }).ping(),
    );
    expect(error.message).toBe(
      `Could not reach this page's server to relay the call to ${mock.url}/no-cors: connection error. Check that the server (npm start) is still running.`,
    );
  });

  it('offers the relay when a direct call fails as a CORS refusal does and a relay is there', async () => {
    const closed = await startMockApi({ port: 0 });
    await closed.close();
    const error = await failure(
      model('claude-test', { baseURL: closed.url, maxRetries: 0, offerRelay: true }).createMessage(
        parentRequest(),
      ),
    );
    expect(error.message).toBe(
      `Could not reach ${closed.url}: connection error. Check the base URL and that the endpoint allows browser requests (CORS). Tick "Send through the local server" in Settings to go through this page's server.`,
    );
  });
});

describe('the s04 loops driven by AnthropicModel', () => {
  /** The recorder dumped SDK objects, which adds `caller: null` to tool_use blocks; the API never sees it. */
  function withoutRecorderFields(value: unknown): unknown {
    return JSON.parse(JSON.stringify(value), (key, v) => (key === 'caller' && v === null ? undefined : v));
  }

  it('reproduces the eight requests of the recorded reference run through the real SDK', async () => {
    const m = model(trace.model, { apiKey: 'mock-trace' });
    const outputs = traceToolOutputs(trace);
    const answer =
      (loop: 'parent' | 'subagent'): ToolHandler =>
      async () => {
        const next = outputs[loop].shift();
        if (next === undefined) throw new Error(`no recorded output left for the ${loop}`);
        return next;
      };
    const handlersFor = (loop: 'parent' | 'subagent') =>
      Object.fromEntries(CHILD_TOOLS.map((t) => [t.name, answer(loop)]));
    const workdir = traceWorkdir(trace);
    let spawned = 0;
    const runTask: RunTask = (task) =>
      runSubagent(task.prompt, {
        agent: `subagent-${++spawned}`,
        model: m,
        modelName: trace.model,
        workdir,
        baseHandlers: handlersFor(loopOf(`subagent-${spawned}`)),
      });
    const history: Message[] = [];
    const { last } = await parentLoop(trace.prompt, {
      model: m,
      modelName: trace.model,
      workdir,
      baseHandlers: handlersFor('parent'),
      history,
      runTask,
    });

    const sent = posts();
    expect(sent).toHaveLength(8);
    sent.forEach((record, i) => {
      const { stream, ...body } = record.body as Record<string, unknown>;
      expect(stream).toBe(true);
      expect(body, `cycle ${i + 1}`).toEqual(withoutRecorderFields(trace.cycles[i].request));
    });
    expect(outputs.subagent).toEqual([]);
    expect(last.usage).toEqual(trace.cycles[7].response.usage); // no cache counters: none were sent
    expect(last.content[0]).toMatchObject({ type: 'thinking', signature: expect.any(String) });
  });

  it('runs a whole s04 conversation with thinking blocks passed back unchanged', async () => {
    const m = model('mock-thinking');
    const files: Record<string, string> = {
      'package.json': '{ "name": "demo", "devDependencies": { "vitest": "4" } }',
    };
    const baseHandlers: Record<string, ToolHandler> = {
      bash: async () => 'package.json\nsrc',
      read_file: async (input) => files[input.path as string] ?? 'Error: not found',
      write_file: async () => 'Wrote 0 bytes',
      edit_file: async () => 'Edited',
    };
    let spawned = 0;
    const runTask: RunTask = (task) =>
      runSubagent(task.prompt, {
        agent: `subagent-${++spawned}`,
        model: m,
        modelName: 'mock-thinking',
        workdir: WORKDIR,
        baseHandlers,
      });
    const { last } = await parentLoop('What test framework is used?', {
      model: m,
      modelName: 'mock-thinking',
      workdir: WORKDIR,
      baseHandlers,
      history: [],
      runTask,
    });
    expect(spawned).toBe(1);
    expect(posts().map((r) => r.response?.status)).toEqual([200, 200, 200, 200, 200]);
    expect(
      posts().map((r) =>
        (r.body as { system: string }).system === subagentSystem(WORKDIR) ? 'sub' : 'parent',
      ),
    ).toEqual(['parent', 'sub', 'sub', 'sub', 'parent']);
    const answer = last.content.find((b) => b.type === 'text') as { text: string };
    expect(answer.text).toContain('package.json begins with: "{ \\"name\\"'.replace(/\\"/g, '"'));
  });
});

describe('replies that end badly, streamed through the SDK from the mock Messages API', () => {
  /** Tools and tasks that fail the test if the loop ever runs one. */
  const neverRun: Record<string, ToolHandler> = Object.fromEntries(
    CHILD_TOOLS.map((t) => [
      t.name,
      async () => {
        throw new Error(`${t.name} must not run`);
      },
    ]),
  );
  const noTask: RunTask = async () => {
    throw new Error('task must not run');
  };

  /**
   * One prompt to the parent on `scenario`, recorded as the page records a run (run, status,
   * the loop's events, the final status), then reduced as the screen reduces it.
   */
  async function runOn(scenario: string) {
    const events: LoopEvent[] = [];
    const history: Message[] = [];
    let status: RunStatus = { kind: 'finished' };
    try {
      await parentLoop('Use a subtask to find what testing framework this project uses', {
        model: model(scenario),
        modelName: scenario,
        workdir: WORKDIR,
        baseHandlers: neverRun,
        history,
        runTask: noTask,
        onEvent: (e) => events.push(e),
      });
    } catch (error) {
      status = { kind: 'failed', reason: (error as Error).message };
    }
    const settings = {
      provider: 'anthropic' as const,
      model: scenario,
      sample: 'python' as const,
      sandbox: 'local',
      context: 'isolated' as const,
      limits: REFERENCE_LIMITS,
    };
    const record = newRecord('run-1', 1_767_000_000_000, 'p', settings);
    const all: RunEvent[] = [
      { type: 'run', prompt: 'p', settings },
      { type: 'status', status: { kind: 'running' } },
      ...events,
      { type: 'status', status },
    ];
    record.events = all.map((e, t) => ({ ...e, t }));
    return { events, history, record, view: reduceAll(record.events) };
  }

  /** The run's view once its record is exported and opened again (checked as an import is). */
  const reopened = (record: RunRecord) => reduceAll(checkRecord(JSON.parse(JSON.stringify(record))).events);

  const streamedText = (events: LoopEvent[]) =>
    events
      .flatMap((e) => (e.type === 'stream' && e.event.type === 'text_delta' ? [e.event.text] : []))
      .join('');

  it('a refusal ends the loop; the status and the reply say it was refused', async () => {
    const { events, history, view } = await runOn('mock-refusal');
    expect(posts()).toHaveLength(1);
    expect(events.find((e) => e.type === 'model_end')).toMatchObject({ stopReason: 'refusal' });
    expect(history).toEqual([
      { role: 'user', content: expect.any(String) },
      { role: 'assistant', content: [{ type: 'text', text: 'I looked at the request, and I' }] },
    ]);
    expect(view.status).toEqual({ kind: 'finished', ending: 'refusal' });
    expect(view.parent.endings).toEqual({ 1: 'refusal' });
  });

  it('max_tokens cuts a text reply: the loop ends, the text stays in the array, marked', async () => {
    const { history, view } = await runOn('mock-max-tokens');
    expect(posts()).toHaveLength(1);
    expect(history).toHaveLength(2);
    expect(JSON.stringify(history[1])).toContain('names the framework as');
    expect(view.status).toEqual({ kind: 'finished', ending: 'max_tokens' });
    expect(view.parent.endings).toEqual({ 1: 'max_tokens' });
  });

  it('max_tokens in the middle of a tool_use: the cut call is never run, and the status says so', async () => {
    const { events, history, record, view } = await runOn('mock-max-tokens-tool');
    // What streamed of the input is not JSON: the API stopped in the middle of a string.
    const json = events
      .flatMap((e) =>
        e.type === 'stream' && e.event.type === 'input_json_delta' ? [e.event.partial_json] : [],
      )
      .join('');
    expect(json).toBe('{"description": "Explore the project", "prompt": "List the files and read the one th');
    expect(() => JSON.parse(json)).toThrow();
    // The reply is appended as the SDK gave it (its partial input), and nothing else happens.
    expect(history.at(-1)).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'I will hand the exploration to a subagent.' },
        {
          type: 'tool_use',
          id: 'toolu_mock_cut',
          name: 'task',
          input: { description: 'Explore the project' },
        },
      ],
    });
    expect(events.map((e) => e.type)).not.toContain('tool_start');
    expect(events.map((e) => e.type)).not.toContain('task_start');
    expect(posts()).toHaveLength(1);
    expect(view.status).toEqual({ kind: 'finished', ending: 'max_tokens', cutTool: true });
    expect(view.parent.endings).toEqual({ 1: 'max_tokens' });
    expect(view.parent.draft).toBeNull();
    expect(view.subagents).toEqual([]);
    const again = reopened(record);
    expect(again.status).toEqual(view.status);
    expect(again.parent.endings).toEqual(view.parent.endings);
  });

  it('a full context window ends the loop; the status names it', async () => {
    const { history, view } = await runOn('mock-context-window');
    expect(history).toHaveLength(2);
    expect(view.status).toEqual({ kind: 'finished', ending: 'model_context_window_exceeded' });
  });

  it('an error event in the middle of the reply fails the run and keeps the text so far, cut off', async () => {
    const { events, history, record, view } = await runOn('mock-overloaded-mid-stream');
    expect(mock.requests().at(-1)?.response).toMatchObject({ streamError: 'overloaded_error' });
    const text = 'Let me look at the project first. I will list the files, then re';
    expect(streamedText(events)).toBe(text);
    expect(events.at(-1)).toEqual({
      type: 'error',
      agent: 'parent',
      error: 'The API is overloaded (overloaded_error during the stream): Overloaded. Try again later.',
      streamError: 'overloaded_error',
    });
    // Never retried (the reply had begun), never appended: the array holds the prompt alone.
    expect(posts()).toHaveLength(1);
    expect(history).toHaveLength(1);
    expect(view.status).toMatchObject({ kind: 'failed', streamError: 'overloaded_error', kept: true });
    expect(view.parent.cutOff).toEqual([{ type: 'text', text }]);
    expect(view.parent.messages).toHaveLength(1);
    const again = reopened(record);
    expect(again.status).toEqual(view.status);
    expect(again.parent.cutOff).toEqual(view.parent.cutOff);
  });

  it('the model call fails with the error type the stream named', async () => {
    const error = await failure(
      model('mock-overloaded-mid-stream').createMessage(parentRequest('mock-overloaded-mid-stream')),
    );
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).status).toBe(529);
    expect((error as ModelCallError).streamError).toBe('overloaded_error');
  });

  it('a subagent cut at max_tokens returns its text; its reply is marked, the run ends normally', async () => {
    // The subagent answers on mock-max-tokens; the parent on mock-s04 around it.
    const events: LoopEvent[] = [];
    const summary = await runSubagent('Find the test framework', {
      agent: 'subagent-1',
      model: model('mock-max-tokens'),
      modelName: 'mock-max-tokens',
      workdir: WORKDIR,
      baseHandlers: neverRun,
      onEvent: (e) => events.push(e),
    });
    expect(summary).toContain('names the framework as');
    expect(posts()).toHaveLength(1);
    const settings = {
      provider: 'anthropic' as const,
      model: 'mock-max-tokens',
      sample: 'python' as const,
      sandbox: 'local',
      context: 'isolated' as const,
      limits: REFERENCE_LIMITS,
    };
    const view = reduceAll(
      [
        { type: 'run', prompt: 'p', settings },
        { type: 'status', status: { kind: 'running' } },
        {
          type: 'spawn',
          agent: 'subagent-1',
          from: 'parent',
          taskId: 't',
          description: 'd',
          messages: [{ role: 'user', content: 'Find the test framework' }],
        },
        ...events,
        { type: 'agent_state', agent: 'subagent-1', state: 'discarded', summary },
        { type: 'status', status: { kind: 'finished' } },
      ].map((e, t) => ({ ...(e as RunEvent), t })),
    );
    expect(view.subagents[0].endings).toEqual({ 1: 'max_tokens' });
    // The parent's own last reply decides the run's status: it has none here.
    expect(view.status).toEqual({ kind: 'finished' });
  });
});
