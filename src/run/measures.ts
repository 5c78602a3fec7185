/**
 * What the chart and the comparison read from a record: every model call with its agent's context
 * (the chart "Context per model call"), a run's totals and the saving (the comparison). Pure
 * functions of the record, like the view; the "Workers timeline" reads ./timeline.ts.
 *
 * A call's context is its agent's context once it replied, by the one measure (./context.ts,
 * docs/protocol.md); what it sent is kept beside it for the cost.
 */
import type { AgentId, Message } from '../core/messages';
import {
  contextOf,
  contextTokens,
  contextReset,
  counted,
  depthOf,
  estimateTokens,
  newMeter,
  overheadChars,
  replied,
  type Meter,
} from './context';
import { agentFigures } from './figures';
import { messageChars } from './size';
import type { RunRecord, RunSettings } from './record';
import { reduceAll } from './reduce-range';
import type { RunView } from './view';

export interface CallPoint {
  /** 1, 2, ... in the order calls were made across all agents. */
  n: number;
  agent: AgentId;
  /** The agent's own call number. */
  call: number;
  /** What the request sent, in tokens (counted, or estimated like its context). */
  sent: number;
  /**
   * The agent's context once the call replied, by the one measure (./context.ts): what its next
   * call would send. While the call runs, what it sent.
   */
  context: number;
  output: number;
  /** A real model counted it; else it is an estimate. */
  counted: boolean;
  /** Index in the record of the call's `model_start`. */
  event: number;
  start: number;
  end: number | null;
}

export interface TaskSpan {
  agent: AgentId;
  from: AgentId;
  /** The call number (CallPoint.n) after which it started, and after which it returned. */
  startAfter: number;
  endAfter: number | null;
  state: 'running' | 'discarded' | 'stopped' | 'failed' | 'missing';
}

export interface RunTotals {
  /** The parent's context at the end, by the one measure (./context.ts), as the header shows it. */
  parentContext: number;
  /** Every call's input (what it sent) plus output, summed over all agents. */
  cost: number;
  calls: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
  counted: boolean;
  agents: number;
  /** What drove the saving: the subagents' contexts when they returned, summed (what they read). */
  subagentsRead: number;
  /** What came back to their callers: the final texts, estimated. */
  cameBack: number;
  /** The parent's system prompt and tools, estimated: sent with every call whatever the mode. */
  overhead: number;
}

/** Every model call of a record, with what it sent and the agent's context once it replied. */
export function modelCalls(record: RunRecord): { calls: CallPoint[]; tasks: TaskSpan[] } {
  let real = record.settings.provider === 'anthropic';
  let settings: RunSettings = record.settings;
  // Each agent's array as running sums of its messages' sizes: sums[i] = chars of messages 0..i-1.
  const sums = new Map<AgentId, number[]>([['parent', [0]]]);
  const meters = new Map<AgentId, Meter>([['parent', newMeter(overheadChars(settings, 0))]]);
  const from = new Map<AgentId, AgentId>();
  const sized = (messages: readonly Message[]) => {
    const out = [0];
    for (const m of messages) out.push(out[out.length - 1] + messageChars(m));
    return out;
  };
  const now = (agent: AgentId) =>
    contextTokens(meters.get(agent) ?? newMeter(0), sums.get(agent)?.at(-1) ?? 0);
  const open = new Map<AgentId, CallPoint>();
  const calls: CallPoint[] = [];
  const tasks: TaskSpan[] = [];
  record.events.forEach((event, i) => {
    switch (event.type) {
      case 'run': {
        settings = event.settings;
        real = settings.provider === 'anthropic';
        const meter = meters.get('parent')!;
        meters.set('parent', { ...meter, overhead: overheadChars(settings, 0) });
        break;
      }
      case 'spawn':
        sums.set(event.agent, sized(event.messages));
        from.set(event.agent, event.from);
        meters.set(event.agent, newMeter(overheadChars(settings, depthOf(event.agent, from))));
        tasks.push({
          agent: event.agent,
          from: event.from,
          startAfter: calls.length,
          endAfter: null,
          state: 'running',
        });
        break;
      case 'agent_state': {
        const task = tasks.find((t) => t.agent === event.agent);
        if (task) {
          task.endAfter = calls.length;
          task.state = event.state;
        }
        break;
      }
      case 'message': {
        const sum = sums.get(event.agent) ?? [0];
        sum.length = event.index + 1;
        sum.push(sum[event.index] + messageChars(event.message));
        sums.set(event.agent, sum);
        if (event.message.role !== 'assistant') break;
        const meter = meters.get(event.agent);
        if (meter) meters.set(event.agent, replied(meter, sum[sum.length - 1]));
        const last = calls.findLast((c) => c.agent === event.agent);
        if (!last) break;
        // An estimated call's output is the size of the response it appended.
        if (!last.counted) last.output = estimateTokens(messageChars(event.message));
        const context = now(event.agent);
        last.context = context.tokens;
        last.counted = last.counted && context.counted;
        break;
      }
      case 'context_reset': {
        // A compaction or a model switch: the count before it is no baseline (./context.ts).
        const meter = meters.get(event.agent);
        if (meter) meters.set(event.agent, contextReset(meter));
        break;
      }
      case 'model_start': {
        const context = now(event.agent);
        const point: CallPoint = {
          n: calls.length + 1,
          agent: event.agent,
          call: event.call,
          sent: context.tokens,
          context: context.tokens,
          output: 0,
          counted: false,
          event: i,
          start: event.t,
          end: null,
        };
        calls.push(point);
        open.set(event.agent, point);
        break;
      }
      case 'model_end': {
        const point = open.get(event.agent);
        if (!point) break;
        open.delete(event.agent);
        point.end = event.t;
        const meter = meters.get(event.agent);
        if (!real || !event.usage || !meter) break;
        const next = counted(meter, event.usage);
        meters.set(event.agent, next);
        if (!next.count) break; // not a full count: this agent is estimated
        point.sent = contextOf(event.usage);
        point.output = event.usage.output_tokens;
        point.context = point.sent + point.output;
        point.counted = true;
        break;
      }
      default:
        break;
    }
  });
  return { calls, tasks };
}

