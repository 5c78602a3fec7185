/**
 * Reducing many events at once (a record opened, a step-through's jump): the same state as
 * reducing them one by one (./reduce.ts), with runs of streamed deltas and of log lines applied
 * as one.
 */
import type { StreamEvent } from '../core/model';
import type { RunEvent } from './record';
import { reduce, reduced } from './reduce';
import { EMPTY_STATE, type RunState } from './state';
import { viewOf, type RunView } from './view';

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
  type Group = { event: Extract<RunEvent, { type: 'stream' }>; parts: string[] };
  const groups = new Map<string, Group>();
  // Each agent's group of its last delta, looked at first: an agent's deltas mostly go on in one
  // block, and a key string made for each of 232,000 deltas was a sixth of opening such a record.
  const last = new Map<string, Group>();
  for (let k = i; k < j; k++) {
    const event = events[k] as Extract<RunEvent, { type: 'stream' }>;
    const delta = event.event as Delta;
    let group = last.get(event.agent);
    if (
      !group ||
      group.event.event.type !== delta.type ||
      (group.event.event as Delta).index !== delta.index
    ) {
      const key = `${event.agent} ${delta.type} ${delta.index}`;
      group = groups.get(key);
      if (!group) groups.set(key, (group = { event, parts: [] }));
      last.set(event.agent, group);
    }
    group.parts.push(deltaText(delta));
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
