/**
 * What the chart, Compare, History and the opened-session banner read of a run: all from the call
 * ledger (./ledger.ts) as the reducer keeps it, never counted again. The chart "Context per model
 * call" plots what each call sent; Compare reads a run's totals and the saving. The "Workers
 * timeline" reads ./timeline.ts.
 */
import type { AgentId } from '../core/messages';
import { entriesOf, entryOf, type CallEntry, type InputParts } from './ledger';
import type { RunRecord } from './record';
import { reduceAll } from './reduce-range';
import { textTokens } from './tokens';
import type { AgentView, RunView } from './view';

export type { CallEntry } from './ledger';

export interface TaskSpan {
  agent: AgentId;
  from: AgentId;
  /** How many calls of the run (CallEntry.seq) had started when it started, and when it returned. */
  startAfter: number;
  endAfter: number | null;
  state: 'running' | 'discarded' | 'stopped' | 'failed' | 'missing';
}

/** The ledger of a run as one list: every call of every agent, in the order they started. */
export interface RunLedger {
  calls: CallEntry[];
  tasks: TaskSpan[];
}

const ledgers = new WeakMap<RunView, RunLedger>();

/** The ledger of a view (a run at one step): made once per view. */
export function ledgerOf(view: RunView): RunLedger {
  let ledger = ledgers.get(view);
  if (ledger) return ledger;
  const agents = [view.parent, ...view.subagents];
  const calls = agents.flatMap((agent) => entriesOf(agent.ledger)).sort((a, b) => a.seq - b.seq);
  const tasks = view.subagents.map((agent): TaskSpan => ({
    agent: agent.id,
    from: agent.from ?? 'parent',
    startAfter: agent.startAfter,
    endAfter: agent.endAfter,
    state:
      agent.state === 'discarded' ||
      agent.state === 'stopped' ||
      agent.state === 'failed' ||
      agent.state === 'missing'
        ? agent.state
        : 'running',
  }));
  ledgers.set(view, (ledger = { calls, tasks }));
  return ledger;
}

/** Every model call of a record, with what it sent and received (the ledger at the record's end). */
export function modelCalls(record: RunRecord): RunLedger {
  return ledgerOf(reduceAll(record.events));
}

/**
 * How many of `calls` (in start order, as the ledger gives them) started at or before the
 * record's event `upTo`: found by halving, so that a step reads a few calls, not all of them.
 */
