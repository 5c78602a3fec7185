/**
 * What the screen shows, as a pure function of a run's record: `reduce(state, event)`, then
 * `viewOf(state)` for the screen.
 *
 * A state is immutable: each event returns a new state that shares everything it did not change.
 * Its growing arrays (the log, each agent's messages, the file marks) are Lists (./list.ts), whose
 * storage one state shares with the next, so one event costs the same whether the log holds ten
 * lines or 150,000: reducing a record is linear in its events, and a state kept every few steps
 * (the step-through's checkpoints) costs almost nothing. The screen reads plain arrays: `viewOf`
 * makes them from a state, reusing what did not change since the view before it, so the live screen
 * (Svelte `$state.raw`) re-renders only what moved. No DOM, no Svelte: tested in Node.
 */
import type { AgentId, AssistantBlock, Message, Usage } from '../core/messages';
import type { StreamEvent } from '../core/model';
import type { FileChange } from '../sandbox/sandbox';
import { messageChars } from './size';
import { copied, List } from './list';
import type { ColumnState, RunEvent, RunSettings, RunStatus } from './record';

/** One message array on screen: the parent's, or one subagent's. */
export interface AgentView {
  readonly id: AgentId;
  /** For a subagent: the agent that called `task`, the task's id and the label it was given. */
  readonly from: AgentId | null;
  readonly taskId: string;
  readonly description: string;
  readonly state: ColumnState;
  readonly messages: Message[];
  /** The size of `messages` as it would be sent (their JSON text), kept as they are added. */
  readonly chars: number;
  /** The response being streamed, until it is appended. */
  readonly draft: AssistantBlock[] | null;
  /** Text streamed before the call failed or was stopped: kept on screen, never sent back. */
  readonly cutOff: AssistantBlock[] | null;
  /** The final text that went back to the caller (subagents only). */
  readonly summary: string | null;
  readonly calls: number;
  /** Usage the API reported, summed over calls; null while only estimates exist. */
  readonly usage: Usage | null;
  /** Input tokens of the latest counted call: the size of the context the model last saw. */
  readonly lastInputTokens: number | null;
  readonly limitReached: boolean;
}

export interface LogLine {
  agent: AgentId;
  text: string;
}

export interface FileMark {
  agent: AgentId;
  kind: FileChange['kind'];
}

export interface RunView {
  /** The settings of the prompt run last. */
  readonly settings: RunSettings | null;
  readonly status: RunStatus;
  readonly parent: AgentView;
  /** In spawn order. */
  readonly subagents: AgentView[];
  readonly log: LogLine[];
  readonly marks: Readonly<Record<string, FileMark>>;
  /** Set while a model call waits to be retried (429, 529, 5xx, network). */
  readonly retrying: string | null;
  /** How many events of the record this view has applied. */
  readonly applied: number;
}

/** An agent as reduced: its view, with its messages as a List. */
export interface AgentState extends Omit<AgentView, 'messages' | 'chars'> {
  readonly messages: List<Message>;
  /** sizes.at(i): the characters of messages 0 to i, so that the array's size is one read away. */
  readonly sizes: List<number>;
}

/** The running sums of the messages' sizes (see AgentState's `sizes`). */
function sizesOf(messages: readonly Message[]): List<number> {
  const sums: number[] = new Array(messages.length);
  let sum = 0;
  for (let i = 0; i < messages.length; i++) sums[i] = sum += messageChars(messages[i]);
  return List.of(sums);
}

/** A run as reduced: its view, with Lists where the view has arrays that grow. */
export interface RunState extends Omit<RunView, 'parent' | 'subagents' | 'log' | 'marks'> {
  readonly parent: AgentState;
  readonly subagents: readonly AgentState[];
  readonly log: List<LogLine>;
  /** The agents' file changes since the sandbox was last (re)made, in order. */
  readonly marks: List<FileChange>;
}

