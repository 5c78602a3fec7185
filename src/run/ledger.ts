/**
 * The call ledger: every model call of every agent, with what it sent and what it received, in
 * tokens. Every figure on screen reads it (docs/protocol.md, "How a saving is counted"): the
 * header, the columns, the chart and its table, the Model call dialog, Compare, History and the
 * captions. The reducer (./reduce.ts) keeps it as it keeps the arrays, one event
 * at a time, so every step of a run has its ledger as it stood then, at no extra cost.
 *
 *   model_start  ─►  a new entry: "Parent call 2" (calls are numbered per agent, from 1)
 *                    sent = system + tools + messages, estimated (./tokens.ts)
 *   model_end    ─►  a real model's usage replaces the estimate: sent = input + cache read +
 *                    cache write (the three kept apart), received = output
 *   message      ─►  the reply is appended; an estimated call's received is its size
 *
 * An agent's context at a moment is what its next call would send: its latest call's sent plus
 * received, plus what was added to its array since (tool results, estimated). Before its first
 * call: its system prompt, tools and array, estimated. A subagent's context at return is its
 * last call's sent plus received: never sent anywhere, since its array is discarded with it.
 */
import type { AgentId, Usage } from '../core/messages';
import type { SentBody } from '../core/model';
import { List } from './list';
import { jsonTokens } from './tokens';

/** What a request carried, in tokens: its system prompt, the tools offered and its messages. */
export interface SentParts {
  readonly system: number;
  readonly tools: number;
  readonly messages: number;
}

