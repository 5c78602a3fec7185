/**
 * The shapes of the Messages API that the s04 loop reads and writes.
 *
 * They mirror Anthropic's wire format so that an array built here can be sent as is and compared
 * with the reference loop's requests. Assistant content is kept exactly as the model returned it
 * (thinking blocks with their signatures too): the loop never rewrites a block.
 */

export interface TextBlock {
  type: 'text';
  text: string;
  citations?: unknown;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
}

/** Any block a model may return; unknown kinds are carried along untouched. */
export type AssistantBlock = TextBlock | ToolUseBlock | ThinkingBlock | RedactedThinkingBlock;

export type UserContent = string | Array<ToolResultBlock | TextBlock>;

export type Message =
  { role: 'user'; content: UserContent } | { role: 'assistant'; content: AssistantBlock[] };

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** The name of the loop an event or a file change belongs to: `parent` or `subagent-N`. */
export type AgentId = string;

export const PARENT: AgentId = 'parent';

/** `subagent-1`, `subagent-2`, ... in spawn order. */
export function subagentId(n: number): AgentId {
  return `subagent-${n}`;
}