export function callsUpTo(calls: readonly CallEntry[], upTo: number): number {
  let lo = 0;
  let hi = calls.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (calls[mid].event <= upTo) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One agent's figures at a step: its context, and what its calls sent and received in all. */
export interface AgentFigures {
  /** What its next call would send (the one measure), in tokens. */
  context: number;
  /** Whether a real model counted it (else an estimate, marked once per view). */
  counted: boolean;
  calls: number;
  /** Summed over its calls: what they sent (the column's "sent") and received. */
  sent: number;
  received: number;
  /** The API's input in its three parts, summed over its counted calls. */
  input: InputParts;
  /** Whether every one of its calls was counted by the API. */
  allCounted: boolean;
  /** A subagent's context when it returned: its peak, never sent (null before it ended or called). */
  atReturn: number | null;
}

/** An agent's figures, read from its view (its ledger as the step left it). */
export function agentFigures(agent: AgentView): AgentFigures {
  const ledger = agent.ledger;
  const ended = agent.id !== 'parent' && agent.summary !== null;
  return {
    context: agent.context.tokens,
    counted: agent.context.counted,
    calls: ledger.calls,
    sent: ledger.sent,
    received: ledger.received,
    input: ledger.input,
    allCounted: ledger.calls > 0 && ledger.estimated === 0,
    atReturn: ended && ledger.calls > 0 ? agent.context.tokens : null,
  };
}

/** The `n`-th call (from 1) of an agent of a view, or null. */
export function callOf(view: RunView, agent: AgentId, n: number): CallEntry | null {
  const shown = agent === 'parent' ? view.parent : view.subagents.find((a) => a.id === agent);
  return shown ? entryOf(shown.ledger, n) : null;
}

export interface RunTotals {
  /** The parent's context at the end, by the one measure, as the header shows it. */
  parentContext: number;
  /** Every call's sent plus received, summed over all agents. */
  cost: number;
  calls: number;
  sent: number;
  received: number;
  /** The API's input in its three parts, summed over every counted call. */
  input: InputParts;
  /** Every call was counted by the API. */
  counted: boolean;
  agents: number;
  subagents: number;
  /** The subagents' contexts when they returned (their peaks, never sent), summed. */
  subagentsPeak: number;
  /** What came back to their callers: the final texts, estimated. */
  cameBack: number;
  /** The parent's system prompt and tools: sent with every call whatever the mode. */
  overhead: number;
}

/** A run's totals at a view's step (docs/protocol.md, "How a saving is counted"). */
export function viewTotals(view: RunView): RunTotals {
  const agents = [view.parent, ...view.subagents];
  const figures = agents.map(agentFigures);
  const sum = (pick: (f: AgentFigures) => number) => figures.reduce((total, f) => total + pick(f), 0);
  const parent = figures[0];
  const overhead = view.parent.ledger.overhead;
  return {
    parentContext: parent.calls ? parent.context : 0,
    cost: sum((f) => f.sent + f.received),
    calls: sum((f) => f.calls),
    sent: sum((f) => f.sent),
    received: sum((f) => f.received),
    input: {
      uncached: sum((f) => f.input.uncached),
      cacheRead: sum((f) => f.input.cacheRead),
      cacheWrite: sum((f) => f.input.cacheWrite),
    },
    counted:
      figures.some((f) => f.calls > 0) &&
      figures.every((f) => f.calls === 0 || f.allCounted) &&
      parent.counted,
    agents: figures.filter((f) => f.calls > 0).length,
    subagents: view.subagents.length,
    subagentsPeak: sum((f) => f.atReturn ?? 0),
    cameBack: view.subagents.reduce((total, a) => total + textTokens(a.summary ?? ''), 0),
    overhead: overhead.system + overhead.tools,
  };
}

/** A record's totals at its end. */
export function runTotals(record: RunRecord): RunTotals {
  return viewTotals(reduceAll(record.events));
}

/** 1 - isolated / none, in whole percent (docs/protocol.md): the saving Compare shows. */
export function savingOf(
  isolated: Pick<RunTotals, 'parentContext'>,
  none: Pick<RunTotals, 'parentContext'>,
): number {
  return Math.round((1 - isolated.parentContext / none.parentContext) * 100);
}

/** What isolation saved in one run with subagents (an opened Claude Code session). */
export interface RunSaving {
  /** The parent's context at the end, as it ran. */
  isolated: number;
  /** What it would hold had it done its subagents' work itself. */
  none: number;
  /** savingOf(isolated, none), in percent. */
  saving: number;
}

/**
 * The saving of isolation in one run, counted as Compare counts it, without a second run: the
 * parent's context at the end, against that context plus what each subagent's context grew by
 * while it worked (its context at return, less what its first call sent: the task prompt it
 * started from is in the parent's array already). Null without a subagent call or a parent call.
 */
export function runSaving(record: RunRecord): RunSaving | null {
  const view = reduceAll(record.events);
  const isolated = view.parent.ledger.calls ? view.parent.context.tokens : 0;
  let none = isolated;
  let subagents = 0;
  for (const agent of view.subagents) {
    const first = entryOf(agent.ledger, 1);
    if (!first) continue;
    subagents++;
    none += Math.max(0, agent.context.tokens - first.sent);
  }
  if (isolated === 0 || subagents === 0) return null;
  return { isolated, none, saving: savingOf({ parentContext: isolated }, { parentContext: none }) };
}
