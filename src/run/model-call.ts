/**
 * What one model call sent and what came back, read from a run's record: the dialog `Model call`
 * (src/ui/components/ModelCallDialog.svelte) shows it. This is the proof of isolation: a subagent's
 * first call sends one message, its task prompt, however long the parent's array is.
 *
 *   model_start { request: {model, system, tools, messages: 3, max_tokens, ...} }
 *        │                                          └─ the first 3 messages of the agent's array,
 *        ▼                                             as the record's spawn and message events built it
 *   model_end { stopReason, usage }   message { assistant: the response }
 *
 * A record made before calls kept their body has none: the messages are then the agent's array at
 * the call (what the loop sends), and the system prompt and tools are not known. Pure, no DOM.
 */
import type { AgentId, Message, Usage } from '../core/messages';
import type { SentBody } from '../core/model';
import type { ContextMode } from '../core/variants';
import type { RunRecord } from './record';
import { messageChars } from './size';

/** One message a call sent, with what a list shows of it before it is opened. */
export interface SentMessage {
  /** Its index in the agent's array (and in the request's `messages`). */
  index: number;
  role: Message['role'];
  /** Its size as sent: the characters of its JSON text. */
  chars: number;
  /** The message; what a list shows of it (`blockKinds`, `previewOf`) is made when it is drawn. */
  message: Message;
}

/** A tool the call offered the model: its name, and its schema folded as JSON text. */
export interface OfferedTool {
  name: string;
  description: string;
  schema: string;
}

/** What came back: the response's stop reason and usage. */
export interface CallResponse {
  stopReason: string | null;
  usage: Usage | null;
  /** Whether `usage` is an API's count (a real model) rather than the demo model's own figures. */
  counted: boolean;
  durationMs: number;
  /** The model that answered, where the record names it (an opened session's calls). */
  model: string | null;
  /** The kinds of the response's blocks, once it was appended to the array. */
  blocks: string[];
}

export interface ModelCallView {
  agent: AgentId;
  /** The call's number for its agent, from 1, across every prompt of the record. */
  n: number;
  /** The context mode of the prompt it belongs to (a fork child starts from its caller's history). */
  context: ContextMode | null;
  /** Whether the record kept the call's request body (records made before it did not). */
  recorded: boolean;
  model: string | null;
  maxTokens: number | null;
  system: string | null;
  tools: OfferedTool[] | null;
  /** The body's other fields (`stream`, `thinking`, ...), each as JSON text. */
  other: Array<[string, string]>;
  messages: SentMessage[];
  /** The characters of all the messages sent. */
  chars: number;
  /** Messages the body counts that the record does not hold (a file edited by hand). */
  missing: number;
  /** Null while the call runs, or when it failed. */
  response: CallResponse | null;
  /** The exact request body as JSON, made when asked (a 5 MB array makes 5 MB of text). */
  bodyJson(): string | null;
}

/** Fields of a body that the dialog shows in their own places. */
const SHOWN = new Set(['model', 'system', 'tools', 'messages', 'max_tokens']);

const PREVIEW = 120;

/** The kinds of a message's blocks (`text` for a plain string). */
export function blockKinds(content: Message['content']): string[] {
  if (typeof content === 'string') return ['text'];
  return content.map((block) => (block && typeof block.type === 'string' ? block.type : '?'));
}

/** The start of a message's text on one line: its text, tool inputs and results as they read. */
export function previewOf(message: Message): string {
  const parts: string[] = [];
  let length = 0;
  const add = (text: string) => {
    // Only the start of a long text is read: its whitespace folded, it is cut anyway.
    const line = text
      .slice(0, 2 * PREVIEW)
      .replace(/\s+/g, ' ')
      .trim();
    if (!line) return;
    parts.push(line.slice(0, PREVIEW));
    length += line.length;
  };
  if (typeof message.content === 'string') add(message.content);
  else {
    for (const block of message.content) {
      if (length >= PREVIEW) break;
      const b = block as unknown as Record<string, unknown>;
      if (typeof b.text === 'string') add(b.text);
      else if (typeof b.thinking === 'string') add(b.thinking);
      else if (b.type === 'tool_use')
        add(`${String(b.name)} ${JSON.stringify(b.input ?? null).slice(0, PREVIEW)}`);
      else if (b.type === 'tool_result')
        add(typeof b.content === 'string' ? b.content.slice(0, PREVIEW) : '…');
    }
  }
  const text = parts.join(' · ');
  return text.length > PREVIEW ? `${text.slice(0, PREVIEW - 1)}…` : text;
}

