/**
 * The isolation check: did anything of the caller's conversation reach a subagent? For every call
 * a subagent made, what it sent (its messages, as the request carried them) is held against the
 * conversation of the agent whose `task` started it, as that conversation stood at the moment of
 * the call, byte for byte: a message, or a content block of one, whose JSON text is the same as one
 * of the caller's was carried over.
 *
 *   isolated (s04)   Subagent 1: 3 calls, none carried anything of Parent's conversation
 *   fork             Subagent 1: carried Parent's 4 messages, 12.3k characters
 *
 * Ids make the test exact: a tool call and its result carry their `tool_use` id, so a subagent that
 * ran the same command as its caller still sent its own result, not the caller's. A Claude Code
 * transcript holds no requests, so its subagents cannot be checked (`checkable` is false). Pure: it
 * reads a record, as the reducer does.
 */
import type { AgentId, Message } from '../core/messages';
import type { RunRecord } from './record';

/** One call of a subagent, checked. */
export interface CallCheck {
  /** Its number for its agent, from 1 (as the call ledger numbers it). */
  n: number;
  /** How many messages it sent. */
  sent: number;
  /** The indexes (in what it sent) of the messages that carried something of the caller's. */
  carried: number[];
  /** The characters of what was carried: whole messages, or the blocks carried within one. */
  chars: number;
}

/** One subagent's calls, checked against its caller's conversation. */
export interface AgentCheck {
  agent: AgentId;
  /** The agent whose `task` started it: the conversation checked against. */
  from: AgentId;
  calls: CallCheck[];
  /** The most any of its calls carried: messages and characters. */
  carriedMessages: number;
  carriedChars: number;
}

export interface IsolationCheck {
  /** Whether the record kept its calls' requests (a Claude Code transcript does not). */
  checkable: boolean;
  agents: AgentCheck[];
}

/** The JSON text of a message's blocks (a plain string prompt is one text block). */
function blocksOf(message: Message): string[] {
  if (typeof message.content === 'string') return [JSON.stringify({ type: 'text', text: message.content })];
  return message.content.map((block) => JSON.stringify(block));
}

/** Checks every call of every subagent of a record (`upTo`: as the record was after its first events). */
export function isolationCheck(record: RunRecord, upTo = record.events.length): IsolationCheck {
  const arrays = new Map<AgentId, Message[]>([['parent', []]]);
  const from = new Map<AgentId, AgentId>();
  const checks = new Map<AgentId, AgentCheck>();
  let requests = 0;
  let calls = 0;
  const events = record.events;
  const end = Math.min(upTo, events.length);
  for (let i = 0; i < end; i++) {
    const event = events[i];
    switch (event.type) {
      case 'spawn':
        arrays.set(event.agent, event.messages.slice());
        from.set(event.agent, event.from);
        checks.set(event.agent, {
          agent: event.agent,
          from: event.from,
          calls: [],
          carriedMessages: 0,
          carriedChars: 0,
        });
        break;
      case 'message': {
        const array = arrays.get(event.agent);
        if (!array) break;
        array.length = Math.min(array.length, event.index);
        array[event.index] = event.message;
        break;
      }
      case 'model_start': {
        const check = checks.get(event.agent);
        if (!check) break;
        calls++;
        if (!event.request) break;
        requests++;
        const sent = arrays.get(event.agent)!.slice(0, event.request.messages);
        const caller = arrays.get(from.get(event.agent)!) ?? [];
        check.calls.push({ n: check.calls.length + 1, sent: sent.length, ...carriedOf(sent, caller) });
        const last = check.calls.at(-1)!;
        check.carriedMessages = Math.max(check.carriedMessages, last.carried.length);
        check.carriedChars = Math.max(check.carriedChars, last.chars);
        break;
      }
      default:
        break;
    }
  }
  return { checkable: calls === 0 || requests > 0, agents: [...checks.values()] };
}

/** What of `sent` is the caller's, byte for byte: whole messages, or blocks within one. */
function carriedOf(
  sent: readonly Message[],
  caller: readonly Message[],
): { carried: number[]; chars: number } {
  if (caller.length === 0) return { carried: [], chars: 0 };
  const messages = new Set(caller.map((m) => JSON.stringify(m)));
  const blocks = new Set(caller.flatMap(blocksOf));
  const carried: number[] = [];
  let chars = 0;
  sent.forEach((message, index) => {
    const whole = JSON.stringify(message);
    if (messages.has(whole)) {
      carried.push(index);
      chars += whole.length;
      return;
    }
    // A fork's last caller message has the task prompt joined to it: its blocks are the caller's.
    const shared = blocksOf(message).filter((block) => blocks.has(block));
    if (shared.length) {
      carried.push(index);
      chars += shared.reduce((sum, block) => sum + block.length, 0);
    }
  });
  return { carried, chars };
}
