/**
 * The order a run's record takes its events in, where it is not the order they reach the page.
 * Each agent's worker sends its events on a port of its own, so the page may read a subagent's
 * first events before its caller's `task_start`, or (for a task handed straight to the spare,
 * src/page/conversation.ts) the caller's `task_end` before the subagent's last events. Those are
 * held here and recorded once what must come first has been. No DOM, no workers: the
 * conversation records through it, tests drive it directly (record-order.test.ts).
 *
 * It also keeps when each agent's latest event happened in its worker, which a subagent's end is
 * stamped with (the page may read it late).
 */
import type { AgentId } from '../core/messages';
import type { RunEvent } from '../run/record';

/** An event held back, with the page time it is to be recorded at. */
export type Held = [event: RunEvent, at: number];

/** The agent or worker an event is about, if any. */
function agentOf(event: RunEvent): AgentId | undefined {
  if (event.type === 'worker') return event.worker;
  return 'agent' in event ? event.agent : undefined;
}

export class RecordOrder {
  /** Records one event, in order (the conversation's own #record, which comes back here). */
  readonly #record: (event: RunEvent, at: number) => void;
  /**
   * A subagent's events, held until its caller's `task_start` for it is recorded: the caller's
   * worker asks for the subagent before it sends its queued events (so the worker starts sooner),
   * but in the record the caller's task call comes first. `offered`: the spare offered for a
   * task not yet called, whose own life (created, ready) is recorded as it comes.
   */
  readonly #pending = new Map<AgentId, { taskId: string; queue: Held[]; offered?: boolean }>();
  /**
   * A caller's events held from its `task_end` for a handed task until the page has recorded that
   * subagent's end: the summary reached the caller before it reached the page.
   */
  readonly #behind = new Map<AgentId, { taskId: string; subagent: AgentId; queue: Held[] }>();
  /** When each agent's latest event happened, in its worker (page time). */
  readonly #lastAt = new Map<AgentId, number>();

  constructor(record: (event: RunEvent, at: number) => void) {
    this.#record = record;
  }

  /** The spare `id` was offered for the next task: its run's events wait for that task's call. */
  offered(id: AgentId): void {
    this.#pending.set(id, { taskId: '', queue: [], offered: true });
  }

  /** The offer to `id` was withdrawn: nothing of it is held any more. */
  withdrawn(id: AgentId): void {
    this.#pending.delete(id);
  }

  /**
   * Task `taskId` was called for subagent `id`: its events wait for the caller's `task_start`,
   * after `spawn` (an offered spare's events that came already follow it).
   */
  called(id: AgentId, taskId: string, spawn: Held): void {
    const early = this.#pending.get(id)?.queue ?? [];
    this.#pending.set(id, { taskId, queue: [spawn, ...early] });
  }

  /**
   * `caller` handed task `taskId` to `subagent` itself: its events from that task's `task_end` on
   * wait for the subagent's end (discarded or failed) to be recorded, and follow it at once.
   */
  handed(caller: AgentId, taskId: string, subagent: AgentId): void {
    this.#behind.set(caller, { taskId, subagent, queue: [] });
  }

  /** A worker's event happened at page time `at`. */
  happened(agent: AgentId, at: number): void {
    this.#lastAt.set(agent, at);
  }

  /** When `agent`'s latest event happened in its worker, if its worker said. */
  lastAt(agent: AgentId): number | undefined {
    return this.#lastAt.get(agent);
  }

  /** Holds `event` if something must be recorded before it; true when it was held. */
  hold(event: RunEvent, at: number): boolean {
    const agent = agentOf(event) ?? '';
    const pending = this.#pending.get(agent);
    if (pending && !(pending.offered && event.type === 'worker')) {
      pending.queue.push([event, at]);
      return true;
    }
    const behind = this.#behind.get(agent);
    if (behind && (behind.queue.length || (event.type === 'task_end' && event.id === behind.taskId))) {
      behind.queue.push([event, at]);
      return true;
    }
    return false;
  }

  /**
   * `event` was recorded: a `task_start` lets its subagent's held events follow it; a handed
   * subagent's end lets its caller's.
   */
  recorded(event: RunEvent): void {
    if (event.type === 'task_start') this.#releasePending((pending) => pending.taskId === event.id);
    else if (event.type === 'agent_state') this.#releaseBehind((behind) => behind.subagent === event.agent);
  }

  /** The run is over: whatever is still held is recorded, in the order it came. */
  releaseAll(): void {
    this.#releasePending(() => true);
    this.#releaseBehind(() => true);
  }

  /** A new record: nothing held, no times kept. */
  clear(): void {
    this.#pending.clear();
    this.#behind.clear();
    this.#lastAt.clear();
  }

  #releaseBehind(match: (behind: { subagent: AgentId }) => boolean): void {
    for (const [caller, behind] of this.#behind) {
      if (!match(behind)) continue;
      this.#behind.delete(caller);
      for (const [event, at] of behind.queue) this.#record(event, at);
    }
  }

  #releasePending(match: (pending: { taskId: string }) => boolean): void {
    for (const [id, pending] of this.#pending) {
      if (!match(pending)) continue;
      this.#pending.delete(id);
      for (const [event, at] of pending.queue) this.#record(event, at);
    }
  }
}
