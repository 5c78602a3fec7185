/**
 * What an agent sends besides its array: its system prompt and the tools offered, which follow
 * its depth and the run's context mode (docs/protocol.md). The call ledger (./ledger.ts) starts
 * each agent's estimate from them, before a call's recorded body says exactly what it sent.
 */
import type { AgentId } from '../core/messages';
import { CHILD_TOOLS, PARENT_TOOLS, parentSystem, subagentSystem } from '../core/tools';
import { mayDelegate, soloSystem } from '../core/variants';
import type { SentParts } from './ledger';
import type { RunSettings } from './record';
import { jsonTokens, textTokens } from './tokens';

/** The system prompt and the tools of an agent (`depth`: 0 for the parent), as strings sent. */
export function overheadTexts(
  settings: RunSettings | null,
  depth: number,
): { system: string; tools: string } {
  const mode = settings?.context ?? 'isolated';
  if (depth === 0) {
    const solo = mode === 'none';
    return { system: solo ? soloSystem('') : parentSystem(''), tools: toolTexts[solo ? 'child' : 'parent'] };
  }
  const delegates = settings !== null && mayDelegate(depth, settings.limits);
  return { system: subagentSystem(''), tools: toolTexts[delegates ? 'parent' : 'child'] };
}

const toolTexts = {
  parent: JSON.stringify(PARENT_TOOLS),
  child: JSON.stringify(CHILD_TOOLS),
};

const overheads = new Map<string, SentParts>();

/**
 * An agent's system prompt and tools in tokens, estimated (the working directory's path aside,
 * which the record does not keep): what its calls send besides the array.
 */
export function overheadTokens(settings: RunSettings | null, depth: number): SentParts {
  const { system, tools } = overheadTexts(settings, depth);
  const key = `${system}\u0000${tools}`;
  let parts = overheads.get(key);
  if (!parts)
    overheads.set(key, (parts = { system: textTokens(system), tools: jsonTokens(tools), messages: 0 }));
  return parts;
}

/** How deep an agent sits: 0 for the parent, 1 for its subagents, and so on (`from`: who started whom). */
export function depthOf(agent: AgentId, from: ReadonlyMap<AgentId, AgentId>): number {
  let depth = 0;
  for (let id: AgentId | undefined = agent; id !== undefined && id !== 'parent'; id = from.get(id)) depth++;
  return depth;
}
