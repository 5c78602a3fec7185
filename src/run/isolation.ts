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
  /** The index of its spawn in the record. */
  spawned: number;
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

/** A check in figures, for a run of more subagents than a list can show at a glance. */
export interface IsolationSummary {
  /** The subagents checked (those that have made no call yet among them). */
  agents: number;
  /** Their calls, all checked. */
  calls: number;
  /** The subagents at least one of whose calls carried something of their caller's. */
  carried: number;
}

/** The check's figures in all: the same per-subagent results the list shows, counted. */
export function isolationSummary(check: IsolationCheck): IsolationSummary {
  let calls = 0;
  let carried = 0;
  for (const agent of check.agents) {
    calls += agent.calls.length;
    if (agent.carriedMessages > 0) carried++;
  }
  return { agents: check.agents.length, calls, carried };
}

/** The JSON text of a message's blocks (a plain string prompt is one text block). */
function blocksOf(message: Message): string[] {
  if (typeof message.content === 'string') return [JSON.stringify({ type: 'text', text: message.content })];
  return message.content.map((block) => JSON.stringify(block));
}

/** One agent's array, with its messages' and blocks' JSON kept to look up. */
class Conversation {
  readonly keys: string[] = [];
  readonly blocks: string[][] = [];
  #messageSet: Set<string> | null = null;
  #blockSet: Set<string> | null = null;

  constructor(messages: readonly Message[]) {
    messages.forEach((message, index) => this.put(index, message));
  }

  put(index: number, message: Message): void {
    if (index < this.keys.length) {
      // Rewritten (a follow-up prompt dropped a stopped turn): the look-ups are made again.
      this.keys.length = this.blocks.length = index;
      this.#messageSet = this.#blockSet = null;
    }
    const key = JSON.stringify(message);
    const blocks = blocksOf(message);
    this.keys[index] = key;
    this.blocks[index] = blocks;
    this.#messageSet?.add(key);
    if (this.#blockSet) for (const block of blocks) this.#blockSet.add(block);
  }

  get messageSet(): Set<string> {
    return (this.#messageSet ??= new Set(this.keys));
  }

  get blockSet(): Set<string> {
    return (this.#blockSet ??= new Set(this.blocks.flat()));
  }
}

/** A record's check as far as it was read: read on from there when the record grows. */
interface Progress {
  read: number;
  arrays: Map<AgentId, Conversation>;
  from: Map<AgentId, AgentId>;
  checks: Map<AgentId, AgentCheck & { events: number[] }>;
  calls: number;
  requests: number;
}

const progress = new WeakMap<RunRecord, Progress>();

/**
 * Checks every call of every subagent of a record, as the record was after its first `upTo`
 * events. A record only grows: what was read is kept, and a live run's next look reads only the
 * events added since.
 */
export function isolationCheck(record: RunRecord, upTo = record.events.length): IsolationCheck {
  let p = progress.get(record);
  if (!p || p.read > record.events.length) {
    p = {
      read: 0,
      arrays: new Map([['parent', new Conversation([])]]),
      from: new Map(),
      checks: new Map(),
      calls: 0,
      requests: 0,
    };
    progress.set(record, p);
  }
  read(record, p);
  const agents: AgentCheck[] = [];
  for (const check of p.checks.values()) {
    if (check.spawned >= upTo) continue;
    let shown = 0;
    while (shown < check.events.length && check.events[shown] < upTo) shown++;
    const calls = check.calls.slice(0, shown);
    agents.push({
      agent: check.agent,
      from: check.from,
      spawned: check.spawned,
      calls,
      carriedMessages: Math.max(0, ...calls.map((c) => c.carried.length)),
      carriedChars: Math.max(0, ...calls.map((c) => c.chars)),
    });
  }
  return { checkable: p.calls === 0 || p.requests > 0, agents };
}

function read(record: RunRecord, p: Progress): void {
  const events = record.events;
  for (; p.read < events.length; p.read++) {
    const event = events[p.read];
    switch (event.type) {
      case 'spawn':
        p.arrays.set(event.agent, new Conversation(event.messages));
        p.from.set(event.agent, event.from);
        p.checks.set(event.agent, {
          agent: event.agent,
          from: event.from,
          spawned: p.read,
          calls: [],
          carriedMessages: 0,
          carriedChars: 0,
          events: [],
        });
        break;
      case 'message': {
        const array = p.arrays.get(event.agent);
        array?.put(event.index, event.message);
        break;
      }
      case 'model_start': {
        const check = p.checks.get(event.agent);
        if (!check) break;
        p.calls++;
        if (!event.request) break;
        p.requests++;
        const sent = p.arrays.get(event.agent)!;
        const count = Math.min(event.request.messages, sent.keys.length);
        const caller = p.arrays.get(p.from.get(event.agent)!) ?? new Conversation([]);
        check.calls.push({ n: check.calls.length + 1, sent: count, ...carriedOf(sent, count, caller) });
        check.events.push(p.read);
        break;
      }
      default:
        break;
    }
  }
}

/** What of the first `count` messages of `sent` is the caller's, byte for byte: whole, or by blocks. */
function carriedOf(
  sent: Conversation,
  count: number,
  caller: Conversation,
): { carried: number[]; chars: number } {
  const carried: number[] = [];
  let chars = 0;
  if (caller.keys.length === 0) return { carried, chars };
  for (let index = 0; index < count; index++) {
    const whole = sent.keys[index];
    if (caller.messageSet.has(whole)) {
      carried.push(index);
      chars += whole.length;
      continue;
    }
    // A fork's last caller message has the task prompt joined to it: its blocks are the caller's.
    const shared = sent.blocks[index].filter((block) => caller.blockSet.has(block));
    if (shared.length) {
      carried.push(index);
      chars += shared.reduce((sum, block) => sum + block.length, 0);
    }
  }
  return { carried, chars };
}
