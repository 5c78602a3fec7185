/**
 * The lesson's moments in a run's record, for the presenter's mode: where a run stops to be told.
 *
 *   task_start             task      an agent hands a piece of work to a subagent
 *   spawn                  spawn     a fresh worker with a fresh array (one message; forked: a copy)
 *   model_start            call      each model call of every agent, with what it sends (a caller's
 *                                    call after a result: what it sends against what the child read)
 *   message (child)        final     the child's final text: an assistant reply with no tool call
 *   agent_state            discarded the child's array is thrown away with its worker
 *   message (caller)       result    the caller's array gains the child's text as one tool_result
 *
 * A moment is the event after which the screen shows what its caption tells: the result is the
 * caller's message that holds the tool_result (not the task's end, when the array has not got it
 * yet). Each moment names the agent it is about, the message of its array to look at, and the
 * model calls its figures are read from (the caption reads them in tokens: ui/presenter-caption.ts),
 * so that any prompt and any model is told the same way. The scan is incremental: a live record
 * only grows, and `Moments.scan` reads only what was appended.
 */
import type { AgentId, Message } from '../core/messages';
import type { RunEvent } from './record';

export type MomentKind = 'task' | 'spawn' | 'call' | 'final' | 'discarded' | 'result';

/** A model call of an agent, by its own number ("Subagent 1 call 3"). */
export interface CallRef {
  readonly agent: AgentId;
  readonly call: number;
}

/** One stop of the presentation: the event it is at, and what its caption tells. */
export interface Moment {
  /** The index of its event in the record. */
  readonly index: number;
  readonly kind: MomentKind;
  /** The agent the moment is about (the caller for `task` and `result`, the child otherwise). */
  readonly agent: AgentId;
  /** The other agent: the child for `task` and `result`, the caller otherwise (null: none). */
  readonly other: AgentId | null;
  /** The message of `agent`'s array the moment points at (the last one for a call). */
  readonly message: number;
  readonly description?: string;
  /** `call`: the agent's call number. Otherwise the child's last call so far. */
  readonly call?: number;
  /** Messages of the array the moment is about (sent, kept, discarded or started with). */
  readonly count?: number;
  /** The caller's messages when the child starts (`spawn`), the child's at its end (`result`). */
  readonly otherCount?: number;
  /** `spawn`: the child starts from a copy of its caller's history (fork), not a fresh prompt. */
  readonly forked?: boolean;
  /**
   * `call` of a caller whose subagents returned since its last call: each child's last call (its
   * context when it returned is that call's sent and received).
   */
  readonly returned?: readonly CallRef[];
}

/** An assistant reply that calls no tool: the loop ends with it, and its text goes back. */
function isFinalReply(message: Message): boolean {
  return message.role === 'assistant' && !message.content.some((b) => b.type === 'tool_use');
}

/** The tool_use ids a user message answers. */
function resultsIn(message: Message): string[] {
  if (message.role !== 'user' || typeof message.content === 'string') return [];
  return message.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []));
}

/** A task ended, its result not yet in its caller's array. */
interface Ended {
  child: AgentId | null;
}

/** The moments of one record, found as it grows (see the file comment). */
export class Moments {
  readonly list: Moment[] = [];
  #scanned = 0;
  /** Messages in each agent's array. */
  readonly #count = new Map<AgentId, number>();
  /** Each agent's last call number. */
  readonly #calls = new Map<AgentId, number>();
  /** For each child: who called it; for each task of a caller: the child running it. */
  readonly #callerOf = new Map<AgentId, AgentId>();
  readonly #childOfTask = new Map<string, AgentId>();
  /** The child's messages when it was discarded (`result` tells them after the worker is gone). */
  readonly #discarded = new Map<AgentId, number>();
  /** Tasks ended whose tool_result the caller has not appended yet, by `caller id`. */
  readonly #ended = new Map<string, Ended>();
  /** For each caller, the children whose results it got since its last call. */
  readonly #returned = new Map<AgentId, CallRef[]>();

  /** Reads the events appended since the last scan; returns how many moments there are. */
  scan(events: readonly RunEvent[]): number {
    for (let i = this.#scanned; i < events.length; i++) this.#take(events[i], i);
    this.#scanned = events.length;
    return this.list.length;
  }

  #lastCall(agent: AgentId | null): number {
    return agent ? (this.#calls.get(agent) ?? 0) : 0;
  }

  #take(event: RunEvent, index: number): void {
    switch (event.type) {
      case 'message': {
        const agent = event.agent;
        this.#count.set(agent, Math.max(this.#count.get(agent) ?? 0, event.index + 1));
        const caller = this.#callerOf.get(agent);
        if (caller && isFinalReply(event.message)) {
          this.list.push({
            index,
            kind: 'final',
            agent,
            other: caller,
            message: event.index,
            call: this.#lastCall(agent),
          });
        }
        for (const id of resultsIn(event.message)) {
          const ended = this.#ended.get(`${agent} ${id}`);
          if (!ended) continue;
          this.#ended.delete(`${agent} ${id}`);
          const child = ended.child;
          if (child) {
            const returned = this.#returned.get(agent) ?? [];
            returned.push({ agent: child, call: this.#lastCall(child) });
            this.#returned.set(agent, returned);
          }
          this.list.push({
            index,
            kind: 'result',
            agent,
            other: child,
            message: event.index,
            call: this.#lastCall(child),
            otherCount: child ? (this.#discarded.get(child) ?? this.#count.get(child)) : undefined,
          });
        }
        return;
      }
      case 'task_start': {
        const count = this.#count.get(event.agent) ?? 0;
        this.list.push({
          index,
          kind: 'task',
          agent: event.agent,
          other: null,
          message: Math.max(0, count - 1),
          description: event.description,
          count,
        });
        return;
      }
      case 'spawn': {
        this.#count.set(event.agent, event.messages.length);
        this.#callerOf.set(event.agent, event.from);
        this.#childOfTask.set(`${event.from} ${event.taskId}`, event.agent);
        this.list.push({
          index,
          kind: 'spawn',
          agent: event.agent,
          other: event.from,
          message: Math.max(0, event.messages.length - 1),
          description: event.description,
          count: event.messages.length,
          otherCount: this.#count.get(event.from) ?? 0,
          forked: event.messages.length > 1,
        });
        return;
      }
      case 'model_start': {
        const agent = event.agent;
        this.#calls.set(agent, event.call);
        const count = this.#count.get(agent) ?? 0;
        const returned = this.#returned.get(agent);
        this.#returned.delete(agent);
        this.list.push({
          index,
          kind: 'call',
          agent,
          other: this.#callerOf.get(agent) ?? null,
          message: Math.max(0, count - 1),
          call: event.call,
          count,
          ...(returned?.length ? { returned } : {}),
        });
        return;
      }
      case 'agent_state': {
        if (event.state !== 'discarded') return;
        const count = this.#count.get(event.agent) ?? 0;
        this.#discarded.set(event.agent, count);
        this.list.push({
          index,
          kind: 'discarded',
          agent: event.agent,
          other: this.#callerOf.get(event.agent) ?? null,
          message: Math.max(0, count - 1),
          call: this.#lastCall(event.agent),
          count,
        });
        return;
      }
      case 'task_end':
        this.#ended.set(`${event.agent} ${event.id}`, {
          child: this.#childOfTask.get(`${event.agent} ${event.id}`) ?? null,
        });
        return;
      default:
        return;
    }
  }
}

/** Every moment of a whole record. */
export function momentsOf(events: readonly RunEvent[]): Moment[] {
  const moments = new Moments();
  moments.scan(events);
  return moments.list;
}
