/**
 * The presenter's caption: one sentence, in the language on screen, of what happened at a moment
 * of the lesson (src/run/moments.ts) and why it matters. Every figure is a model call's, in tokens,
 * read through `callFigures`: the one place the captions take a number from, numbered per agent as
 * the columns and the inspector number calls ("Parent call 2", "Subagent 1 call 3").
 */
import type { AgentId } from '../core/messages';
import { isolationCheck } from '../run/isolation';
import { agentFigures, ledgerOf, type CallEntry } from '../run/measures';
import { reduceAll } from '../run/reduce-range';
import { messageTokens } from '../run/size';
import type { RunView } from '../run/view';
import type { CallRef, Moment } from '../run/moments';
import type { RunRecord } from '../run/record';
import { agentName } from './agent-name';
import { t } from './i18n';

export { agentName } from './agent-name';

/** One model call's figures, in tokens. */
export interface CallTokens {
  /** What it sent: the system prompt, the tools and the messages. */
  sent: number;
  /** What it received: the reply. */
  received: number;
  /** The agent's context once it replied: what its next call would send (a child's, never sent). */
  context: number;
}

interface Read {
  events: RunRecord['events'];
  length: number;
  /** The record's view at its end, with its call ledger and its agents by id. */
  view: RunView;
  calls: Map<string, CallEntry>;
  agents: Map<AgentId, RunView['parent']>;
}

/** The record last read, while it has not grown: every caption of a presentation reads it. */
let last: Read | null = null;

/**
 * `record` at its end: its calls by agent and number and its agents by id, made again only when it
 * grew. `end`, when given, is the record's view at its end as the screen already holds it (an opened
 * record's replay keeps it): the record is then not reduced again.
 */
function readOf(record: RunRecord, end?: RunView): Read {
  if (last?.events === record.events && last.length === record.events.length) return last;
  const view = end ?? reduceAll(record.events);
  const calls = new Map<string, CallEntry>();
  for (const call of ledgerOf(view).calls) calls.set(`${call.agent} ${call.n}`, call);
  const agents = new Map<AgentId, RunView['parent']>([['parent', view.parent]]);
  for (const agent of view.subagents) agents.set(agent.id, agent);
  return (last = { events: record.events, length: record.events.length, view, calls, agents });
}

/** An agent of the record at its end. */
function agentAtEnd(record: RunRecord, id: AgentId) {
  return readOf(record).agents.get(id);
}

/**
 * Agent `agent`'s model call `n` (its own number) in `record`: what it sent and what it received,
 * in tokens. A call not (yet) in the record has 0 for each.
 */
export function callFigures(record: RunRecord, agent: AgentId, n: number): CallTokens {
  const call = readOf(record).calls.get(`${agent} ${n}`);
  const sent = call?.sent ?? 0;
  const received = call?.received ?? 0;
  return { sent, received, context: sent + received };
}

/**
 * The tokens of the message holding a result in its caller's array: what the caller's context grew
 * by (src/run/ledger.ts), the same figure its column adds. Null when the record does not hold it.
 */
function resultTokens(record: RunRecord, moment: Moment): number | null {
  const message = agentAtEnd(record, moment.agent)?.messages[moment.message];
  return message ? messageTokens(message) : null;
}

/** A child's context when it returned (its peak, never sent), as its column and the header show it. */
function contextAtReturn(record: RunRecord, ref: CallRef): number {
  const agent = agentAtEnd(record, ref.agent);
  return (agent && agentFigures(agent).atReturn) ?? callFigures(record, ref.agent, ref.call).context;
}

/** The caption of a call: what it sends, against what its subagents read if any returned. */
function callCaption(moment: Moment, record: RunRecord, agent: string, other: string): string {
  const call = moment.call ?? 0;
  const { sent } = callFigures(record, moment.agent, call);
  const count = moment.count ?? 0;
  const returned = moment.returned ?? [];
  if (returned.length) {
    const read = returned.reduce((sum, ref) => sum + contextAtReturn(record, ref), 0);
    return returned.length === 1
      ? t('presenter.callReturned', { agent, call, sent, child: agentName(returned[0].agent), read })
      : t('presenter.callReturnedMany', { agent, call, sent, children: returned.length, read });
  }
  if (moment.other) {
    // What the isolation check found in this call (src/run/isolation.ts), not what the mode promises.
    const checked = isolationCheck(record)
      .agents.find((a) => a.agent === moment.agent)
      ?.calls.find((c) => c.n === call);
    if (!checked) return t('presenter.callChildUnchecked', { agent, call, sent, count });
    if (checked.carried.length)
      return t('presenter.callCarried', { agent, call, sent, count, other, carried: checked.carried.length });
    return t('presenter.callChild', { agent, call, sent, count, other });
  }
  return t('presenter.call', { agent, call, sent, count });
}

/**
 * The caption of a moment of `record`. A moment of a kind the presenter does not know (a newer
 * record, a newer build) gets a plain description of what happened, never an error. `end`: the
 * record's view holding all of its events, when the screen has it (see readOf).
 */
export function captionOf(moment: Moment, record: RunRecord, end?: RunView): string {
  readOf(record, end);
  const agent = agentName(moment.agent);
  const other = agentName(moment.other);
  const count = moment.count ?? 0;
  switch (moment.kind) {
    case 'task':
      return t('presenter.task', { agent, description: moment.description ?? '' });
    case 'spawn':
      return moment.forked
        ? t('presenter.spawnFork', { agent, other, count })
        : t('presenter.spawn', {
            agent,
            other,
            count: moment.otherCount ?? 0,
            otherCount: moment.otherCount ?? 0,
          });
    case 'call':
      return callCaption(moment, record, agent, other);
    case 'final': {
      const { received } = callFigures(record, moment.agent, moment.call ?? 0);
      return t('presenter.final', { agent, other, tokens: received });
    }
    case 'discarded': {
      const tokens = contextAtReturn(record, { agent: moment.agent, call: moment.call ?? 0 });
      return t('presenter.discarded', { agent, other, count, tokens });
    }
    case 'result': {
      if (!moment.other) return t('presenter.resultPlain', { agent });
      const ref = { agent: moment.other, call: moment.call ?? 0 };
      return t('presenter.result', {
        agent,
        other,
        tokens: resultTokens(record, moment) ?? callFigures(record, ref.agent, ref.call).received,
        count: moment.otherCount ?? 0,
        read: contextAtReturn(record, ref),
      });
    }
    default:
      return t('presenter.other', { agent, what: String((moment as { kind: unknown }).kind) });
  }
}
