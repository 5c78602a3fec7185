/**
 * One message array on screen: the parent's, or one subagent's. It mirrors the array inside the
 * worker from `message` events (replaced, never mutated: `$state.raw`) and shows the response
 * being streamed as a draft until it is appended. A draft whose call never completed (the
 * connection dropped, the run failed or was stopped) stays on screen as `cutOff`, outside the
 * array: it was never part of the conversation, so it is never sent back to the model.
 */
import type { AgentId, AssistantBlock, Message, Usage } from '../core/messages';
import type { StreamEvent } from '../core/model';

export type ColumnState = 'idle' | 'starting' | 'running' | 'discarded' | 'stopped' | 'failed';

/** A rough token estimate for text the API has not counted: about four characters a token. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

// Messages are never mutated (a new one replaces an old one), so a size is measured once.
const sizes = new WeakMap<Message, number>();

/** The size of one message as it would be sent: its JSON text. */
export function messageChars(message: Message): number {
  let size = sizes.get(message);
  if (size === undefined) {
    size = JSON.stringify(message).length;
    sizes.set(message, size);
  }
  return size;
}

/** The size of a messages array as it would be sent: its JSON text. */
export function arrayChars(messages: Message[]): number {
  let chars = 0;
  for (const message of messages) chars += messageChars(message);
  return chars;
}

export class AgentColumn {
  readonly id: AgentId;
  /** For a subagent: the task it was given, and the label the parent put on it. */
  readonly description: string;
  readonly taskId: string;

  messages = $state.raw<Message[]>([]);
  draft = $state.raw<AssistantBlock[] | null>(null);
  /** What had streamed of a response that never completed; shown, marked as cut off, never sent. */
  cutOff = $state.raw<AssistantBlock[] | null>(null);
  state = $state<ColumnState>('idle');
  /** The final text that went back to the parent (subagents only). */
  summary = $state<string | null>(null);
  calls = $state(0);
  limitReached = $state(false);
  /** Usage the API reported, summed over calls; null while only estimates exist. */
  usage = $state.raw<Usage | null>(null);
  /** Input tokens of the latest call: the size of the context the model last saw. */
  lastInputTokens = $state<number | null>(null);

  chars = $derived(arrayChars(this.messages));
  tokens = $derived(estimateTokens(this.chars));
  /** The size to compare columns by: what the API counted last, else the estimate. */
  contextTokens = $derived(this.lastInputTokens ?? this.tokens);

  constructor(id: AgentId, options: { description?: string; taskId?: string; messages?: Message[] } = {}) {
    this.id = id;
    this.description = options.description ?? '';
    this.taskId = options.taskId ?? '';
    if (options.messages) this.messages = options.messages;
  }

  /** Index of the message that holds the final text returned to the parent. */
  get summaryIndex(): number {
    if (this.summary === null) return -1;
    for (let i = this.messages.length - 1; i >= 0; i--) {
      if (this.messages[i].role === 'assistant') return i;
    }
    return -1;
  }

  setMessage(index: number, message: Message): void {
    const next = this.messages.slice(0, index);
    next[index] = message;
    this.messages = next;
    if (message.role === 'assistant') this.draft = null;
  }

  /** Ends a call that will not complete: what it streamed so far stays visible, as cut off. */
  cutOffDraft(): void {
    const shown = (this.draft ?? []).filter(hasContent);
    if (shown.length) this.cutOff = shown;
    this.draft = null;
  }

  startCall(): void {
    this.calls++;
    this.draft = [];
  }

  endCall(usage: Usage | undefined): void {
    if (!usage) return;
    const sum = this.usage;
    this.usage = {
      input_tokens: (sum?.input_tokens ?? 0) + usage.input_tokens,
      output_tokens: (sum?.output_tokens ?? 0) + usage.output_tokens,
      cache_creation_input_tokens:
        (sum?.cache_creation_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
      cache_read_input_tokens: (sum?.cache_read_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
    };
    this.lastInputTokens =
      usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
  }

  /** Applies one streaming event to the draft response. */
  stream(event: StreamEvent): void {
    const draft = this.draft ? [...this.draft] : [];
    switch (event.type) {
      case 'block_start':
        draft[event.index] = event.block;
        break;
      case 'text_delta': {
        const block = draft[event.index];
        if (block?.type === 'text') draft[event.index] = { ...block, text: block.text + event.text };
        break;
      }
      case 'thinking_delta': {
        const block = draft[event.index];
        if (block?.type === 'thinking')
          draft[event.index] = { ...block, thinking: block.thinking + event.thinking };
        break;
      }
      case 'input_json_delta': {
        const block = draft[event.index];
        if (block?.type === 'tool_use') {
          const partial = ((block as { partial?: string }).partial ?? '') + event.partial_json;
          let input = block.input;
          try {
            input = JSON.parse(partial);
          } catch {
            // Not complete yet: keep showing the last parsable input.
          }
          draft[event.index] = { ...block, input, partial } as AssistantBlock;
        }
        break;
      }
      default:
        return;
    }
    this.draft = draft;
  }
}

/** Whether a streamed block shows anything (a block_start alone carries an empty text). */
function hasContent(block: AssistantBlock | undefined): block is AssistantBlock {
  if (!block) return false;
  if (block.type === 'text') return block.text !== '';
  if (block.type === 'thinking') return block.thinking !== '';
  return true;
}

/**
 * The part of a history that can be sent again: it ends with a finished assistant turn. A run
 * stopped mid-turn leaves a prompt without an answer or a tool_use without results, which the
 * API would reject next time, so such a tail is left out (it stays on screen).
 */
export function resumableHistory(messages: Message[]): Message[] {
  let end = messages.length;
  while (end > 0) {
    const last = messages[end - 1];
    if (last.role === 'assistant' && !last.content.some((b) => b.type === 'tool_use')) break;
    end--;
  }
  return messages.slice(0, end);
}
