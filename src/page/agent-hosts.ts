/**
 * What the page hands its agent workers (as Comlink proxies), checking every call that arrives
 * from them before the page acts on it: a batch of events is recorded whole or not at all, a
 * task starts a subagent only when it is well formed. A bad call fails in the worker that made
 * it, with the field named (src/workers/protocol.ts).
 */
import {
  checkEpoch,
  checkEvents,
  checkTask,
  type EventHost,
  type ParentHost,
  type WorkerEvent,
} from '../workers/protocol';
import type { TaskRequest } from '../core/loop';

/** The host of one subagent's run: its events, checked. */
export function eventHost(onEvents: (events: WorkerEvent[]) => void): EventHost {
  return { onEvents: (events: unknown) => onEvents(checkEvents(events)), flush: () => {} };
}

/** The host of the parent's run: its events and its task calls, checked. */
export function parentHost(handlers: {
  onEvents(events: WorkerEvent[]): void;
  runTask(task: TaskRequest, calledAtEpoch: number): Promise<string>;
}): ParentHost {
  return {
    ...eventHost((events) => handlers.onEvents(events)),
    runTask: async (task: unknown, calledAtEpoch: unknown) =>
      handlers.runTask(checkTask(task), checkEpoch(calledAtEpoch, 'runTask: calledAtEpoch')),
  };
}
