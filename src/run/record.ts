/**
 * A run is its record: an append-only, versioned, JSON-serialisable log of everything that
 * happened, in order, with its time on the page's clock.
 *
 *   record = { format, version, id, startedAt, title, settings, events: [
 *     { t: 0,   type: 'run', prompt, settings }          a prompt is run (follow-ups append more)
 *     { t: 1,   type: 'status', status: running }
 *     { t: 2,   type: 'message', agent: 'parent', ... }  every loop event of every agent
 *     { t: 40,  type: 'spawn', agent: 'subagent-1', ... } the page starts a subagent worker
 *     { t: 41,  type: 'worker', worker: 'subagent-1', phase: 'created' | 'ready' | 'terminated' }
 *     { t: 90,  type: 'files', changes: [...] }          file changes, with the agent that made them
 *     ... ]}
 *
 * The screen is a pure function of it (./reduce.ts), so stepping through a run, keeping it,
 * exporting it and opening it again all read the same data. An API key is never part of it.
 */
import type { LoopEvent } from '../core/loop';
import type { AgentId, Message } from '../core/messages';
import type { ContextMode, LoopLimits } from '../core/variants';
import type { FileChange } from '../sandbox/sandbox';

export const RECORD_FORMAT = 's04-playground-run';
/** Version 1 was the first export (arrays only, no events); it is still read (./check.ts). */
export const RECORD_VERSION = 2;

export type RunStatus =
  | { kind: 'booting' }
  | { kind: 'idle' }
  | { kind: 'running' }
  /**
   * `ending`: the stop_reason of the parent's last reply when the model did not end it by itself
   * (refusal, max_tokens, model_context_window_exceeded, ...); `cutTool`: that reply was cut in a
   * tool_use, which was not run. Both are read off the record by the reducer (./reduce.ts).
   */
  | { kind: 'finished'; ending?: string; cutTool?: boolean }
  | { kind: 'stopped'; reason?: string }
  /**
   * `streamError`: the error type the API sent in the middle of the parent's reply; `kept`: text
   * of that reply had arrived and stays on screen, marked cut off. Read off the record too.
   */
  | { kind: 'failed'; reason: string; streamError?: string; kept?: boolean };

/** The teaching variants live with the loop (src/core); a record names the ones it ran with. */
export { isReferenceLimits, REFERENCE_LIMITS, type ContextMode, type LoopLimits } from '../core/variants';
/** What a run ran with; never the API key. */
export interface RunSettings {
  provider: 'demo' | 'anthropic';
  model: string;
  /** The endpoint, for a real model. */
  baseURL?: string;
  sample: 'python' | 'typescript';
  sandbox: string;
  context: ContextMode;
  limits: LoopLimits;
  /** The comparison (Compare) this run is one mode of: its runs share this id. */
  comparison?: string;
  /** A demo run's pace (`Demo speed`): how fast the scripted model streamed. */
  speed?: 'instant' | 'normal' | 'slow';
  /** Prompt caching was on (cache breakpoints sent; the demo's cache figures simulated). */
  cache?: boolean;
}

/** `missing`: an opened session names this subagent, but its transcript was not among the files. */
export type ColumnState = 'idle' | 'starting' | 'running' | 'discarded' | 'stopped' | 'failed' | 'missing';

export type WorkerPhase = 'created' | 'ready' | 'terminated';

/** What the page adds to the loops' own events. */
export type PageEvent =
  | { type: 'run'; prompt: string; settings: RunSettings }
  | { type: 'status'; status: RunStatus }
  | {
      type: 'spawn';
      agent: AgentId;
      /** The agent whose `task` call started it. */
      from: AgentId;
      taskId: string;
      description: string;
      /** The array it starts with: the task prompt alone (s04), or the parent's history too (fork). */
      messages: Message[];
    }
  | {
      type: 'agent_state';
      agent: AgentId;
      state: 'discarded' | 'stopped' | 'failed' | 'missing';
      summary?: string;
    }
  | { type: 'worker'; worker: string; phase: WorkerPhase }
  | { type: 'files'; changes: FileChange[] }
  /**
   * An agent's context changed for a reason of its own, never the provider's: its array was
   * compacted (`compaction`: it starts again from a summary; `trigger` as Claude Code wrote it,
   * `tokensBefore` the context it reported before) or its next call goes to another `model`. A
   * count after it is not compared with one before it (./ledger.ts, `contextReset`); the chart
   * and the workers timeline mark it. Written by the reader of Claude Code sessions.
   */
  | {
      type: 'context_reset';
      agent: AgentId;
      reason: 'compaction' | 'model';
      /** The model the agent's next calls go to (`model`), or that it ran with (`compaction`). */
      model?: string;
      trigger?: string;
      tokensBefore?: number;
    }
  /** The agents' sandbox changed (a switch to WebContainer): the files are the sample project again. */
  | { type: 'sandbox'; label: string; workdir: string };

export type RunEvent = LoopEvent | PageEvent;

/** An event as recorded: `t` is milliseconds since the record's `startedAt`, on the page's clock. */
export type RecordEvent = RunEvent & { t: number };

export interface RunRecord {
  format: typeof RECORD_FORMAT;
  version: typeof RECORD_VERSION;
  id: string;
  /** Epoch milliseconds when the first prompt was run. */
  startedAt: number;
  /** The first prompt. */
  title: string;
  settings: RunSettings;
  events: RecordEvent[];
}

/** Where a record shown on screen came from. */
export type RecordOrigin =
  | { kind: 'live' }
  | { kind: 'history' }
  | { kind: 'file'; name: string }
  | { kind: 'example'; name: string }
  /** A Claude Code session, converted (./claude-code.ts). */
  | { kind: 'session'; name: string }
  /** A link carrying the run in its fragment, or naming the address of its file (`record=`). */
  | { kind: 'link'; address?: string };

/**
 * A `tool_end` keeps the first TOOL_END_PREVIEW characters of its output in the record, as the
 * reference's console line does: the whole output is in the `tool_result` the loop appends right
 * after, and keeping it twice made records (exports, History) twice as large.
 */
export const TOOL_END_PREVIEW = 200;

/** An event as it is kept in a record (see TOOL_END_PREVIEW). */
export function recordable(event: RunEvent): RunEvent {
  if (event.type !== 'tool_end' || event.output.length <= TOOL_END_PREVIEW) return event;
  return { ...event, output: event.output.slice(0, TOOL_END_PREVIEW) };
}

/** Events that are a step of the step-through: all but streamed deltas. */
export function isStep(event: RunEvent): boolean {
  return event.type !== 'stream';
}

/** A new, empty record for a first prompt. */
export function newRecord(id: string, startedAt: number, title: string, settings: RunSettings): RunRecord {
  return { format: RECORD_FORMAT, version: RECORD_VERSION, id, startedAt, title, settings, events: [] };
}
