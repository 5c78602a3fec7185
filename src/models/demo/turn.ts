/**
 * What the demo model reads from a request: the turn it is in (the latest user prompt and the tool
 * calls made since), what those calls returned, and the shape of the step it answers with. Both
 * the model (index.ts) and its plans (parent.ts, subagent.ts) build on these, so they live apart
 * from either.
 */
import type { Message, ToolUseBlock } from '../../core/messages';
import type { ModelRequest } from '../../core/model';
import type { Reads } from './project';
import { clip } from './summaries';

/** What the model does next: some text, and tool calls unless it is done. */
export interface Plan {
  text?: string;
  calls?: Array<{ name: string; input: Record<string, unknown> }>;
}

/** One tool call of the current turn, with what it returned (absent while it is running). */
export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  output?: string;
}

/** The current turn: the prompt that started it and the tool calls made since, per model call. */
export interface Turn {
  prompt: string;
  steps: ToolCall[][];
  /** The working directory named by the system prompt. */
  workdir: string;
}

/** The latest user text and every tool call made after it (the turn's progress). */
export function readTurn(request: Pick<ModelRequest, 'system' | 'messages'>): Turn {
  const { messages } = request;
  let start = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (isPrompt(messages[i])) {
      start = i;
      break;
    }
  }
  const prompt = start < 0 ? '' : promptText(messages[start]);
  const steps: ToolCall[][] = [];
  for (let i = start + 1; i < messages.length; i++) {
    const message = messages[i];
    if (message.role !== 'assistant') continue;
    const uses = message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    const next = messages[i + 1];
    const results = new Map<string, string>();
    if (next?.role === 'user' && Array.isArray(next.content)) {
      for (const block of next.content) {
        if (block.type === 'tool_result') results.set(block.tool_use_id, resultText(block.content));
      }
    }
    steps.push(
      uses.map((use) => ({
        id: use.id,
        name: use.name,
        input:
          typeof use.input === 'object' && use.input !== null ? (use.input as Record<string, unknown>) : {},
        output: results.get(use.id),
      })),
    );
  }
  const workdir = /^You are a coding (?:sub)?agent at (.*?)\. /.exec(request.system)?.[1] ?? '.';
  return { prompt, steps, workdir };
}

/** A user message with text in it: a prompt (a forked subagent's may follow tool results). */
function isPrompt(message: Message): boolean {
  if (message.role !== 'user') return false;
  if (typeof message.content === 'string') return true;
  return message.content.some((b) => b.type === 'text');
}

/** The prompt is the message's last text: a forked subagent's task comes after its caller's. */
function promptText(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  const texts = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  return texts.at(-1) ?? '';
}

/** tool_result content is a string in our loops; tolerate the API's block-array form too. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((b) => (b && typeof b === 'object' && 'text' in b ? String((b as { text: unknown }).text) : ''))
      .join('');
  }
  return String(content ?? '');
}

/** True when the request comes from a subagent loop (its system prompt says so). */
export function isSubagentRequest(request: Pick<ModelRequest, 'system'>): boolean {
  return request.system.startsWith('You are a coding subagent');
}

// ---------------------------------------------------------------------------------------------
// Reading the turn's tool results

export function flat(turn: Turn): ToolCall[] {
  return turn.steps.flat();
}

export function isError(output: string | undefined): boolean {
  return output === undefined || output.startsWith('Error:') || output.startsWith('Unknown tool:');
}

/** The files read successfully this turn, by the path asked for. */
export function readsOf(calls: ToolCall[]): Reads {
  const reads: Reads = new Map();
  for (const c of calls) {
    if (c.name === 'read_file' && typeof c.input.path === 'string' && !isError(c.output))
      reads.set(c.input.path, c.output!);
  }
  return reads;
}

/** Reads that failed, as `path (Error: ...)` for an honest mention. */
export function failedReads(calls: ToolCall[]): string[] {
  return calls
    .filter((c) => c.name === 'read_file' && isError(c.output))
    .map((c) => `\`${String(c.input.path)}\` (${clip(c.output ?? 'no result', 120)})`);
}

export function bashOutput(calls: ToolCall[], command: string): string | undefined {
  return calls.find((c) => c.name === 'bash' && c.input.command === command)?.output;
}

export function readCall(path: string, limit?: number): { name: string; input: Record<string, unknown> } {
  return { name: 'read_file', input: limit ? { path, limit } : { path } };
}

export function bashCall(command: string): { name: string; input: Record<string, unknown> } {
  return { name: 'bash', input: { command } };
}

export function chars(n: number): string {
  return n.toLocaleString('en-US');
}
