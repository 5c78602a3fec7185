/**
 * A run as reduced: the state `reduce(state, event)` (./reduce.ts) goes from and to, the empty
 * one, and one that continues a conversation.
 *
 * A state is immutable: each event returns a new state that shares everything it did not change.
 * Its growing arrays (the log, each agent's messages, the file marks) are Lists (./list.ts), whose
 * storage one state shares with the next, so one event costs the same whether the log holds ten
 * lines or 150,000, and a state kept every few steps (the step-through's checkpoints) costs almost
 * nothing. The screen reads views of it (./view.ts).
 */
import type { AgentId, AssistantBlock, Message } from '../core/messages';
import type { FileChange } from '../sandbox/sandbox';
import { overheadTokens } from './context';
import { newAgentLedger, type AgentLedger } from './ledger';
import { List } from './list';
import type { ColumnState, RunSettings, RunStatus } from './record';
import { messageChars, messageTokens } from './size';

/** One message array as reduced: the parent's, or one subagent's. */
export interface AgentState {
  readonly id: AgentId;
  /** For a subagent: the agent that called `task`, the task's id and the label it was given. */
  readonly from: AgentId | null;
  readonly taskId: string;
  readonly description: string;
  readonly state: ColumnState;
  readonly messages: List<Message>;
  /** sizes.at(i): the characters of messages 0 to i, so that the array's size is one read away. */
  readonly sizes: List<number>;
  /** tokens.at(i): the estimated tokens of messages 0 to i (./tokens.ts), kept the same way. */
  readonly tokens: List<number>;
  /** The response being streamed, until it is appended. */
  readonly draft: AssistantBlock[] | null;
  /** Text streamed before the call failed or was stopped: kept on screen, never sent back. */
  readonly cutOff: AssistantBlock[] | null;
  /** For a subagent: how many calls of the run had started when it was spawned, and when it ended. */
  readonly startAfter: number;
  readonly endAfter: number | null;
  /** The stop_reason of its latest reply (null before the first, or when the API sent none). */
  readonly lastStop: string | null;
  /**
   * Its replies that the model did not end by itself, by message index: their stop_reason
   * (refusal, max_tokens, ...). The screen marks them, and any tool_use in them as never run.
   */
  readonly endings: Readonly<Record<number, string>>;
  /** The error type the API sent in the middle of its latest reply, if it broke off that way. */
  readonly streamError: string | null;
  /** The final text that went back to the caller (subagents only). */
  readonly summary: string | null;
  readonly calls: number;
  /** Its side of the call ledger (./ledger.ts): what every figure of it on screen reads. */
  readonly ledger: AgentLedger;
  readonly limitReached: boolean;
}

export interface LogLine {
  agent: AgentId;
  text: string;
}

/** A run as reduced. */
export interface RunState {
  /** The settings of the prompt run last. */
  readonly settings: RunSettings | null;
  readonly status: RunStatus;
  readonly parent: AgentState;
  /** In spawn order. */
  readonly subagents: readonly AgentState[];
  /** How many model calls all agents started: the next call's number in the run (./ledger.ts). */
  readonly callCount: number;
  readonly log: List<LogLine>;
  /** The agents' file changes since the sandbox was last (re)made, in order. */
  readonly marks: List<FileChange>;
  /** Set while a model call waits to be retried (429, 529, 5xx, network). */
  readonly retrying: string | null;
  /** How many events of the record this view has applied. */
  readonly applied: number;
}

/** The running sums of the messages' sizes (see AgentState's `sizes`). */
export function sizesOf(messages: readonly Message[]): List<number> {
  const sums: number[] = new Array(messages.length);
  let sum = 0;
  for (let i = 0; i < messages.length; i++) sums[i] = sum += messageChars(messages[i]);
  return List.of(sums);
}

/** The running sums of the messages' estimated tokens (see AgentState's `tokens`). */
export function tokensOf(messages: readonly Message[]): List<number> {
  const sums: number[] = new Array(messages.length);
  let sum = 0;
  for (let i = 0; i < messages.length; i++) sums[i] = sum += messageTokens(messages[i]);
  return List.of(sums);
}
const NO_ENDINGS: Readonly<Record<number, string>> = Object.freeze({});

/** An agent as it starts: idle, with no messages, unless `init` says otherwise. */
export function agentState(id: AgentId, init: Partial<AgentState> = {}): AgentState {
  return {
    id,
    from: null,
    taskId: '',
    description: '',
    state: 'idle',
    messages: List.of<Message>(),
    sizes: List.of<number>(),
    tokens: List.of<number>(),
    draft: null,
    cutOff: null,
    startAfter: 0,
    endAfter: null,
    lastStop: null,
    endings: NO_ENDINGS,
    streamError: null,
    summary: null,
    calls: 0,
    ledger: newAgentLedger(overheadTokens(null, 0)),
    limitReached: false,
    ...init,
  };
}

export const EMPTY_STATE: RunState = {
  settings: null,
  status: { kind: 'idle' },
  parent: agentState('parent'),
  subagents: [],
  callCount: 0,
  log: List.of(),
  marks: List.of(),
  retrying: null,
  applied: 0,
};

/** A state that continues a conversation: the parent's array as it was, nothing else. */
export function stateWithHistory(messages: readonly Message[]): RunState {
  return {
    ...EMPTY_STATE,
    parent: agentState('parent', {
      messages: List.of(messages),
      sizes: sizesOf(messages),
      tokens: tokensOf(messages),
    }),
  };
}