/** The input a real model counted, in its three parts (their sum is what the call sent). */
export interface InputParts {
  /** Input read at the full rate (the API's `input_tokens`). */
  readonly uncached: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** One model call of one agent. */
export interface CallEntry {
  readonly agent: AgentId;
  /** Its number for its agent, from 1, across every prompt of the record ("Parent call 2"). */
  readonly n: number;
  /** Its number in the run, from 1, across all agents in the order calls started (the chart's x). */
  readonly seq: number;
  /** Index in the record of its `model_start`. */
  readonly event: number;
  readonly start: number;
  readonly end: number | null;
  /** The model the request named (null: the record did not keep the body). */
  readonly model: string | null;
  /** What it sent, part by part, estimated (a real model counts only the whole). */
  readonly parts: SentParts;
  /** What it sent, in tokens: the API's count when `counted`, else the sum of `parts`. */
  readonly sent: number;
  /** The API's input in its three parts, when it counted them. */
  readonly input: InputParts | null;
  /** What came back, in tokens: the API's output count, or the reply's size estimated. */
  readonly received: number;
  /** Whether `sent` and `received` are a real model's counts (else estimates, marked once). */
  readonly counted: boolean;
  /** Whether its reply was appended to the agent's array. */
  readonly replied: boolean;
  readonly stopReason: string | null;
}

/** One agent's side of the ledger, kept in its state by the reducer. */
export interface AgentLedger {
  /** Its system prompt and tools, estimated: what a call sends besides the array, before one is made. */
  readonly overhead: SentParts;
  /** How many calls it made. */
  readonly calls: number;
  /**
   * Its calls before the latest, which nothing changes any more, and its latest: only the latest
   * is ever updated (its end, its reply), so a state never copies the others.
   */
  readonly done: List<CallEntry>;
  readonly current: CallEntry | null;
  /** Sums over its calls: what they sent and received. */
  readonly sent: number;
  readonly received: number;
  /** Sums of the three input parts over its counted calls. */
  readonly input: InputParts;
  /** How many of its calls are estimates. */
  readonly estimated: number;
  /** Its array's tokens when its latest call started, and when that call's reply was appended. */
  readonly sentAt: number;
  readonly replyAt: number | null;
  /**
   * A counted call sent less than the one before it, though an array only grows: the provider
   * left part of the input out (cached tokens, often). Its context is then estimated.
   */
  readonly partial: boolean;
  /** What its latest counted call sent (0 before one). */
  readonly lastCounted: number;
}

const NO_INPUT: InputParts = { uncached: 0, cacheRead: 0, cacheWrite: 0 };

/** An agent's ledger before its first call. */
export function newAgentLedger(overhead: SentParts): AgentLedger {
  return {
    overhead,
    calls: 0,
    done: List.of(),
    current: null,
    sent: 0,
    received: 0,
    input: NO_INPUT,
    estimated: 0,
    sentAt: 0,
    replyAt: null,
    partial: false,
    lastCounted: 0,
  };
}

/** The sum of a request's parts. */
export function partsTotal(parts: SentParts): number {
  return parts.system + parts.tools + parts.messages;
}

/** The context a call's usage counts as sent: input plus both cache fields. */
export function contextOf(usage: Usage): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/**
 * A call starts: the agent's ledger with its entry. `arrayTokens(count)`: the tokens of the first
 * `count` messages of the agent's array; `body`: the request as recorded, if it was.
 */
export function callStarted(
  agent: AgentLedger,
  at: { agent: AgentId; seq: number; event: number; t: number },
  body: SentBody | undefined,
  arrayLength: number,
  arrayTokens: (count: number) => number,
): AgentLedger {
  const count = body ? Math.min(body.messages, arrayLength) : arrayLength;
  const parts: SentParts = {
    system: body && 'system' in body ? jsonTokens(body.system) : agent.overhead.system,
    tools: body && 'tools' in body ? toolTokens(body.tools) : agent.overhead.tools,
    messages: arrayTokens(count),
  };
  const sent = partsTotal(parts);
  const entry: CallEntry = {
    agent: at.agent,
    n: agent.calls + 1,
    seq: at.seq,
    event: at.event,
    start: at.t,
    end: null,
    model: typeof body?.model === 'string' ? body.model : null,
    parts,
    sent,
    input: null,
    received: 0,
    counted: false,
    replied: false,
    stopReason: null,
  };
  return {
    ...agent,
    calls: agent.calls + 1,
    done: agent.current ? agent.done.push(agent.current) : agent.done,
    current: entry,
    sent: agent.sent + sent,
    estimated: agent.estimated + 1,
    sentAt: arrayTokens(arrayLength),
    replyAt: null,
  };
}

// The same tools are offered with every call: their estimate is made once per list.
const toolEstimates = new WeakMap<object, number>();

function toolTokens(tools: unknown): number {
  if (typeof tools !== 'object' || tools === null) return jsonTokens(tools);
  let tokens = toolEstimates.get(tools);
  if (tokens === undefined) toolEstimates.set(tools, (tokens = jsonTokens(tools)));
  return tokens;
}

/**
 * The agent's latest call ended; `usage` only when a real model counted it (the demo's usage is
 * its own estimate).
 */
export function callEnded(
  agent: AgentLedger,
  end: { t: number; stopReason: string | null },
  usage: Usage | undefined,
): AgentLedger {
  const entry = agent.current;
  if (!entry || entry.end !== null) return agent;
  if (!usage) return { ...agent, current: { ...entry, end: end.t, stopReason: end.stopReason } };
  const sent = contextOf(usage);
  const input: InputParts = {
    uncached: usage.input_tokens,
    cacheRead: usage.cache_read_input_tokens ?? 0,
    cacheWrite: usage.cache_creation_input_tokens ?? 0,
  };
  const counted: CallEntry = {
    ...entry,
    end: end.t,
    stopReason: end.stopReason,
    sent,
    input,
    // The reply's size was estimated if it was appended first: the count replaces it.
    received: usage.output_tokens,
    counted: true,
  };
  return {
    ...agent,
    current: counted,
    sent: agent.sent - entry.sent + sent,
    received: agent.received - entry.received + counted.received,
    input: {
      uncached: agent.input.uncached + input.uncached,
      cacheRead: agent.input.cacheRead + input.cacheRead,
      cacheWrite: agent.input.cacheWrite + input.cacheWrite,
    },
    estimated: agent.estimated - (entry.counted ? 0 : 1),
    partial: agent.partial || sent < agent.lastCounted,
    lastCounted: sent,
  };
}

/**
 * The agent's context changed for a reason of its own (a `context_reset` event of the record: its
 * array was compacted, or its next call goes to another model). Nothing counted before it is a
 * baseline: a smaller count after it is the agent's own doing, never the provider's, so it does not
 * make the agent `partial` (and a `partial` from before is over: its counts are no longer compared).
 */
export function contextReset(agent: AgentLedger): AgentLedger {
  return agent.partial || agent.lastCounted !== 0 ? { ...agent, partial: false, lastCounted: 0 } : agent;
}

/**
 * An assistant message was appended: the latest call's reply, unless that one has its reply
 * already. `arrayTokens`: the array's tokens now; `reply`: the reply's.
 */
export function replyAppended(agent: AgentLedger, arrayTokens: number, reply: number): AgentLedger {
  const entry = agent.current;
  if (!entry || entry.replied) return agent;
  const received = entry.counted ? entry.received : reply;
  return {
    ...agent,
    current: { ...entry, replied: true, received },
    received: agent.received - entry.received + received,
    replyAt: arrayTokens,
  };
}

/** An agent's context: its tokens, and whether a real model counted them (else marked estimated). */
export interface Context {
  tokens: number;
  counted: boolean;
}

/** The one measure: an agent's context now, what its next call would send; `arrayTokens`: its array's tokens now. */
export function contextNow(ledger: AgentLedger, arrayTokens: number): Context {
  const last = ledger.current;
  const estimate = { tokens: partsTotal({ ...ledger.overhead, messages: arrayTokens }), counted: false };
  if (!last) return estimate;
  if (!last.replied) {
    // The call is at work: its agent's context is what it sent, unless the array changed since.
    return arrayTokens === ledger.sentAt ? { tokens: last.sent, counted: last.counted } : estimate;
  }
  const since = arrayTokens - (ledger.replyAt ?? arrayTokens);
  if (since < 0) return estimate; // the array was cut back (a stopped turn left out)
  if (last.counted && ledger.partial) return estimate;
  return { tokens: last.sent + last.received + since, counted: last.counted };
}

/** An agent's calls, in order. */
export function entriesOf(ledger: AgentLedger): CallEntry[] {
  const entries = ledger.done.toArray();
  if (ledger.current) entries.push(ledger.current);
  return entries;
}

/** An agent's call `n` (from 1), or null. */
export function entryOf(ledger: AgentLedger, n: number): CallEntry | null {
  if (n === ledger.calls) return ledger.current;
  return ledger.done.at(n - 1) ?? null;
}
