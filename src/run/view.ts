/**
 * What the screen shows of a state (./state.ts): `viewOf(state)`, plain arrays made from its
 * Lists, reusing what did not change since the view before it, so that the live screen (Svelte
 * `$state.raw`) re-renders only what moved. No DOM, no Svelte: tested in Node.
 */
import type { AgentId, Message } from '../core/messages';
import type { FileChange } from '../sandbox/sandbox';
import { contextNow, type Context } from './ledger';
import { copied, type List } from './list';
import { EMPTY_STATE, type AgentState, type LogLine, type RunState } from './state';

/** One message array on screen: the parent's, or one subagent's. */
export interface AgentView extends Omit<AgentState, 'messages' | 'sizes' | 'tokens'> {
  readonly messages: Message[];
  /** The size of `messages` as it would be sent (their JSON text), kept as they are added. */
  readonly chars: number;
  /** The same in tokens, estimated (./tokens.ts). */
  readonly tokens: number;
  /** Its context now, the one measure every figure of it on screen shows (./ledger.ts). */
  readonly context: Context;
}

export interface FileMark {
  agent: AgentId;
  kind: FileChange['kind'];
}

export interface RunView extends Omit<RunState, 'parent' | 'subagents' | 'log' | 'marks'> {
  readonly parent: AgentView;
  /** In spawn order. */
  readonly subagents: AgentView[];
  readonly log: LogLine[];
  readonly marks: Readonly<Record<string, FileMark>>;
}

/** What a view made from a state reuses of the view made before it. */
interface Made {
  state: RunState;
  view: RunView;
}

function agentViewOf(
  agent: AgentState,
  before: { state: AgentState; view: AgentView } | undefined,
): AgentView {
  if (before && before.state === agent) return before.view;
  const messages =
    before && before.state.messages.same(agent.messages) ? before.view.messages : agent.messages.toArray();
  const { sizes, tokens: sums, ...rest } = agent;
  const tokens = sums.at(sums.length - 1) ?? 0;
  return {
    ...rest,
    messages,
    chars: sizes.at(sizes.length - 1) ?? 0,
    tokens,
    context: contextNow(agent.ledger, tokens),
  };
}

function marksOf(changes: List<FileChange>): Record<string, FileMark> {
  const marks: Record<string, FileMark> = {};
  for (let i = 0; i < changes.length; i++) {
    const change = changes.at(i)!;
    const before = marks[change.path];
    // A file an agent created stays "created" while the same run goes on changing it.
    marks[change.path] = {
      agent: change.agent,
      kind: before?.kind === 'create' && change.kind === 'modify' ? 'create' : change.kind,
    };
  }
  copied.items += changes.length;
  return marks;
}

/**
 * The view of a state, for the screen. With the view made just before (`before`), everything that
 * did not change since is reused as it was: the same arrays, the same agents.
 */
export function viewOf(state: RunState, before?: Made): RunView {
  const old = before?.state;
  const seen = old ? new Map(old.subagents.map((a, i) => [a.id, i])) : undefined;
  const subagents = state.subagents.map((agent) => {
    const i = seen?.get(agent.id);
    return agentViewOf(
      agent,
      i === undefined ? undefined : { state: old!.subagents[i], view: before!.view.subagents[i] },
    );
  });
  copied.items += subagents.length;
  const unchanged =
    before !== undefined &&
    subagents.length === before.view.subagents.length &&
    subagents.every((a, i) => a === before.view.subagents[i]);
  return {
    settings: state.settings,
    status: state.status,
    parent: agentViewOf(state.parent, old && { state: old.parent, view: before!.view.parent }),
    subagents: unchanged ? before.view.subagents : subagents,
    log: old?.log.same(state.log) ? before!.view.log : state.log.toArray(),
    marks: old?.marks.same(state.marks) ? before!.view.marks : marksOf(state.marks),
    retrying: state.retrying,
    callCount: state.callCount,
    applied: state.applied,
  };
}

/** Views of the states of one run, each made reusing the one before it (see `viewOf`). */
export class Views {
  #last: Made | undefined;

  /** The view of `state`. */
  of(state: RunState): RunView {
    if (this.#last?.state === state) return this.#last.view;
    const view = viewOf(state, this.#last);
    this.#last = { state, view };
    return view;
  }
}

export const EMPTY_VIEW: RunView = viewOf(EMPTY_STATE);