function sent(message: Message, index: number): SentMessage {
  return { index, role: message.role, chars: messageChars(message), message };
}

function toolsOf(value: unknown): OfferedTool[] | null {
  if (!Array.isArray(value)) return null;
  return value.map((tool) => {
    const t = (typeof tool === 'object' && tool !== null ? tool : {}) as Record<string, unknown>;
    const { name, description, ...rest } = t;
    return {
      name: typeof name === 'string' ? name : '?',
      description: typeof description === 'string' ? description : '',
      schema: JSON.stringify('input_schema' in rest ? rest.input_schema : rest, null, 2),
    };
  });
}

function systemOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  // The API also takes the system prompt as text blocks.
  if (Array.isArray(value)) {
    return value
      .map((b) => (typeof b?.text === 'string' ? (b.text as string) : JSON.stringify(b)))
      .join('\n');
  }
  return null;
}

/** How many model calls each agent had made by the record's event `upTo` (exclusive), in record order. */
export function callCounts(record: RunRecord, upTo = record.events.length): Map<AgentId, number> {
  const counts = new Map<AgentId, number>();
  const events = record.events;
  const end = Math.min(upTo, events.length);
  for (let i = 0; i < end; i++) {
    const event = events[i];
    if (event.type === 'model_start') counts.set(event.agent, (counts.get(event.agent) ?? 0) + 1);
  }
  return counts;
}

/**
 * The `n`-th model call of `agent` (from 1) as the dialog shows it, or null if there is none: as
 * the record was after its first `upTo` events (a step of the step-through).
 */
export function modelCallView(
  record: RunRecord,
  agent: AgentId,
  n: number,
  upTo = record.events.length,
): ModelCallView | null {
  const events = record.events;
  const end = Math.min(upTo, events.length);
  let array: Message[] = [];
  let seen = 0;
  let start = -1;
  let context: ContextMode | null = null;
  for (let i = 0; i < end; i++) {
    const event = events[i];
    if (event.type === 'run') context = event.settings.context;
    else if (event.type === 'spawn' && event.agent === agent) array = event.messages.slice();
    else if (event.type === 'message' && event.agent === agent) {
      array.length = Math.min(array.length, event.index);
      array[event.index] = event.message;
    } else if (event.type === 'model_start' && event.agent === agent && ++seen === n) {
      start = i;
      break;
    }
  }
  if (start < 0) return null;
  const begun = events[start] as Extract<RunRecord['events'][number], { type: 'model_start' }>;
  const body: SentBody | null = begun.request ?? null;
  const count = body ? body.messages : array.length;
  const held = array.slice(0, count);
  const messages = held.map(sent);
  const chars = messages.reduce((sum, m) => sum + m.chars, 0);
  return {
    agent,
    n,
    context,
    recorded: body !== null,
    model: typeof body?.model === 'string' ? body.model : null,
    maxTokens: typeof body?.max_tokens === 'number' ? body.max_tokens : null,
    system: body ? systemOf(body.system) : null,
    tools: body ? toolsOf(body.tools) : null,
    other: body
      ? Object.entries(body)
          .filter(([key]) => !SHOWN.has(key))
          .map(([key, value]) => [key, JSON.stringify(value)])
      : [],
    messages,
    chars,
    missing: Math.max(0, count - held.length),
    response: responseOf(record, agent, start, end),
    bodyJson: () => (body ? JSON.stringify({ ...body, messages: held }, null, 2) : null),
  };
}

/** The model_end of the call begun at event `start`, and the response it appended. */
function responseOf(record: RunRecord, agent: AgentId, start: number, end: number): CallResponse | null {
  const events = record.events;
  let response: CallResponse | null = null;
  for (let i = start + 1; i < end; i++) {
    const event = events[i];
    if (!('agent' in event) || event.agent !== agent) continue;
    if (event.type === 'model_start' || event.type === 'error') break;
    if (event.type === 'model_end') {
      response = {
        stopReason: event.stopReason,
        usage: event.usage ?? null,
        counted: record.settings.provider === 'anthropic' && event.usage !== undefined,
        durationMs: event.durationMs,
        model: event.model ?? null,
        blocks: [],
      };
    } else if (event.type === 'message' && event.message.role === 'assistant' && response) {
      response.blocks = blockKinds(event.message.content);
      break;
    }
  }
  return response;
}
