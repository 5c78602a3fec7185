/**
 * The teaching variants (docs/protocol.md, "Teaching variants"): how the parent's work is split, and the
 * loop limits a learner may change. The default of each is the reference; a run that uses any
 * other is labelled on screen.
 *
 *   isolated  parent: PARENT_TOOLS, s04's prompt     child: [{user: task.prompt}]        (s04)
 *   none      parent: CHILD_TOOLS, s02's prompt      no child: everything stays in one array
 *   fork      parent: as isolated                    child: [...caller's history, + task.prompt]
 *
 * Delegation depth counts the levels below the parent: its subagents are at depth 1, theirs at
 * depth 2. With "subagents may delegate" at depth D, a subagent at depth d gets `task` while
 * d <= D, so the deepest ones (depth D + 1) have the child tools only, as every subagent of s04 does.
 */
import type { Message, TextBlock, ToolResultBlock } from './messages';

/** How the parent's work is split. */
export type ContextMode = 'isolated' | 'none' | 'fork';

export const CONTEXT_MODES: readonly ContextMode[] = ['isolated', 'none', 'fork'];

/** The loop limits a learner may change; the reference values are REFERENCE_LIMITS. */
export interface LoopLimits {
  /** A subagent's model calls at most (the reference's safety limit of 30). */
  subagentMaxCalls: number;
  /** Tool results are cut to this many characters (50,000). */
  outputChars: number;
  /** `max_tokens` of every model call (8000). */
  maxTokens: number;
  /** How deep subagents may delegate: 0 = never (the reference), 1 to 3 otherwise. */
  delegationDepth: number;
}

export const REFERENCE_LIMITS: LoopLimits = {
  subagentMaxCalls: 30,
  outputChars: 50_000,
  maxTokens: 8000,
  delegationDepth: 0,
};

/** The range a learner may choose each limit in (integers, both ends included). */
export const LIMIT_RANGES: Record<keyof LoopLimits, { min: number; max: number }> = {
  subagentMaxCalls: { min: 1, max: 100 },
  outputChars: { min: 1000, max: 200_000 },
  maxTokens: { min: 1, max: 64_000 },
  delegationDepth: { min: 0, max: 3 },
};

/** Why a limit's value is refused, or undefined when it is in its range. */
export function limitProblem(key: keyof LoopLimits, value: unknown): string | undefined {
  const { min, max } = LIMIT_RANGES[key];
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return undefined;
  return `${key} must be an integer from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`;
}

/**
 * How many subagents of one run may work at once (each in its own worker); further tasks wait
 * their turn. A limit on the machine, not a teaching variant: what the model sees is the same.
 */
export const SUBAGENTS_AT_ONCE = { default: 8, min: 1, max: 32 } as const;

/** Why a number of subagents at once is refused, or undefined when it is in its range. */
export function subagentsAtOnceProblem(value: unknown): string | undefined {
  const { min, max } = SUBAGENTS_AT_ONCE;
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return undefined;
  return `subagents at once must be an integer from ${min} to ${max}`;
}

/** Whether the limits differ from the reference's (the screen labels such a run). */
export function isReferenceLimits(limits: LoopLimits): boolean {
  return (Object.keys(REFERENCE_LIMITS) as Array<keyof LoopLimits>).every(
    (key) => limits[key] === REFERENCE_LIMITS[key],
  );
}

/** The parent's system prompt in `none` mode: the reference's previous agent (s02). */
export function soloSystem(workdir: string): string {
  return `You are a coding agent at ${workdir}. Use tools to solve tasks. Act, don't explain.`;
}

/** Whether a subagent at `depth` (the parent's subagents are at 1) may delegate in turn. */
export function mayDelegate(depth: number, limits: Pick<LoopLimits, 'delegationDepth'>): boolean {
  return depth <= limits.delegationDepth;
}

/**
 * A forked child's first array: a copy of the caller's messages before the assistant turn that
 * called `task`, then the task prompt as a user text. That history always ends with a user
 * message (the prompt, or tool results), and the API wants roles to alternate, so the prompt
 * joins it as a last text block.
 */
export function forkMessages(history: Message[], prompt: string): Message[] {
  const messages = structuredClone(history);
  const last = messages.at(-1);
  if (last?.role !== 'user') return [...messages, { role: 'user', content: prompt }];
  const blocks: Array<ToolResultBlock | TextBlock> =
    typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
  messages[messages.length - 1] = { role: 'user', content: [...blocks, { type: 'text', text: prompt }] };
  return messages;
}
