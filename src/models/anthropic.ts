/**
 * A real model through @anthropic-ai/sdk: Anthropic's API or any endpoint that speaks its
 * Messages API (the SDK appends `/v1/messages` to the base URL). It runs inside the agent
 * workers, straight from the browser (`dangerouslyAllowBrowser`), so the endpoint must allow
 * CORS; the key stays in the worker's memory and never appears in an error or an event.
 *
 *   loop ──request──► messages.stream() ──SSE──► content_block_* ──► StreamEvent (for the screen)
 *                          │  ▲ middleware: sees each HTTP attempt  ──► `retrying` events
 *                          ▼  │            and each body chunk     ──► stall detection
 *                     final message: content blocks exactly as the API sent them ──► loop
 *
 * Failures become one ModelCallError sentence a person can act on (key, rate limit, endpoint,
 * CORS); Stop becomes an AbortError, which the loop reports as stopped.
 */
import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  type Middleware,
} from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming, MessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { AssistantBlock, Usage } from '../core/messages';
import type { ModelCallOptions, ModelClient, ModelRequest, ModelResponse, StreamEvent } from '../core/model';
import { ModelCallError } from '../core/model';
import type { ModelConfig } from './config';
import { withCacheBreakpoints } from './cache-breakpoints';
import { RELAY_TARGET_HEADER, relayTargetProblem } from './relay';
import { messageOf } from '../core/errors';

export type AnthropicConfig = Extract<ModelConfig, { provider: 'anthropic' }>;

export interface AnthropicOptions {
  /** Extended thinking, sent as `thinking: {type: 'enabled', budget_tokens}` (below max_tokens). */
  thinking?: { budgetTokens: number };
  /** How often the SDK retries 408/409/429/5xx and connection errors (default 2, as the SDK). */
  maxRetries?: number;
  /** A call that receives no byte for this long fails instead of hanging (default 120 s). */
  stallTimeoutMs?: number;
}

const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const DEFAULT_STALL_MS = 120_000;

/** The words of the Settings checkbox a CORS failure points to (docs/automation-contract.md). */
const RELAY_CHECKBOX = 'Send through the local server';

/** Errors a mid-stream `event: error` names by type only (it has no HTTP status). */
const STATUS_OF_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/** The SDK's own retry rule (client.ts `shouldRetry`), to announce a retry before its back-off. */
function sdkRetries(response: Response): boolean {
  const header = response.headers.get('x-should-retry');
  if (header === 'true') return true;
  if (header === 'false') return false;
  return [408, 409, 429].includes(response.status) || response.status >= 500;
}

function failureOf(status: number): string {
  if (status === 429) return 'rate limited (429)';
  if (status === 529) return 'overloaded (529)';
  if (status === 408) return 'request timeout (408)';
  if (status >= 500) return `server error (${status})`;
  return `HTTP ${status}`;
}

function abortError(): DOMException {
  return new DOMException('Stopped', 'AbortError');
}

/** Strips a trailing slash; an empty base URL means Anthropic's. */
export function normalizeBaseURL(baseURL: string): string {
  const trimmed = baseURL.trim().replace(/\/+$/, '');
  return trimmed || DEFAULT_BASE_URL;
}

/** The usage counters the playground shows, where the API reported them. */
function usageOf(usage: Record<string, unknown> | undefined): Usage | undefined {
  if (!usage) return undefined;
  const out: Usage = {
    input_tokens: Number(usage.input_tokens ?? 0),
    output_tokens: Number(usage.output_tokens ?? 0),
  };
  for (const key of ['cache_creation_input_tokens', 'cache_read_input_tokens'] as const) {
    if (typeof usage[key] === 'number') out[key] = usage[key];
  }
  return out;
}

