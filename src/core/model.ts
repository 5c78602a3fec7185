/**
 * The model client interface: what the loop needs from any model (the offline demo model, the
 * Anthropic SDK, a replay of a recorded trace).
 *
 * A call streams its progress as events and resolves with the complete message. The loop only
 * uses the complete message; the stream is for people watching.
 */
import type { AssistantBlock, Message, Usage } from './messages';
import type { ToolSchema } from './tools';

export interface ModelRequest {
  model: string;
  system: string;
  tools: ToolSchema[];
  messages: Message[];
  max_tokens: number;
}

export interface ModelResponse {
  id?: string;
  model?: string;
  content: AssistantBlock[];
  stop_reason: string | null;
  usage?: Usage;
}

/**
 * A request body as a run keeps it: every field as sent, but `messages` as their count. They are
 * the first `messages` of the agent's array, which the record holds already: keeping them again
 * for every call would make a run's record grow with the square of its length.
 */
export type SentBody = { messages: number } & Record<string, unknown>;

/** The body a client sends for a request, with its messages as their count (SentBody). */
export function sentBody(client: ModelClient, request: ModelRequest): SentBody {
  const body = client.body ? client.body(request) : { ...request };
  return { ...body, messages: request.messages.length };
}

/** Streaming progress of one model call, shaped like the API's content_block_* events. */
export type StreamEvent =
  | { type: 'block_start'; index: number; block: AssistantBlock }
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'input_json_delta'; index: number; partial_json: string }
  | { type: 'thinking_delta'; index: number; thinking: string }
  | { type: 'block_stop'; index: number }
  | { type: 'retrying'; attempt: number; reason: string };

export interface ModelCallOptions {
  signal?: AbortSignal;
  onStream?: (event: StreamEvent) => void;
}

export interface ModelClient {
  /** Shown to people: which model drives the loop (e.g. `demo (scripted)`). */
  readonly label: string;
  /** The JSON body this client sends for a request (an API's exact body); the request itself when absent. */
  body?(request: ModelRequest): Record<string, unknown>;
  createMessage(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse>;
}

/**
 * A failed model call. It ends the whole run (the user must act: key, network, endpoint),
 * unlike a failed tool, whose error goes back to the model as an `Error: ...` result.
 */
export class ModelCallError extends Error {
  override name = 'ModelCallError';
  constructor(
    message: string,
    readonly status?: number,
    /** The error type the API sent as an `error` event once the reply had begun (e.g. overloaded_error). */
    readonly streamError?: string,
  ) {
    super(message);
  }
}

/**
 * Why a reply ended, when it was not the model's own choice to stop or to call tools
 * (`end_turn`, `stop_sequence`, `tool_use`): a refusal, a cut at max_tokens, a full context
 * window, or a reason this playground does not know. Such a reply ends its loop as any other
 * non-`tool_use` reply does (docs/protocol.md, the loop); a tool_use in it is never run.
 */
export function unusualStop(stopReason: string | null | undefined): string | null {
  if (!stopReason) return null;
  return ['end_turn', 'stop_sequence', 'tool_use'].includes(stopReason) ? null : stopReason;
}

/** A reply that stops for lack of room (max_tokens, a full context window) may end in a cut block. */
export function cutShort(stopReason: string | null | undefined): boolean {
  return stopReason === 'max_tokens' || stopReason === 'model_context_window_exceeded';
}