/**
 * How many of `calls` (in record order, as modelCalls gives them) started at or before the
 * record's event `upTo`: found by halving, so that a step reads a few calls, not all of them.
 */
export function callsUpTo(calls: readonly CallPoint[], upTo: number): number {
  let lo = 0;
  let hi = calls.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    searched.calls++;
    if (calls[mid].event <= upTo) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many calls `callsUpTo` and `agentTotals` read: counted so that a test can tell a search from a scan. */
export const searched = { calls: 0 };

/** A run's totals (docs/protocol.md, "How a saving is counted"). */
export function runTotals(record: RunRecord): RunTotals {
  const { calls } = modelCalls(record);
  const parentCalls = calls.filter((c) => c.agent === 'parent');
  const usage = { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };
  if (record.settings.provider === 'anthropic') {
    for (const event of record.events) {
      if (event.type !== 'model_end' || !event.usage) continue;
      usage.input += event.usage.input_tokens;
      usage.output += event.usage.output_tokens;
      usage.cacheRead += event.usage.cache_read_input_tokens ?? 0;
      usage.cacheCreation += event.usage.cache_creation_input_tokens ?? 0;
    }
  }
  const view = reduceAll(record.events);
  const parent = agentFigures(view.parent);
  return {
    parentContext: parentCalls.length ? parent.contextTokens : 0,
    cost: calls.reduce((sum, c) => sum + c.sent + c.output, 0),
    calls: calls.length,
    ...usage,
    counted: calls.length > 0 && calls.every((c) => c.counted) && parent.counted,
    agents: new Set(calls.map((c) => c.agent)).size,
    subagentsRead: view.subagents.reduce((sum, a) => sum + agentFigures(a).contextTokens, 0),
    cameBack: view.subagents.reduce((sum, a) => sum + estimateTokens(a.summary?.length ?? 0), 0),
    overhead: estimateTokens(overheadChars(record.settings, 0)),
  };
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
 * parent's context at the end (`runTotals`), against that context plus what each subagent's
 * context grew by while it worked (its context after its last call, less what its first call
 * sent: the task prompt it started from is in the parent's array already). Null without a
 * subagent call or a parent call.
 */
export function runSaving(record: RunRecord): RunSaving | null {
  const { calls } = modelCalls(record);
  const isolated = calls.findLast((c) => c.agent === 'parent')?.context ?? 0;
  const first = new Map<AgentId, CallPoint>();
  const last = new Map<AgentId, CallPoint>();
  for (const call of calls) {
    if (call.agent === 'parent') continue;
    if (!first.has(call.agent)) first.set(call.agent, call);
    last.set(call.agent, call);
  }
  if (isolated === 0 || last.size === 0) return null;
  let none = isolated;
  for (const [agent, end] of last) none += Math.max(0, end.context - first.get(agent)!.sent);
  return { isolated, none, saving: savingOf({ parentContext: isolated }, { parentContext: none }) };
}

/** One agent's calls as running sums, so that its totals at any step are a search, not a scan. */
interface AgentSums {
  /** Each call's `event`, in order. */
  events: number[];
  /** input[i], output[i], uncounted[i]: the sums over the agent's calls 0..i-1. */
  input: number[];
  output: number[];
  uncounted: number[];
}

const agentSums = new WeakMap<readonly CallPoint[], Map<AgentId, AgentSums>>();

/** Each agent's running sums over `calls`, made once per calls array (a record's calls never change). */
function sumsOf(calls: readonly CallPoint[]): Map<AgentId, AgentSums> {
  let sums = agentSums.get(calls);
  if (sums) return sums;
  sums = new Map();
  for (const call of calls) {
    let agent = sums.get(call.agent);
    if (!agent) sums.set(call.agent, (agent = { events: [], input: [0], output: [0], uncounted: [0] }));
    const i = agent.events.length;
    agent.events.push(call.event);
    agent.input.push(agent.input[i] + call.sent);
    agent.output.push(agent.output[i] + call.output);
    agent.uncounted.push(agent.uncounted[i] + (call.counted ? 0 : 1));
  }
  agentSums.set(calls, sums);
  return sums;
}

/** Calls, input, output and cache tokens of one agent up to a view's step (`calls`: the record's). */
export function agentTotals(calls: readonly CallPoint[], view: RunView, agent: AgentId) {
  const upTo = view.applied - 1;
  const sums = sumsOf(calls).get(agent);
  let lo = 0;
  let hi = sums?.events.length ?? 0;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    searched.calls++;
    if (sums!.events[mid] <= upTo) lo = mid + 1;
    else hi = mid;
  }
  const totals = {
    calls: lo,
    input: sums?.input[lo] ?? 0,
    output: sums?.output[lo] ?? 0,
    cacheRead: 0,
    cacheCreation: 0,
    counted: (sums?.uncounted[lo] ?? 0) === 0,
  };
  const usage =
    view.parent.id === agent ? view.parent.usage : view.subagents.find((a) => a.id === agent)?.usage;
  if (totals.counted && usage) {
    totals.input = usage.input_tokens;
    totals.cacheRead = usage.cache_read_input_tokens ?? 0;
    totals.cacheCreation = usage.cache_creation_input_tokens ?? 0;
  }
  return totals;
}