/** One content_block_* event as our StreamEvent (signature and citation deltas are not shown). */
function toStreamEvent(event: MessageStreamEvent): StreamEvent | undefined {
  switch (event.type) {
    case 'content_block_start':
      return { type: 'block_start', index: event.index, block: plainJSON(event.content_block) };
    case 'content_block_delta':
      switch (event.delta.type) {
        case 'text_delta':
          return { type: 'text_delta', index: event.index, text: event.delta.text };
        case 'input_json_delta':
          return { type: 'input_json_delta', index: event.index, partial_json: event.delta.partial_json };
        case 'thinking_delta':
          return { type: 'thinking_delta', index: event.index, thinking: event.delta.thinking };
        default:
          return undefined;
      }
    case 'content_block_stop':
      return { type: 'block_stop', index: event.index };
    default:
      return undefined;
  }
}

/**
 * A JSON copy: what the API sent, without the SDK's non-enumerable helpers (`__json_buf` on
 * tool_use, `parsed_output` on text), which the API would refuse if sent back.
 */
function plainJSON<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export class AnthropicModel implements ModelClient {
  readonly label: string;
  readonly baseURL: string;
  readonly #apiKey: string;
  readonly #model: string;
  readonly #client: Anthropic;
  readonly #maxRetries: number;
  readonly #stallMs: number;
  readonly #thinking?: { budgetTokens: number };
  readonly #relayURL?: string;
  readonly #offerRelay: boolean;
  readonly #cache: boolean;

  constructor(config: AnthropicConfig & AnthropicOptions) {
    this.baseURL = normalizeBaseURL(config.baseURL);
    this.#apiKey = config.apiKey.trim();
    this.#model = config.model;
    this.#maxRetries = config.maxRetries ?? 2;
    this.#stallMs = config.stallTimeoutMs ?? DEFAULT_STALL_MS;
    this.#thinking = config.thinking;
    this.#relayURL = config.relayURL;
    this.#offerRelay = config.offerRelay === true;
    this.#cache = config.cache === true;
    // An invalid base URL is reported as a sentence by createMessage.
    const host = URL.canParse(this.baseURL) ? new URL(this.baseURL).host : this.baseURL;
    this.label = this.#scrub(`${config.model} (${host})`);
    this.#client = new Anthropic({
      apiKey: this.#apiKey,
      // Relayed, the SDK talks to the page's server, which forwards to the base URL it is told.
      baseURL: this.#relayURL ?? this.baseURL,
      ...(this.#relayURL && { defaultHeaders: { [RELAY_TARGET_HEADER]: this.baseURL } }),
      dangerouslyAllowBrowser: true,
      maxRetries: this.#maxRetries,
    });
  }

  /** Why this call cannot start (a sentence), or null. */
  #configProblem(): string | null {
    if (!URL.canParse(this.baseURL)) return `The base URL "${this.#scrub(this.baseURL)}" is not a valid URL.`;
    if (!this.#apiKey) return 'Authentication failed: no API key is set. Enter your API key in the settings.';
    const relayProblem = this.#relayURL ? relayTargetProblem(this.baseURL) : null;
    if (relayProblem) return `${relayProblem.replace(/\.$/, '')} (base URL ${this.#scrub(this.baseURL)}).`;
    return null;
  }

  /**
   * One tiny call (max_tokens 1, one short user message, no tools, no thinking, no retry) to
   * check the key, the base URL and the model: resolves with the model that answered, or
   * rejects with the same ModelCallError sentence a run would show.
   */
  async ping(signal?: AbortSignal): Promise<{ model: string }> {
    const problem = this.#configProblem();
    if (problem) throw new ModelCallError(problem);
    try {
      const message = await this.#client.messages.create(
        { model: this.#model, max_tokens: 1, messages: [{ role: 'user', content: 'Hi' }] },
        { signal, maxRetries: 0 },
      );
      return { model: this.#scrub(String(message.model ?? this.#model)) };
    } catch (error) {
      if (signal?.aborted || error instanceof APIUserAbortError) throw abortError();
      throw this.#describe(error, 0);
    }
  }

  /** Removes the key (and anything shaped like one) from text that may be shown or sent. */
  #scrub(text: string): string {
    let out = text;
    if (this.#apiKey.length >= 4) out = out.split(this.#apiKey).join('[redacted]');
    return out.replace(/sk-ant-[\w-]+/g, '[redacted]').replace(/(Bearer\s+)\S+/gi, '$1[redacted]');
  }

  /**
   * The JSON body of a call: the request, this client's model when it names none, extended
   * thinking when asked, cache breakpoints when prompt caching is on (./cache-breakpoints.ts), and
   * `stream: true`, which `messages.stream()` adds to what it is given. Headers (the key among
   * them) are no part of it.
   */
  body(request: ModelRequest): Record<string, unknown> {
    return {
      ...(this.#cache ? withCacheBreakpoints(request) : request),
      model: request.model || this.#model,
      ...(this.#thinking && {
        thinking: { type: 'enabled', budget_tokens: this.#thinking.budgetTokens },
      }),
      stream: true,
    };
  }

  async createMessage(request: ModelRequest, options: ModelCallOptions = {}): Promise<ModelResponse> {
    const { signal, onStream } = options;
    if (signal?.aborted) throw abortError();
    const problem = this.#configProblem();
    if (problem) throw new ModelCallError(problem);

    // One controller for Stop and for a stalled connection; the SDK sees only this one.
    const controller = new AbortController();
    const stop = () => controller.abort();
    signal?.addEventListener('abort', stop, { once: true });
    let stalled = false;
    let stallTimer: ReturnType<typeof setTimeout> | undefined;
    const resetStallTimer = () => {
      clearTimeout(stallTimer);
      stallTimer = setTimeout(() => {
        stalled = true;
        controller.abort();
      }, this.#stallMs);
    };
    const clearStallTimer = () => clearTimeout(stallTimer);

    // Retries happen inside the SDK; this middleware sees every attempt (its number is the
    // X-Stainless-Retry-Count header) and every failed response, so the screen can say why.
    let retries = 0;
    let lastFailure = 'the previous attempt failed';
    const announce = (attempt: number) => {
      if (attempt <= retries) return;
      retries = attempt;
      onStream?.({ type: 'retrying', attempt, reason: this.#scrub(lastFailure) });
    };
    const watch: Middleware = async (apiRequest, next) => {
      const attempt = Number(apiRequest.headers.get('x-stainless-retry-count') ?? 0) || 0;
      announce(attempt);
      resetStallTimer();
      let response: Response;
      try {
        response = await next(apiRequest);
      } catch (error) {
        clearStallTimer();
        if (!controller.signal.aborted) {
          lastFailure =
            error instanceof Error && error.name === 'AbortError' ? 'timed out' : 'connection error';
          if (attempt < this.#maxRetries) announce(attempt + 1);
        }
        throw error;
      }
      if (!response.ok) {
        clearStallTimer();
        lastFailure = failureOf(response.status);
        if (attempt < this.#maxRetries && sdkRetries(response)) announce(attempt + 1);
        return response;
      }
      resetStallTimer();
      if (!response.body) return response;
      const body = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, out) {
            resetStallTimer();
            out.enqueue(chunk);
          },
        }),
      );
      return new Response(body, response);
    };

    const { stream: _, ...params } = this.body(request) as unknown as MessageCreateParamsStreaming;

    // Once part of the reply has arrived, a failure is a connection lost mid-reply, not an
    // endpoint that cannot be reached.
    let midReply = false;
    try {
      const stream = this.#client.messages.stream(params, {
        signal: controller.signal,
        middleware: [watch],
      });
      stream.on('streamEvent', (event) => {
        if (event.type === 'content_block_start') midReply = true;
        const streamEvent = toStreamEvent(event);
        if (streamEvent) onStream?.(streamEvent);
      });
      const message = await stream.finalMessage();
      return {
        id: message.id,
        model: message.model,
        content: plainJSON<AssistantBlock[]>(message.content),
        stop_reason: message.stop_reason,
        usage: usageOf(message.usage as unknown as Record<string, unknown>),
      };
    } catch (error) {
      if (signal?.aborted) throw abortError();
      if (stalled) {
        const wait = this.#stallMs >= 1000 ? `${Math.round(this.#stallMs / 1000)} s` : `${this.#stallMs} ms`;
        throw new ModelCallError(
          `${this.baseURL} sent nothing for ${wait}: the connection stalled. Try again.`,
        );
      }
      if (error instanceof APIUserAbortError) throw abortError();
      const lost = !(error instanceof APIError) || error instanceof APIConnectionError;
      if (midReply && lost) {
        const detail = messageOf(error);
        throw new ModelCallError(
          this.#scrub(
            `The connection to ${this.baseURL} was lost in the middle of the reply (${detail}). Try again.`,
          ),
        );
      }
      throw this.#describe(error, retries);
    } finally {
      clearStallTimer();
      signal?.removeEventListener('abort', stop);
    }
  }

  /** Turns an SDK error into one sentence that says what to do, without the key. */
  #describe(error: unknown, retries: number): ModelCallError {
    const after = retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '';
    // An error event in the middle of a reply names its type, which the screen says in its words.
    // (A connection error is an APIError without a status too, but no event of the API's.)
    const streamError =
      error instanceof APIError && !(error instanceof APIConnectionError) && error.status === undefined
        ? (error.type ?? 'error')
        : undefined;
    const fail = (message: string, status?: number) =>
      new ModelCallError(this.#scrub(message), status, streamError);

    if (error instanceof APIConnectionTimeoutError) {
      return fail(`Timed out waiting for ${this.baseURL}${after}. Check the base URL and your connection.`);
    }
    if (error instanceof APIConnectionError && this.#relayURL) {
      return fail(
        `Could not reach this page's server to relay the call to ${this.baseURL}: connection error${after}. Check that the server (npm start) is still running.`,
      );
    }
    if (error instanceof APIConnectionError) {
      // A CORS refusal reaches a page only as a connection error; the relay has no CORS to need.
      const offer = this.#offerRelay
        ? ` Tick "${RELAY_CHECKBOX}" in Settings to go through this page's server.`
        : '';
      return fail(
        `Could not reach ${this.baseURL}: connection error${after}. Check the base URL and that the endpoint allows browser requests (CORS).${offer}`,
      );
    }
    if (error instanceof APIError) {
      const detail = (error.apiMessage ?? error.message.replace(/^\d{3}\s+/, ''))
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 300);
      const midStream = error.status === undefined;
      const status = error.status ?? (error.type ? STATUS_OF_TYPE[error.type] : undefined);
      const code = midStream ? `${error.type ?? 'error'} during the stream` : String(status);
      if ((error.type as string | null) === 'relay_refused') {
        return fail(`This page's server refused to relay the call (${code}): ${detail}`, status);
      }
      if (status === 401 || status === 403) {
        return fail(
          `Authentication failed (${code}): ${detail}. Check the API key${status === 403 ? ' and its permissions' : ''}.`,
          status,
        );
      }
      if (status === 429)
        return fail(`Rate limited (${code})${after}: ${detail}. Wait a moment, then try again.`, 429);
      if (status === 529)
        return fail(`The API is overloaded (${code})${after}: ${detail}. Try again later.`, 529);
      if (status !== undefined && status >= 500) {
        return fail(`The API is unavailable (${code})${after}: ${detail}. Try again later.`, status);
      }
      if (status === 404) {
        return fail(
          `Not found (404): ${detail}. Check the model name and the base URL (${this.baseURL}; the SDK adds /v1/messages).`,
          404,
        );
      }
      if (status !== undefined) return fail(`The API rejected the request (${code}): ${detail}`, status);
      return fail(`The API reported an error during the stream: ${detail}`);
    }
    const message = messageOf(error);
    return fail(`The reply from ${this.baseURL} could not be read: ${message}`);
  }
}
