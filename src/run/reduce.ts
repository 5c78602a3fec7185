/**
 * The reducer: a run's state after one more event of its record, `reduce(state, event)`. What
 * the screen shows is a pure function of the record: its events reduced from the empty state
 * (./state.ts), then a view of that state (./view.ts). Each event returns a new state sharing all
 * it did not change, so reducing a record is linear in its events. No DOM, no Svelte: tested in
 * Node.
 */
import type { AgentId, AssistantBlock } from '../core/messages';
import { cutShort, unusualStop, type StreamEvent } from '../core/model';
import { overheadTokens } from './context';
import { callEnded, callStarted, contextReset, newAgentLedger, replyAppended } from './ledger';
import { copied, List } from './list';
import type { ColumnState, RunEvent, RunStatus } from './record';
import { agentState, sizesOf, tokensOf, type AgentState, type RunState } from './state';
import { messageChars, messageTokens } from './size';

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

/** How deep an agent sits: 0 for the parent, 1 for its subagents, and so on. */
function depthIn(state: RunState, id: AgentId): number {
  let depth = 0;
  for (
    let agent = agentOf(state, id);
    agent && agent.id !== 'parent';
    agent = agentOf(state, agent.from ?? 'parent')
  )
    depth++;
  return depth;
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

/**
 * An agent's marked replies once message `index` is put in its array: the array holds nothing
 * after it any more (a follow-up prompt rewrites a dropped tail), and the message is marked if
 * its reply ended badly. Marks are few: the object is copied only when one comes or goes.
 */
function endingsAt(
  endings: Readonly<Record<number, string>>,
  index: number,
  ending: string | null,
): Readonly<Record<number, string>> {
  const kept = Object.keys(endings).filter((key) => Number(key) < index);
  if (!ending && kept.length === Object.keys(endings).length) return endings;
  const next: Record<number, string> = {};
  for (const key of kept) next[Number(key)] = endings[Number(key)];
  if (ending) next[index] = ending;
  return next;
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
        // every delta of a long input would make replaying a record many times slower. Whether it could
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

/**
 * A status as the screen says it: a run that finished on a reply the model did not end by itself
 * says how that reply ended, and one that failed in the middle of a reply says whether the API
 * broke it off with an error event and whether its text so far is kept (read off the parent).
 */
function explained(state: RunState, status: RunStatus): RunStatus {
  const parent = state.parent;
  if (status.kind === 'finished' && status.ending === undefined) {
    const ending = unusualStop(parent.lastStop);
    if (!ending) return status;
    const last = parent.messages.at(parent.messages.length - 1);
    const lastBlock = last?.role === 'assistant' ? last.content.at(-1) : undefined;
    const cutTool = cutShort(ending) && lastBlock?.type === 'tool_use';
    return { ...status, ending, ...(cutTool && { cutTool }) };
  }
  if (status.kind === 'failed' && status.streamError === undefined && status.kept === undefined) {
    const kept = keptDraft(parent.draft) !== null;
    if (!parent.streamError && !kept) return status;
    return {
      ...status,
      ...(parent.streamError && { streamError: parent.streamError }),
      ...(kept && { kept }),
    };
  }
  return status;
}

function setStatus(state: RunState, given: RunStatus): RunState {
  const status = explained(state, given);
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
    case 'run': {
      // The parent's system prompt and tools follow the prompt's context mode.
      const overhead = overheadTokens(event.settings, 0);
      const parent = { ...state.parent, ledger: { ...state.parent.ledger, overhead } };
      return { ...state, settings: event.settings, retrying: null, parent };
    }
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
            tokens: tokensOf(event.messages),
            ledger: newAgentLedger(overheadTokens(state.settings, depthIn(state, event.from) + 1)),
            startAfter: state.callCount,
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
        endAfter: state.callCount,
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
      return updateAgent(state, event.agent, (a) => {
        const chars = (a.sizes.at(event.index - 1) ?? 0) + messageChars(event.message);
        const size = messageTokens(event.message);
        const tokens = (a.tokens.at(event.index - 1) ?? 0) + size;
        const reply = event.message.role === 'assistant';
        const ending = reply ? unusualStop(a.lastStop) : null;
        return {
          ...a,
          messages: a.messages.put(event.index, event.message),
          sizes: a.sizes.put(event.index, chars),
          tokens: a.tokens.put(event.index, tokens),
          ledger: reply ? replyAppended(a.ledger, tokens, size) : a.ledger,
          draft: reply ? null : a.draft,
          cutOff: event.message.role === 'user' && event.index === 0 ? null : a.cutOff,
          endings: endingsAt(a.endings, event.index, ending),
        };
      });
    case 'model_start': {
      const agent = agentOf(state, event.agent);
      if (!agent || ended(state, agent)) return state;
      const ledger = callStarted(
        agent.ledger,
        { agent: agent.id, seq: state.callCount + 1, event: state.applied, t: eventTime(event) },
        event.request,
        agent.messages.length,
        (count) => agent.tokens.at(count - 1) ?? 0,
      );
      // A subagent works from its first call, whether or not its worker's `ready` was recorded
      // (a spare was ready before the task took it, so no `ready` follows its spawn).
      const next = updateAgent(state, event.agent, (a) => ({
        ...a,
        state: a.state === 'starting' ? 'running' : a.state,
        calls: a.calls + 1,
        ledger,
        draft: [],
        cutOff: null,
        lastStop: null,
        streamError: null,
      }));
      return { ...next, callCount: state.callCount + 1 };
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
      const end = { t: eventTime(event), stopReason: event.stopReason };
      return updateAgent(next, event.agent, (a) => ({
        ...a,
        lastStop: event.stopReason,
        ledger: callEnded(a.ledger, end, counted),
      }));
    }
    case 'context_reset':
      // A compaction or a model switch: the counts before it are no baseline (./ledger.ts).
      return updateAgent(state, event.agent, (a) => ({ ...a, ledger: contextReset(a.ledger) }));
    case 'limit_reached':
      return updateAgent(state, event.agent, (a) => ({ ...a, limitReached: true }));
    case 'log':
      return { ...state, log: state.log.push({ agent: event.agent, text: event.line }) };
    case 'error': {
      const next = { ...state, log: state.log.push({ agent: event.agent, text: `Error: ${event.error}` }) };
      const streamError = event.streamError;
      if (!streamError) return next;
      return updateAgent(next, event.agent, (a) => ({ ...a, streamError }));
    }
    default:
      // tool_start, tool_end, task_start and task_end change nothing on the arrays'
      // screen: the charts and the timeline read them from the record.
      return state;
  }
}

/** An event's time on the record's clock (events reduced outside a record have none). */
function eventTime(event: RunEvent): number {
  const t = (event as { t?: unknown }).t;
  return typeof t === 'number' ? t : 0;
}

/**
 * How many events `reduceRange` went through, and how many times an event (or a run of deltas
 * joined into one) was applied: counted so that a test can tell what a step and an open cost.
 */
export const reduced = { events: 0, applications: 0 };