function agentState(id: AgentId, init: Partial<AgentState> = {}): AgentState {
  return {
    id,
    from: null,
    taskId: '',
    description: '',
    state: 'idle',
    messages: List.of<Message>(),
    sizes: List.of<number>(),
    draft: null,
    cutOff: null,
    summary: null,
    calls: 0,
    usage: null,
    lastInputTokens: null,
    limitReached: false,
    ...init,
  };
}

export const EMPTY_STATE: RunState = {
  settings: null,
  status: { kind: 'idle' },
  parent: agentState('parent'),
  subagents: [],
  log: List.of(),
  marks: List.of(),
  retrying: null,
  applied: 0,
};

/** A state that continues a conversation: the parent's array as it was, nothing else. */
export function stateWithHistory(messages: readonly Message[]): RunState {
  return {
    ...EMPTY_STATE,
    parent: agentState('parent', { messages: List.of(messages), sizes: sizesOf(messages) }),
  };
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
  const { sizes, ...rest } = agent;
  return { ...rest, messages, chars: sizes.at(sizes.length - 1) ?? 0 };
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

function isLive(state: ColumnState): boolean {
  return state === 'starting' || state === 'running' || state === 'idle';
}

function updateAgent(state: RunState, id: AgentId, update: (agent: AgentState) => AgentState): RunState {
  if (id === 'parent') return { ...state, parent: update(state.parent) };
  const i = state.subagents.findIndex((a) => a.id === id);
  if (i < 0) return state;
  // A copy of the subagents alone (a few, or a few hundred), never of what they hold.
  const subagents = state.subagents.slice();
  copied.items += subagents.length;
  subagents[i] = update(subagents[i]);
  return { ...state, subagents };
}

function agentOf(state: RunState, id: AgentId): AgentState | undefined {
  return id === 'parent' ? state.parent : state.subagents.find((a) => a.id === id);
}

/** Whether an agent's loop is gone: events it sent just before its end must not revive a draft. */
function ended(state: RunState, agent: AgentState): boolean {
  if (agent.id === 'parent') return state.status.kind === 'stopped' || state.status.kind === 'failed';
  return !isLive(agent.state);
}

/** What was streamed and is worth keeping when a call ends without its message. */
function keptDraft(draft: AssistantBlock[] | null): AssistantBlock[] | null {
  const blocks = (draft ?? []).filter(
    (b) => b && ((b.type === 'text' && b.text) || (b.type === 'thinking' && b.thinking)),
  );
  return blocks.length ? blocks : null;
}

/** An agent whose loop ended mid-call: its draft becomes the cut-off text. */
function cutOff(agent: AgentState): AgentState {
  if (!agent.draft) return agent;
  return { ...agent, draft: null, cutOff: keptDraft(agent.draft) ?? agent.cutOff };
}

function addUsage(sum: Usage | null, usage: Usage): Usage {
  return {
    input_tokens: (sum?.input_tokens ?? 0) + usage.input_tokens,
    output_tokens: (sum?.output_tokens ?? 0) + usage.output_tokens,
    cache_creation_input_tokens:
      (sum?.cache_creation_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
    cache_read_input_tokens: (sum?.cache_read_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
  };
}

/** The context a call's usage counts: input plus both cache fields (docs/protocol.md, the saving). */
export function contextOf(usage: Usage): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/**
 * Applies one streamed event to a draft response. The draft is copied (one response's blocks);
 * the text a delta adds is joined to its block's, which JavaScript does without copying either.
 */
export function streamInto(draft: AssistantBlock[] | null, event: StreamEvent): AssistantBlock[] {
  if (event.type === 'block_stop' || event.type === 'retrying') return draft ?? [];
  const next = draft ? draft.slice() : [];
  copied.items += next.length;
  switch (event.type) {
    case 'block_start':
      next[event.index] = event.block;
      break;
    case 'text_delta': {
      const block = next[event.index];
      if (block?.type === 'text') next[event.index] = { ...block, text: block.text + event.text };
      break;
    }
    case 'thinking_delta': {
      const block = next[event.index];
      if (block?.type === 'thinking')
        next[event.index] = { ...block, thinking: block.thinking + event.thinking };
      break;
    }
    case 'input_json_delta': {
      const block = next[event.index];
      if (block?.type === 'tool_use') {
        const partial = ((block as { partial?: string }).partial ?? '') + event.partial_json;
        let input = block.input;
        // Only an input that could be complete is parsed: a failed parse throws, and throwing on
        // every delta of a long input made replaying a record many times slower. Whether it could
        // be is told by the delta alone: reading the end of the whole input joined so far would
        // copy it at every delta. A delta of whitespace leaves a parsed input as it was.
        if (event.partial_json.trimEnd().endsWith('}')) {
          try {
            input = JSON.parse(partial);
          } catch {
            // Not complete yet: keep showing the last parsable input.
          }
        }
        next[event.index] = { ...block, input, partial } as AssistantBlock;
      }
      break;
    }
  }
  return next;
}

function setStatus(state: RunState, status: RunStatus): RunState {
  let next: RunState = { ...state, status };
  if (status.kind === 'running') {
    next = { ...next, parent: { ...next.parent, cutOff: null } };
  } else if (status.kind !== 'booting' && status.kind !== 'idle') {
    // The run is over: nothing streams any more, and what was streaming is kept as cut off.
    next = {
      ...next,
      retrying: null,
      parent: cutOff(next.parent),
      subagents: next.subagents.map((a) =>
        isLive(a.state) ? { ...cutOff(a), state: status.kind === 'finished' ? a.state : 'stopped' } : a,
      ),
    };
  }
  return next;
}

/** The state after one more event. Events of unknown agents are ignored (checked on import). */
export function reduce(state: RunState, event: RunEvent): RunState {
  reduced.applications++;
  const applied = state.applied + 1;
  const next = apply(state, event);
  if (next === state) return { ...state, applied };
  // A state `apply` changed is one it made just now, seen by nothing yet: counted in place
  // rather than copied a second time (most of a long record's events change the state).
  (next as { applied: number }).applied = applied;
  return next;
}

function apply(state: RunState, event: RunEvent): RunState {
  switch (event.type) {
    case 'run':
      return { ...state, settings: event.settings, retrying: null };
    case 'status':
      return setStatus(state, event.status);
    case 'spawn':
      copied.items += state.subagents.length;
      return {
        ...state,
        subagents: [
          ...state.subagents,
          agentState(event.agent, {
            from: event.from,
            taskId: event.taskId,
            description: event.description,
            messages: List.of(event.messages),
            sizes: sizesOf(event.messages),
            state: 'starting',
          }),
        ],
      };
    case 'worker':
      if (event.phase !== 'ready') return state;
      return updateAgent(state, event.worker, (a) =>
        a.state === 'starting' ? { ...a, state: 'running' } : a,
      );
    case 'agent_state':
      return updateAgent(state, event.agent, (a) => ({
        ...(event.state === 'discarded' ? { ...a, draft: null } : cutOff(a)),
        state: event.state,
        summary: event.summary ?? a.summary,
      }));
    case 'files': {
      let marks = state.marks;
      for (const change of event.changes) if (change.agent !== 'system') marks = marks.push(change);
      return marks === state.marks ? state : { ...state, marks };
    }
    case 'sandbox':
      return { ...state, marks: List.of() };
    case 'message':
      return updateAgent(state, event.agent, (a) => ({
        ...a,
        messages: a.messages.put(event.index, event.message),
        sizes: a.sizes.put(event.index, (a.sizes.at(event.index - 1) ?? 0) + messageChars(event.message)),
        draft: event.message.role === 'assistant' ? null : a.draft,
        cutOff: event.message.role === 'user' && event.index === 0 ? null : a.cutOff,
      }));
    case 'model_start': {
      const agent = agentOf(state, event.agent);
      if (!agent || ended(state, agent)) return state;
      // A subagent works from its first call, whether or not its worker's `ready` was recorded
      // (a spare was ready before the task took it, so no `ready` follows its spawn).
      return updateAgent(state, event.agent, (a) => ({
        ...a,
        state: a.state === 'starting' ? 'running' : a.state,
        calls: a.calls + 1,
        draft: [],
        cutOff: null,
      }));
    }
    case 'stream': {
      if (event.event.type === 'retrying') {
        return {
          ...state,
          retrying: `${event.agent}: attempt ${event.event.attempt}, ${event.event.reason}`,
        };
      }
      const agent = agentOf(state, event.agent);
      if (!agent || ended(state, agent)) return state;
      const streamed = event.event;
      return updateAgent(state, event.agent, (a) => ({ ...a, draft: streamInto(a.draft, streamed) }));
    }
    case 'model_end': {
      // The demo model's usage is its own estimate; only a real API's counts are shown as counted.
      const counted = state.settings?.provider === 'anthropic' ? event.usage : undefined;
      const next = state.retrying === null ? state : { ...state, retrying: null };
      if (!counted) return next;
      return updateAgent(next, event.agent, (a) => ({
        ...a,
        usage: addUsage(a.usage, counted),
        lastInputTokens: contextOf(counted),
      }));
    }
    case 'limit_reached':
      return updateAgent(state, event.agent, (a) => ({ ...a, limitReached: true }));
    case 'log':
      return { ...state, log: state.log.push({ agent: event.agent, text: event.line }) };
    case 'error':
      return { ...state, log: state.log.push({ agent: event.agent, text: `Error: ${event.error}` }) };
    default:
      // tool_start, tool_end, task_start and task_end change nothing on the arrays'
      // screen: the charts and the timeline read them from the record.
      return state;
  }
}

/**
 * How many events `reduceRange` went through, and how many times an event (or a run of deltas
 * joined into one) was applied: counted so that a test can tell what a step and an open cost.
 */
export const reduced = { events: 0, applications: 0 };

/** Reduces a whole list of events from a starting state; returns its view. */
export function reduceAll(events: readonly RunEvent[], from: RunState = EMPTY_STATE): RunView {
  return viewOf(reduceRange(from, events, 0, events.length));
}

type Delta = Extract<StreamEvent, { type: 'text_delta' | 'thinking_delta' | 'input_json_delta' }>;

function deltaOf(event: RunEvent): Delta | null {
  if (event.type !== 'stream') return null;
  const streamed = event.event;
  return streamed.type === 'text_delta' ||
    streamed.type === 'thinking_delta' ||
    streamed.type === 'input_json_delta'
    ? streamed
    : null;
}

function deltaText(delta: Delta): string {
  return delta.type === 'text_delta'
    ? delta.text
    : delta.type === 'thinking_delta'
      ? delta.thinking
      : delta.partial_json;
}

/**
 * Reduces `events[from, to)`: the same state as reducing them one by one, faster. A streamed
 * response arrives as many small deltas (most of a record's events); a run of them into one
 * block of one agent is applied as one delta of their texts joined. Text and thinking deltas in a
 * row are joined per agent and block even when agents stream at once (their deltas interleaved):
 * each only appends to its own block, so the order between blocks does not change the state it
 * ends in. Log lines and errors in a row are added to the log at once. A tool input is parsed
 * whenever a delta ends with `}`: where one before the run's last delta does, the run is reduced
 * one by one, so that the input shown is the one parsed at the same moment.
 */
export function reduceRange(
  state: RunState,
  events: readonly RunEvent[],
  from: number,
  to: number,
): RunState {
  reduced.events += Math.max(0, to - from);
  let i = from;
  while (i < to) {
    if (isLogLine(events[i])) {
      let j = i + 1;
      while (j < to && isLogLine(events[j])) j++;
      if (j - i >= 2) {
        state = pushLines(state, events, i, j);
        i = j;
        continue;
      }
    }
    const first = deltaOf(events[i]);
    let j = i + 1;
    if (first && first.type !== 'input_json_delta') {
      while (j < to && isTextDelta(deltaOf(events[j]))) j++;
      if (j - i >= 2) {
        state = joinTexts(state, events, i, j);
        i = j;
        continue;
      }
    }
    if (first) {
      const agent = (events[i] as Extract<RunEvent, { type: 'stream' }>).agent;
      while (j < to) {
        const next = deltaOf(events[j]);
        if (!next || next.type !== first.type || next.index !== first.index) break;
        if ((events[j] as Extract<RunEvent, { type: 'stream' }>).agent !== agent) break;
        j++;
      }
    }
    if (j - i < 2 || !joinable(events, i, j)) {
      for (; i < j; i++) state = reduce(state, events[i]);
      continue;
    }
    const parts: string[] = [];
    for (let k = i; k < j; k++) parts.push(deltaText(deltaOf(events[k])!));
    const text = parts.join('');
    const delta: Delta =
      first!.type === 'text_delta'
        ? { type: 'text_delta', index: first!.index, text }
        : first!.type === 'thinking_delta'
          ? { type: 'thinking_delta', index: first!.index, thinking: text }
          : { type: 'input_json_delta', index: first!.index, partial_json: text };
    const joined = reduce(state, { ...(events[i] as Extract<RunEvent, { type: 'stream' }>), event: delta });
    state = { ...joined, applied: state.applied + (j - i) };
    i = j;
  }
  return state;
}

function isLogLine(event: RunEvent): boolean {
  return event.type === 'log' || event.type === 'error';
}

/** Log lines and errors `[i, j)` added to the log at once: one state, not one per line. */
function pushLines(state: RunState, events: readonly RunEvent[], i: number, j: number): RunState {
  reduced.applications++;
  let log = state.log;
  for (let k = i; k < j; k++) {
    const event = events[k] as Extract<RunEvent, { type: 'log' | 'error' }>;
    log = log.push({
      agent: event.agent,
      text: event.type === 'log' ? event.line : `Error: ${event.error}`,
    });
  }
  return { ...state, log, applied: state.applied + (j - i) };
}

function isTextDelta(delta: Delta | null): boolean {
  return delta !== null && delta.type !== 'input_json_delta';
}

/** Applies text and thinking deltas `[i, j)` as one joined delta per agent, kind and block. */
function joinTexts(state: RunState, events: readonly RunEvent[], i: number, j: number): RunState {
  const groups = new Map<string, { event: Extract<RunEvent, { type: 'stream' }>; parts: string[] }>();
  for (let k = i; k < j; k++) {
    const event = events[k] as Extract<RunEvent, { type: 'stream' }>;
    const delta = event.event as Delta;
    const key = `${event.agent} ${delta.type} ${delta.index}`;
    const group = groups.get(key);
    if (group) group.parts.push(deltaText(delta));
    else groups.set(key, { event, parts: [deltaText(delta)] });
  }
  let next = state;
  for (const { event, parts } of groups.values()) {
    const text = parts.join('');
    const index = (event.event as Delta).index;
    const delta: Delta =
      event.event.type === 'text_delta'
        ? { type: 'text_delta', index, text }
        : { type: 'thinking_delta', index, thinking: text };
    next = reduce(next, { ...event, event: delta });
  }
  return { ...next, applied: state.applied + (j - i) };
}

/**
 * Whether deltas `[i, j)` may be joined: for a tool input, none but the last may end with `}`
 * (whitespace after it included), since each such delta has the input parsed.
 */
function joinable(events: readonly RunEvent[], i: number, j: number): boolean {
  if (deltaOf(events[i])!.type !== 'input_json_delta') return true;
  for (let k = i; k < j - 1; k++) {
    if (deltaText(deltaOf(events[k])!).trimEnd().endsWith('}')) return false;
  }
  return true;
}
