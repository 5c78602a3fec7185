/**
 * What the screen shows, as a pure function of a run's record: `reduce(view, event)`.
 *
 * A view is immutable: each event returns a new view that shares everything it did not change,
 * so the live screen (Svelte `$state.raw`) re-renders only what moved, and a step of the
 * step-through is just the view after that many events. No DOM, no Svelte: tested in Node.
 */
import type { AgentId, AssistantBlock, Message, Usage } from '../core/messages';
import type { StreamEvent } from '../core/model';
import type { FileChange } from '../sandbox/sandbox';
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

export function agentView(id: AgentId, init: Partial<AgentView> = {}): AgentView {
  return {
    id,
    from: null,
    taskId: '',
    description: '',
    state: 'idle',
    messages: [],
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

export const EMPTY_VIEW: RunView = {
  settings: null,
  status: { kind: 'idle' },
  parent: agentView('parent'),
  subagents: [],
  log: [],
  marks: {},
  retrying: null,
  applied: 0,
};

/** A view that continues a conversation: the parent's array as it was, nothing else. */
export function viewWithHistory(messages: Message[]): RunView {
  return { ...EMPTY_VIEW, parent: agentView('parent', { messages }) };
}

function isLive(state: ColumnState): boolean {
  return state === 'starting' || state === 'running' || state === 'idle';
}

function updateAgent(view: RunView, id: AgentId, update: (agent: AgentView) => AgentView): RunView {
  if (id === 'parent') return { ...view, parent: update(view.parent) };
  const i = view.subagents.findIndex((a) => a.id === id);
  if (i < 0) return view;
  const subagents = view.subagents.slice();
  subagents[i] = update(subagents[i]);
  return { ...view, subagents };
}

function agentOf(view: RunView, id: AgentId): AgentView | undefined {
  return id === 'parent' ? view.parent : view.subagents.find((a) => a.id === id);
}

/** Whether an agent's loop is gone: events it sent just before its end must not revive a draft. */
function ended(view: RunView, agent: AgentView): boolean {
  if (agent.id === 'parent') return view.status.kind === 'stopped' || view.status.kind === 'failed';
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
function cutOff(agent: AgentView): AgentView {
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

/** Applies one streamed event to a draft response. */
export function streamInto(draft: AssistantBlock[] | null, event: StreamEvent): AssistantBlock[] {
  const next = draft ? draft.slice() : [];
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
        // every delta of a long input made replaying a record many times slower.
        if (partial.trimEnd().endsWith('}')) {
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
    default:
      return draft ?? [];
  }
  return next;
}

function withMessage(messages: Message[], index: number, message: Message): Message[] {
  const next = messages.slice(0, index);
  next[index] = message;
  return next;
}

function markFiles(
  marks: Readonly<Record<string, FileMark>>,
  changes: FileChange[],
): Record<string, FileMark> {
  const next = { ...marks };
  for (const change of changes) {
    if (change.agent === 'system') continue;
    const before = next[change.path];
    // A file an agent created stays "created" while the same run goes on changing it.
    next[change.path] = {
      agent: change.agent,
      kind: before?.kind === 'create' && change.kind === 'modify' ? 'create' : change.kind,
    };
  }
  return next;
}

function setStatus(view: RunView, status: RunStatus): RunView {
  let next: RunView = { ...view, status };
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

/** The view after one more event. Events of unknown agents are ignored (checked on import). */
export function reduce(view: RunView, event: RunEvent): RunView {
  const applied = view.applied + 1;
  const next = apply(view, event);
  return next === view ? { ...view, applied } : { ...next, applied };
}

function apply(view: RunView, event: RunEvent): RunView {
  switch (event.type) {
    case 'run':
      return { ...view, settings: event.settings, retrying: null };
    case 'status':
      return setStatus(view, event.status);
    case 'spawn':
      return {
        ...view,
        subagents: [
          ...view.subagents,
          agentView(event.agent, {
            from: event.from,
            taskId: event.taskId,
            description: event.description,
            messages: event.messages,
            state: 'starting',
          }),
        ],
      };
    case 'worker':
      if (event.phase !== 'ready') return view;
      return updateAgent(view, event.worker, (a) =>
        a.state === 'starting' ? { ...a, state: 'running' } : a,
      );
    case 'agent_state':
      return updateAgent(view, event.agent, (a) => ({
        ...(event.state === 'discarded' ? { ...a, draft: null } : cutOff(a)),
        state: event.state,
        summary: event.summary ?? a.summary,
      }));
    case 'files':
      return { ...view, marks: markFiles(view.marks, event.changes) };
    case 'sandbox':
      return { ...view, marks: {} };
    case 'message':
      return updateAgent(view, event.agent, (a) => ({
        ...a,
        messages: withMessage(a.messages, event.index, event.message),
        draft: event.message.role === 'assistant' ? null : a.draft,
        cutOff: event.message.role === 'user' && event.index === 0 ? null : a.cutOff,
      }));
    case 'model_start': {
      const agent = agentOf(view, event.agent);
      if (!agent || ended(view, agent)) return view;
      return updateAgent(view, event.agent, (a) => ({ ...a, calls: a.calls + 1, draft: [], cutOff: null }));
    }
    case 'stream': {
      if (event.event.type === 'retrying') {
        return { ...view, retrying: `${event.agent}: attempt ${event.event.attempt}, ${event.event.reason}` };
      }
      const agent = agentOf(view, event.agent);
      if (!agent || ended(view, agent)) return view;
      const streamed = event.event;
      return updateAgent(view, event.agent, (a) => ({ ...a, draft: streamInto(a.draft, streamed) }));
    }
    case 'model_end': {
      // The demo model's usage is its own estimate; only a real API's counts are shown as counted.
      const counted = view.settings?.provider === 'anthropic' ? event.usage : undefined;
      const next = view.retrying === null ? view : { ...view, retrying: null };
      if (!counted) return next;
      return updateAgent(next, event.agent, (a) => ({
        ...a,
        usage: addUsage(a.usage, counted),
        lastInputTokens: contextOf(counted),
      }));
    }
    case 'limit_reached':
      return updateAgent(view, event.agent, (a) => ({ ...a, limitReached: true }));
    case 'log':
      return { ...view, log: [...view.log, { agent: event.agent, text: event.line }] };
    case 'error':
      return { ...view, log: [...view.log, { agent: event.agent, text: `Error: ${event.error}` }] };
    default:
      // tool_start, tool_end, task_start and task_end change nothing on the arrays'
      // screen: the charts and the timeline read them from the record.
      return view;
  }
}

/** Reduces a whole list of events from a starting view. */
export function reduceAll(events: readonly RunEvent[], from: RunView = EMPTY_VIEW): RunView {
  return reduceRange(from, events, 0, events.length);
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
 * Reduces `events[from, to)`: the same view as reducing them one by one, faster. A streamed
 * response arrives as many small deltas (most of a record's events); a run of them into one
 * block of one agent is applied as one delta of their texts joined. A tool input is parsed
 * whenever what has arrived ends with `}`: where that happens before the run's last delta, the
 * run is reduced one by one, so that the input shown is the one parsed at the same moment.
 */
export function reduceRange(view: RunView, events: readonly RunEvent[], from: number, to: number): RunView {
  let i = from;
  while (i < to) {
    const first = deltaOf(events[i]);
    let j = i + 1;
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
      for (; i < j; i++) view = reduce(view, events[i]);
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
    const joined = reduce(view, { ...(events[i] as Extract<RunEvent, { type: 'stream' }>), event: delta });
    view = { ...joined, applied: view.applied + (j - i) };
    i = j;
  }
  return view;
}

/** Whether deltas `[i, j)` may be joined: for a tool input, none but the last may end with `}`. */
function joinable(events: readonly RunEvent[], i: number, j: number): boolean {
  if (deltaOf(events[i])!.type !== 'input_json_delta') return true;
  let last = '';
  for (let k = i; k < j - 1; k++) {
    const text = deltaText(deltaOf(events[k])!).trimEnd();
    if (text) last = text[text.length - 1];
    // Whitespace alone leaves the end as it was: before the run, that end is not known here.
    else if (k === i) return false;
    if (last === '}') return false;
  }
  return true;
}
