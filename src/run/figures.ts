/**
 * What the screen reads of an array besides the ledger's figures (./measures.ts): its size as it
 * would be sent, the summary's place, what History lists, what can be sent again.
 */
import type { Message } from '../core/messages';
import { agentFigures } from './measures';
import type { AgentView, RunView } from './view';
import { messageChars } from './size';

/** The size of a messages array as it would be sent: its JSON text. */
export function arrayChars(messages: readonly Message[]): number {
  let chars = 0;
  for (const message of messages) chars += messageChars(message);
  return chars;
}

/** Index of the message that holds the final text a subagent returned, or -1. */
export function summaryIndex(agent: AgentView): number {
  if (agent.summary === null) return -1;
  for (let i = agent.messages.length - 1; i >= 0; i--) {
    if (agent.messages[i].role === 'assistant') return i;
  }
  return -1;
}

/** What History lists of a run: the parent's context at the end, calls and subagents. */
export function runFigures(view: RunView) {
  const parent = agentFigures(view.parent);
  return {
    parentTokens: parent.context,
    counted: parent.counted,
    calls: view.parent.calls + view.subagents.reduce((sum, a) => sum + a.calls, 0),
    subagents: view.subagents.length,
  };
}

/**
 * The part of a history that can be sent again: it ends with a finished assistant turn. A run
 * stopped mid-turn leaves a prompt without an answer or a tool_use without results, which the
 * API would reject next time, so such a tail is left out (it stays on screen until replaced).
 */
export function resumableHistory(messages: readonly Message[]): Message[] {
  let end = messages.length;
  while (end > 0) {
    const last = messages[end - 1];
    if (last.role === 'assistant' && !last.content.some((b) => b.type === 'tool_use')) break;
    end--;
  }
  return messages.slice(0, end);
}
