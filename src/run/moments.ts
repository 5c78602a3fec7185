/**
 * The lesson's moments in a run's record, for the presenter's mode: where a run stops to be told.
 *
 *   task_start           task      an agent hands a piece of work to a subagent
 *   spawn                spawn     a fresh worker with a fresh array (one message; forked: a copy)
 *   model_start (child)  call      each of the child's model calls, with what it sends
 *   message (child)      final     the child's final text: an assistant reply with no tool call
 *   agent_state          discarded the child's array is thrown away with its worker
 *   task_end             result    the result arrives in the caller as one tool_result
 *
 * Every figure a moment carries is read from the record as it was at that event (message counts
 * and characters of each array), so that any prompt and any model is told the same way. The scan
 * is incremental: a live record only grows, and `Moments.scan` reads only what was appended.
 */
import type { AgentId, Message } from '../core/messages';
import type { RunEvent } from './record';
import { messageChars } from './size';

export type MomentKind = 'task' | 'spawn' | 'call' | 'final' | 'discarded' | 'result';

/** One stop of the presentation: the event it is at, and the figures its caption tells. */
export interface Moment {
  /** The index of its event in the record. */
  readonly index: number;
  readonly kind: MomentKind;
  /** The agent the moment is about (the caller for `task` and `result`, the child otherwise). */
  readonly agent: AgentId;
  /** The other agent: the child for `task` and `result`, the caller otherwise. */
  readonly other: AgentId | null;
  readonly description?: string;
  /** The model call's number (`call`). */
  readonly call?: number;
  /** Messages of the array the moment is about (sent, kept, discarded or started with). */
  readonly count?: number;
  /** Characters: of what is sent or discarded, the final text, or the result. */
  readonly chars?: number;
  /** The caller's messages when the child starts (`spawn`), the child's at its end (`result`). */
  readonly otherCount?: number;
  readonly otherChars?: number;
  /** `spawn`: the child starts from a copy of its caller's history (fork), not a fresh prompt. */
  readonly forked?: boolean;
}

interface ArrayTally {
  count: number;
  chars: number;
  /** Characters per index, so that a message replaced at an index is counted once. */
  sizes: number[];
}

function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/** An assistant reply that calls no tool: the loop ends with it, and its text goes back. */
function isFinalReply(message: Message): boolean {
  return message.role === 'assistant' && !message.content.some((b) => b.type === 'tool_use');
}

/** The moments of one record, found as it grows (see the file comment). */
export class Moments {
  readonly list: Moment[] = [];
  #scanned = 0;
  readonly #arrays = new Map<AgentId, ArrayTally>();
  /** For each child: who called it; for each task id of a caller: the child running it. */
  readonly #callerOf = new Map<AgentId, AgentId>();
  readonly #childOfTask = new Map<string, AgentId>();
  /** The child's array as it was discarded (`result` tells it after the worker is gone). */
  readonly #discarded = new Map<AgentId, { count: number; chars: number }>();

  /** Reads the events appended since the last scan; returns how many moments there are. */
  scan(events: readonly RunEvent[]): number {
    for (let i = this.#scanned; i < events.length; i++) this.#take(events[i], i);
    this.#scanned = events.length;
    return this.list.length;
  }

  #tally(agent: AgentId): ArrayTally {
    let tally = this.#arrays.get(agent);
    if (!tally) this.#arrays.set(agent, (tally = { count: 0, chars: 0, sizes: [] }));
    return tally;
  }

  #take(event: RunEvent, index: number): void {
    switch (event.type) {
      case 'message': {
        const tally = this.#tally(event.agent);
        const size = messageChars(event.message);
        tally.chars += size - (tally.sizes[event.index] ?? 0);
        tally.sizes[event.index] = size;
        tally.count = Math.max(tally.count, event.index + 1);
        if (this.#callerOf.has(event.agent) && isFinalReply(event.message)) {
          const caller = this.#callerOf.get(event.agent)!;
          this.list.push({
            index,
            kind: 'final',
            agent: event.agent,
            other: caller,
            chars: textOf(event.message).length,
          });
        }
        return;
      }
      case 'task_start':
        this.list.push({
          index,
          kind: 'task',
          agent: event.agent,
          other: null,
          description: event.description,
          count: this.#tally(event.agent).count,
        });
        return;
      case 'spawn': {
        const tally = this.#tally(event.agent);
        tally.sizes = event.messages.map(messageChars);
        tally.count = event.messages.length;
        tally.chars = tally.sizes.reduce((a, b) => a + b, 0);
        this.#callerOf.set(event.agent, event.from);
        this.#childOfTask.set(`${event.from} ${event.taskId}`, event.agent);
        const caller = this.#tally(event.from);
        this.list.push({
          index,
          kind: 'spawn',
          agent: event.agent,
          other: event.from,
          description: event.description,
          count: tally.count,
          chars: tally.chars,
          otherCount: caller.count,
          otherChars: caller.chars,
          forked: event.messages.length > 1,
        });
        return;
      }
      case 'model_start': {
        if (!this.#callerOf.has(event.agent)) return;
        const tally = this.#tally(event.agent);
        this.list.push({
          index,
          kind: 'call',
          agent: event.agent,
          other: this.#callerOf.get(event.agent)!,
          call: event.call,
          count: tally.count,
          chars: tally.chars,
        });
        return;
      }
      case 'agent_state': {
        if (event.state !== 'discarded') return;
        const tally = this.#tally(event.agent);
        this.#discarded.set(event.agent, { count: tally.count, chars: tally.chars });
        this.list.push({
          index,
          kind: 'discarded',
          agent: event.agent,
          other: this.#callerOf.get(event.agent) ?? null,
          count: tally.count,
          chars: tally.chars,
        });
        return;
      }
      case 'task_end': {
        const child = this.#childOfTask.get(`${event.agent} ${event.id}`) ?? null;
        const gone = child ? (this.#discarded.get(child) ?? this.#tally(child)) : undefined;
        this.list.push({
          index,
          kind: 'result',
          agent: event.agent,
          other: child,
          chars: event.summary.length,
          otherCount: gone?.count,
          otherChars: gone?.chars,
        });
        return;
      }
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
