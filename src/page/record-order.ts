/**
 * The order a run's record takes its events in, where it is not the order they reach the page.
 * Each agent's worker sends its events on a port of its own, so the page may read a subagent's
 * first events before its caller's `task_start` for it. Those are held here and recorded once the
 * `task_start` has been. No DOM, no workers: the conversation records through it, tests drive it
 * directly (record-order.test.ts).
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
   * but in the record the caller's task call comes first.
   */
  readonly #pending = new Map<AgentId, { taskId: string; queue: Held[] }>();
  /** When each agent's latest event happened, in its worker (page time). */
  readonly #lastAt = new Map<AgentId, number>();

  constructor(record: (event: RunEvent, at: number) => void) {
    this.#record = record;
  }

  /** Task `taskId` was called for subagent `id`: its events wait for the caller's `task_start`, after `spawn`. */
  called(id: AgentId, taskId: string, spawn: Held): void {
    this.#pending.set(id, { taskId, queue: [spawn] });
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
    pending?.queue.push([event, at]);
    return pending !== undefined;
  }

  /** `event` was recorded: a `task_start` lets its subagent's held events follow it. */
  recorded(event: RunEvent): void {
    if (event.type === 'task_start') this.#releasePending((pending) => pending.taskId === event.id);
  }

  /** The run is over: whatever is still held is recorded, in the order it came. */
  releaseAll(): void {
    this.#releasePending(() => true);
  }

  /** A new record: nothing held, no times kept. */
  clear(): void {
    this.#pending.clear();
    this.#lastAt.clear();
  }

  #releasePending(match: (pending: { taskId: string }) => boolean): void {
    for (const [id, pending] of this.#pending) {
      if (!match(pending)) continue;
      this.#pending.delete(id);
      for (const [event, at] of pending.queue) this.#record(event, at);
    }
  }
}
