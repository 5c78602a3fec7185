import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockApi, type MockApi } from '../../scripts/mock-api.mjs';
import { CHILD_TOOLS, PARENT_TOOLS, parentSystem, subagentSystem } from '../core/tools';
import { soloSystem } from '../core/variants';

let mock: MockApi;
beforeAll(async () => {
  mock = await startMockApi({ port: 0 });
});
afterAll(() => mock.close());
beforeEach(() => mock.clearRequests());

const body = (extra: Record<string, unknown> = {}) => ({
  model: 'mock-s04',
  max_tokens: 8000,
  system: parentSystem('/w'),
  tools: PARENT_TOOLS,
  messages: [{ role: 'user', content: 'hello' }],
  ...extra,
});

function post(payload: unknown, headers: Record<string, string> = {}) {
  return fetch(`${mock.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k-123', ...headers },
    body: JSON.stringify(payload),
  });
}

describe('the mock Messages API (scripts/mock-api.mjs)', () => {
  it('answers CORS preflights for the headers the SDK sends from a browser', async () => {
    const requested =
      'anthropic-dangerous-direct-browser-access,anthropic-version,authorization,content-type,x-stainless-retry-count';
    const response = await fetch(`${mock.url}/v1/messages`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:41730',
        'access-control-request-method': 'POST',
        'access-control-request-headers': requested,
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:41730');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toBe(requested);
    expect(response.headers.get('access-control-max-age')).toBe('600');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(mock.requests()).toMatchObject([
      { method: 'OPTIONS', path: '/v1/messages', response: { status: 204 } },
    ]);
  });

  it('plays an endpoint without CORS under /no-cors: preflights refused, no CORS headers', async () => {
    const preflight = await fetch(`${mock.url}/no-cors/v1/messages`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:41730', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const response = await fetch(`${mock.url}/no-cors/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k-123', origin: 'http://localhost:41730' },
      body: JSON.stringify(body()),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('cross-origin-resource-policy')).toBeNull();
    expect(mock.requests()).toMatchObject([
      { method: 'OPTIONS', path: '/v1/messages', response: { status: 405 } },
      { method: 'POST', path: '/v1/messages', noCors: true, response: { status: 200 } },
    ]);
  });

  it('answers JSON without `stream`, with CORS and CORP headers, and records requests with keys redacted', async () => {
    const response = await post(body(), { origin: 'http://localhost:41730' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:41730');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const message = await response.json();
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      stop_reason: 'tool_use',
      content: [
        { type: 'text' },
        { type: 'tool_use', name: 'task', input: { prompt: expect.stringContaining('hello') } },
      ],
    });

    const records = await (await fetch(`${mock.url}/_requests`)).json();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      method: 'POST',
      path: '/v1/messages',
      body: body(),
      scenario: 'mock-s04',
    });
    expect(records[0].headers['x-api-key']).toBe('[redacted]');
    expect(JSON.stringify(records)).not.toContain('k-123');
    await fetch(`${mock.url}/_requests`, { method: 'DELETE' });
    expect(await (await fetch(`${mock.url}/_requests`)).json()).toEqual([]);
    expect(await (await fetch(`${mock.url}/_health`)).text()).toBe('ok');
  });

  it('streams every event type, pings included', async () => {
    const response = await post(body({ model: 'mock-thinking', stream: true }));
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = [...(await response.text()).matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(new Set(events)).toEqual(
      new Set([
        'message_start',
        'ping',
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ]),
    );
    expect(events[0]).toBe('message_start');
    expect(events.at(-1)).toBe('message_stop');
  });

  it('picks the scenario by key, then by model; `bad-key` is always refused', async () => {
    expect((await post(body({ model: 'mock-500' }))).status).toBe(500);
    expect((await post(body({ model: 'mock-s04' }), { 'x-api-key': 'mock-429' })).status).toBe(429);
    const refused = await post(body(), { 'x-api-key': '', authorization: 'Bearer bad-key' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });
    const limited = await post(body({ model: 'mock-429' }));
    expect(limited.headers.get('retry-after')).toBe('0');
  });

  it('mock-no-task answers a parent without `task` and refuses one that offers it', async () => {
    const single = body({ model: 'mock-no-task', tools: CHILD_TOOLS, system: soloSystem('/w') });
    expect((await post(single)).status).toBe(200);
    const refused = await post(body({ model: 'mock-no-task' }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });

  it('refuses what the real API refuses: unknown block fields, forged signatures, unanswered tool_use', async () => {
    const first = await (await post(body({ model: 'mock-thinking' }))).json();
    const toolUse = first.content.find((b: { type: string }) => b.type === 'tool_use');
    const turn = (content: unknown[]) =>
      body({
        model: 'mock-thinking',
        messages: [
          { role: 'user', content: 'hello' },
          { role: 'assistant', content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'ok' }] },
        ],
      });
    expect((await post(turn(first.content))).status).toBe(200);

    const extra = first.content.map((b: { type: string }) =>
      b.type === 'text' ? { ...b, parsed_output: null } : b,
    );
    const refusedExtra = await post(turn(extra));
    expect(refusedExtra.status).toBe(400);
    expect((await refusedExtra.json()).error.message).toContain(
      'parsed_output: Extra inputs are not permitted',
    );

    const forged = first.content.map((b: { type: string }) =>
      b.type === 'thinking' ? { ...b, thinking: 'edited' } : b,
    );
    expect((await (await post(turn(forged))).json()).error.message).toContain('Invalid `signature`');

    const unanswered = body({
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: 'never mind' },
      ],
    });
    expect((await (await post(unanswered)).json()).error.message).toContain(
      `ids were found without \`tool_result\` blocks immediately after: ${toolUse.id}`,
    );
  });

  it('refuses a message with empty content, as the real API does', async () => {
    const emptyResults = body({
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: [{ type: 'text', text: 'I will call a tool.' }] },
        { role: 'user', content: [] },
      ],
    });
    const refused = await post(emptyResults);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toContain(
      'messages.2: all messages must have non-empty content',
    );
  });

  it('plays hostile models: tool_use without a block, an unknown block type', async () => {
    const noBlock = await (await post(body({ model: 'mock-tool-use-no-block' }))).json();
    expect(noBlock.stop_reason).toBe('tool_use');
    expect(noBlock.content.map((b: { type: string }) => b.type)).toEqual(['text']);
    const unknown = await (await post(body({ model: 'mock-unknown-block', stream: true }))).text();
    expect(unknown).toContain('"content_block":{"type":"mock_annotation"');
    expect(unknown).toContain('event: message_stop');
  });

  it('mock-drop cuts the connection after a few text deltas, without ending the stream', async () => {
    const response = await post(body({ model: 'mock-drop', stream: true }));
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let text = '';
    const failure = await (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return null;
          text += new TextDecoder().decode(value);
        }
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(Error);
    expect([...text.matchAll(/"type":"text_delta"/g)]).toHaveLength(4);
    expect(text).not.toContain('message_stop');
    expect(mock.requests().at(-1)?.response).toMatchObject({ status: 200, dropped: true });
  });

  /** The SSE events of a streamed reply, parsed: [event, data] pairs in order. */
  async function sse(model: string): Promise<Array<[string, Record<string, unknown>]>> {
    const text = await (await post(body({ model, stream: true }))).text();
    return text
      .split('\n\n')
      .filter(Boolean)
      .map((chunk) => {
        const [event, data] = chunk.split('\n');
        return [event.replace(/^event: /, ''), JSON.parse(data.replace(/^data: /, ''))];
      });
  }
  const deltaOf = (events: Array<[string, Record<string, unknown>]>) =>
    events.filter(([e]) => e === 'message_delta').map(([, d]) => d.delta);

  it('mock-refusal ends a whole stream with stop_reason refusal and its stop_details', async () => {
    const events = await sse('mock-refusal');
    expect(events.at(-1)?.[0]).toBe('message_stop');
    expect(deltaOf(events)).toEqual([
      {
        stop_reason: 'refusal',
        stop_sequence: null,
        stop_details: { type: 'refusal', category: null, explanation: null },
      },
    ]);
    const json = await (await post(body({ model: 'mock-refusal' }))).json();
    expect(json).toMatchObject({ stop_reason: 'refusal', stop_details: { type: 'refusal' } });
  });

  it('mock-max-tokens and mock-context-window end a text reply with their stop_reason', async () => {
    expect(deltaOf(await sse('mock-max-tokens'))).toMatchObject([{ stop_reason: 'max_tokens' }]);
    expect(deltaOf(await sse('mock-context-window'))).toMatchObject([
      { stop_reason: 'model_context_window_exceeded' },
    ]);
  });

  it('mock-max-tokens-tool streams a tool_use whose input JSON stops in the middle, then max_tokens', async () => {
    const events = await sse('mock-max-tokens-tool');
    const json = events
      .filter(([e, d]) => e === 'content_block_delta' && d.index === 1)
      .map(([, d]) => (d.delta as { partial_json: string }).partial_json)
      .join('');
    expect(json).toBe('{"description": "Explore the project", "prompt": "List the files and read the one th');
    expect(() => JSON.parse(json)).toThrow();
    // The cut block is closed, then the reply ends: as the API sends a reply cut at max_tokens.
    expect(events.map(([e]) => e).slice(-4)).toEqual([
      'content_block_stop',
      'ping',
      'message_delta',
      'message_stop',
    ]);
    expect(deltaOf(events)).toMatchObject([{ stop_reason: 'max_tokens' }]);
    // The whole message (JSON, or as recorded) never carries the stream-only partial input.
    const message = await (await post(body({ model: 'mock-max-tokens-tool' }))).json();
    expect(message.content[1]).toEqual({ type: 'tool_use', id: 'toolu_mock_cut', name: 'task', input: {} });
  });

  it('mock-overloaded-mid-stream sends a few text deltas, then an error event, and ends', async () => {
    const events = await sse('mock-overloaded-mid-stream');
    expect(events.filter(([, d]) => (d.delta as { type?: string })?.type === 'text_delta')).toHaveLength(4);
    expect(events.at(-1)).toEqual([
      'error',
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    ]);
    expect(events.map(([e]) => e)).not.toContain('message_stop');
    expect(mock.requests().at(-1)?.response).toMatchObject({
      status: 200,
      streamError: 'overloaded_error',
    });
  });

  it('replays the recorded run with its thinking blocks restored', async () => {
    const parent = await (await post(body({ model: 'mock-trace' }))).json();
    expect(parent.model).toBe('MiniMax-M2.5');
    expect(parent.content[0]).toEqual({
      type: 'thinking',
      thinking: expect.stringContaining('testing framework'),
      signature: '62faf0667aa9c992b6755fcac7582694ac56d829de7a648c05802369ef020516',
    });
    expect(parent.content[1]).not.toHaveProperty('caller');
    const sub = await (await post(body({ model: 'mock-trace', system: subagentSystem('/w') }))).json();
    expect(sub.content[1]).toMatchObject({ type: 'tool_use', name: 'bash' });
  });

  it('answers 529 once per call, then succeeds (by the SDK retry counter)', async () => {
    const payload = body({ model: 'mock-529-then-ok' });
    expect((await post(payload, { 'x-stainless-retry-count': '0' })).status).toBe(529);
    expect((await post(payload, { 'x-stainless-retry-count': '1' })).status).toBe(200);
    // Without the SDK's header: once per distinct request.
    expect((await post(payload)).status).toBe(529);
    expect((await post(payload)).status).toBe(200);
  });
});
