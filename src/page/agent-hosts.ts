/**
 * What the page hands its agent workers, checking every call that arrives from them before the
 * page acts on it: a batch of events is recorded whole or not at all, a task starts a subagent
 * only when it is well formed. A bad call fails in the worker that made it, with the field named
 * (src/workers/agent/protocol.ts).
 *
 * Each run's host is served on a port of its own (`HostLines`), which the page closes when the
 * run is over or its worker is terminated. Left open, a port the page serves on stays alive with
 * its listener, and the host with everything it reaches (the run's handlers and what they hold),
 * until the worker lets go of it: never, for a worker terminated by a Stop.
 */
import * as Comlink from 'comlink';
import {
  checkEpoch,
  checkEvents,
  checkTask,
  checkTimes,
  type EventHost,
  ProtocolError,
  type ParentHost,
  type WorkerEvent,
} from '../workers/agent/protocol';
import type { TaskRequest } from '../core/loop';

/** One run's host, and the moment its worker's last batch of events has been recorded. */
export interface RunHost<Host> {
  host: Host;
  lastBatch: Promise<void>;
}

/** The host of one subagent's run: its events, checked. */
export function eventHost(onEvents: (events: WorkerEvent[], times?: number[]) => void): RunHost<EventHost> {
  let ended = () => {};
  const lastBatch = new Promise<void>((resolve) => (ended = resolve));
  return {
    host: {
      onEvents: (events: unknown, last?: unknown, times?: unknown) => {
        try {
          const checked = checkEvents(events);
          onEvents(checked, checkTimes(times, checked.length));
        } finally {
          // A malformed last batch is refused, but it still ends the run's events.
          if (last === true) ended();
        }
      },
    },
    lastBatch,
  };
}

/** The host of the parent's run: its events and its task calls, checked. */
export function parentHost(handlers: {
  onEvents(events: WorkerEvent[], times?: number[]): void;
  runTask(task: TaskRequest, calledAtEpoch: number, handed?: boolean): Promise<string>;
}): RunHost<ParentHost> {
  const { host, lastBatch } = eventHost((events, times) => handlers.onEvents(events, times));
  return {
    host: {
      ...host,
      runTask: async (task: unknown, calledAtEpoch: unknown, handed?: unknown) => {
        if (handed !== undefined && typeof handed !== 'boolean')
          throw new ProtocolError("runTask: 'handed' must be a boolean");
        const checked = [checkTask(task), checkEpoch(calledAtEpoch, 'runTask: calledAtEpoch')] as const;
        return handed ? handlers.runTask(...checked, true) : handlers.runTask(...checked);
      },
    },
    lastBatch,
  };
}

/**
 * A run's result (or its failure), taken once the worker's last batch of events is recorded:
 * the result comes on the worker's port, the events on their own, in either order.
 */
export async function afterLastBatch<T>(result: Promise<T>, lastBatch: Promise<void>): Promise<T> {
  try {
    return await result;
  } finally {
    await lastBatch;
  }
}

/** A host served for one run: the worker's end of its port, and how the page closes its own. */
export interface HostLine {
  readonly port: MessagePort;
  close(): void;
}

/** The ports the page serves its agents' runs' hosts on, each owned by the agent it is for. */
export class HostLines {
  readonly #open = new Map<MessagePort, string>();

  /** How many are open now. */
  get open(): number {
    return this.#open.size;
  }

  /** Serves `host` (Comlink) on a new port for `owner`'s run; `port` is the end its worker gets. */
  serve(owner: string, host: object): HostLine {
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(host, port1);
    this.#open.set(port1, owner);
    return {
      port: port2,
      close: () => {
        port1.close();
        this.#open.delete(port1);
      },
    };
  }

  /** Closes the ports still open for `owner` (every owner's when none is named). */
  close(owner?: string): void {
    for (const [port, of] of this.#open) {
      if (owner !== undefined && of !== owner) continue;
      port.close();
      this.#open.delete(port);
    }
  }
}
