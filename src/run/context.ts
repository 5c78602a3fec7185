/**
 * The one measure of context (docs/protocol.md, "How a saving is counted"): an agent's context at
 * a moment is what its next model call would send, its system prompt, the tools offered and its
 * messages array as it stands, in tokens.
 *
 * - A real model counted it: the latest call's input tokens (both cache fields included), plus that
 *   call's output tokens (its reply is now in the array), plus what was added since (tool results,
 *   estimated).
 * - Otherwise (the demo model, a record without usage): about four characters a token, marked `~`.
 *
 * Every figure on screen (the header, the columns, the chart, the comparison, History) is made by
 * `contextTokens` from a `Meter` that the reducer (./reduce.ts) and the chart's calls
 * (./measures.ts) keep with the same three functions below.
 */
import type { AgentId, Usage } from '../core/messages';
import { CHILD_TOOLS, PARENT_TOOLS, parentSystem, subagentSystem } from '../core/tools';
import { mayDelegate, soloSystem } from '../core/variants';
import type { RunSettings } from './record';

/** A rough token estimate for text the API has not counted: about four characters a token. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** The context a call's usage counts as sent: input plus both cache fields. */
export function contextOf(usage: Usage): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/** What an agent's context is measured from, besides its array's size (which the caller keeps). */
export interface Meter {
  /** The characters of its system prompt and tools, sent with every call. */
  readonly overhead: number;
  /** Its latest call a real model counted in full, or null (estimate). */
  readonly count: Count | null;
  /** What that call sent, in tokens (a later count below it was not a full count). */
  readonly sent: number;
  /** A count came back smaller than one before it: this agent's usage is not complete. */
  readonly partial: boolean;
}

interface Count {
  /** Input (both cache fields) plus output tokens of the call. */
  readonly tokens: number;
  /** The array's characters once the call's reply was appended; null until it is. */
  readonly at: number | null;
}

/** An agent's context: its tokens and whether a real model counted them (else marked `~`). */
export interface Context {
  tokens: number;
  counted: boolean;
}

/**
 * The characters of what an agent sends besides its array: its system prompt and tools (the
 * working directory's path aside, which the record does not keep). `depth`: 0 for the parent.
 */
export function overheadChars(settings: RunSettings | null, depth: number): number {
  const mode = settings?.context ?? 'isolated';
  if (depth === 0) {
    const solo = mode === 'none';
    return (solo ? soloSystem('') : parentSystem('')).length + toolChars(solo ? 'child' : 'parent');
  }
  const delegates = settings !== null && mayDelegate(depth, settings.limits);
  return subagentSystem('').length + toolChars(delegates ? 'parent' : 'child');
}

const toolSizes = {
  parent: JSON.stringify(PARENT_TOOLS).length,
  child: JSON.stringify(CHILD_TOOLS).length,
};

function toolChars(kind: 'parent' | 'child'): number {
  return toolSizes[kind];
}

/** A new agent's meter: nothing counted yet. */
export function newMeter(overhead: number): Meter {
  return { overhead, count: null, sent: 0, partial: false };
}

/**
 * A call ended with `usage` (only a real model's counts: the demo's usage is its own estimate).
 * A count smaller than what the agent sent before cannot be complete (its array only grows: the
 * provider left cached tokens out without saying so); from then on the agent is estimated.
 */
export function counted(meter: Meter, usage: Usage): Meter {
  const sent = contextOf(usage);
  if (meter.partial || sent < meter.sent) return { ...meter, count: null, partial: true };
  return { ...meter, sent, count: { tokens: sent + usage.output_tokens, at: null } };
}

/**
 * The agent's context changed for a reason of its own (a `context_reset` event of the record: a
 * compaction, or its next call going to another model). Nothing counted before it is a baseline:
 * a smaller count after it is the agent's own doing, never the provider's, so it does not make the
 * agent `partial`; and until its next call reports, its context is estimated from its array.
 */
export function contextReset(meter: Meter): Meter {
  return { ...meter, count: null, sent: 0, partial: false };
}

/** The agent's reply was appended: its array is now `chars` characters. */
export function replied(meter: Meter, chars: number): Meter {
  if (!meter.count || meter.count.at !== null) return meter;
  return { ...meter, count: { ...meter.count, at: chars } };
}

/** The one measure: an agent's context now, its array being `chars` characters. */
export function contextTokens(meter: Meter, chars: number): Context {
  const count = meter.count;
  if (count) {
    const since = count.at === null ? 0 : Math.max(0, chars - count.at);
    return { tokens: count.tokens + estimateTokens(since), counted: true };
  }
  return { tokens: estimateTokens(meter.overhead + chars), counted: false };
}

/** How deep an agent sits: 0 for the parent, 1 for its subagents, and so on (`from`: who started whom). */
export function depthOf(agent: AgentId, from: ReadonlyMap<AgentId, AgentId>): number {
  let depth = 0;
  for (let id: AgentId | undefined = agent; id !== undefined && id !== 'parent'; id = from.get(id)) depth++;
  return depth;
}
