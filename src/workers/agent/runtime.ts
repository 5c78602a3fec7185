/**
 * What the parent and subagent workers share: the sandbox seen through a port, the model from
 * the settings, and events (with timings) sent to the page.
 */
import * as Comlink from 'comlink';
import type { EventSink, LoopEvent } from '../../core/loop';
import type { AgentId } from '../../core/messages';
import { baseToolHandlers, type ToolHandler } from '../../core/tools';
import type { Sandbox } from '../../sandbox/sandbox';
import { StopCell } from '../../sandbox/stop-signal';
import type { RunTask } from '../../core/loop';
import {
  checkHandedSummary,
  checkSummary,
  type AgentSettings,
  type HandedTask,
  type EventHost,
  type TaskHost,
  type WorkerEvent,
} from './protocol';
import { checkedSandbox, type SandboxRemote } from '../sandbox/protocol';

/**
 * The shared sandbox, reached over a MessagePort, as the Sandbox interface the tools expect.
 * A tool call's signal reaches the command: by a shared cell the sandbox reads while it is busy
 * running it, and by a cancel message naming the request. Every answer is checked as it arrives.
 */
export function remoteSandbox(port: MessagePort, workdir: string): Sandbox {
  const remote = checkedSandbox(Comlink.wrap<SandboxRemote>(port));
  let ids = 0;
  return {
    // The worker does not know which backend serves the port; no tool reads `kind`.
    kind: 'local',
    workdir,
    async exec(command, { timeoutMs, agent, signal }) {
      const id = ++ids;
      const stop = signal && StopCell.create();
      const onAbort = () => {
        stop?.raise();
        remote.cancel(id);
      };
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        return await remote.exec({ id, command, timeoutMs, agent: agent ?? 'user', stop: stop?.cell });
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    readFile: (path) => remote.readFile(path),
    writeFile: (path, content, agent) => remote.writeFile(path, content, agent ?? 'user'),
    exists: (path) => remote.exists(path),
    list: () => remote.list(),
    onChange: () => () => {},
    dispose: () => port.close(),
  };
}

export function toolHandlers(port: MessagePort, settings: AgentSettings): Record<string, ToolHandler> {
  return baseToolHandlers(remoteSandbox(port, settings.workdir), {
    bashTimeoutMs: settings.bashTimeoutMs,
    outputChars: settings.limits.outputChars,
  });
}

const epoch = () => performance.timeOrigin + performance.now();

/** The next message on `port`, checked as it arrives (a hand's task, or its summary). */
export function nextMessage<T>(port: MessagePort, check: (data: unknown) => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    port.onmessage = ({ data }) => {
      port.onmessage = null;
      try {
        resolve(check(data));
      } catch (error) {
        reject(error);
      }
    };
  });
}

export interface EventForwarder {
  onEvent: EventSink;
  /** Sends what is queued now (before a call whose order matters, like `runTask`). */
  send(): void;
  /** Sends what is queued as the run's last batch, however the run ended (protocol.ts). */
  end(): void;
}

/**
 * Forwards loop events to the page in batches (one message per task of the worker's event
 * loop, not one per streamed delta), each with the time it happened, adding the User Timing
 * measures the page records: `model:call` and `tool:<name>`.
 */
export function eventForwarder(host: Comlink.Remote<EventHost> | EventHost): EventForwarder {
  let queue: WorkerEvent[] = [];
  let times: number[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const send = (last = false) => {
    clearTimeout(timer);
    timer = undefined;
    if (!queue.length && !last) return;
    const batch = queue;
    const at = times;
    queue = [];
    times = [];
    void host.onEvents(batch, last, at);
  };
  const push = (event: WorkerEvent) => {
    queue.push(event);
    times.push(epoch());
    timer ??= setTimeout(() => send(), 0);
  };
  return {
    onEvent(event: LoopEvent) {
      push(event);
      if (event.type === 'model_end') push(timing(event.agent, 'model:call', event.durationMs));
      else if (event.type === 'tool_end') push(timing(event.agent, `tool:${event.name}`, event.durationMs));
    },
    send: () => send(),
    end: () => send(true),
  };
}

/**
 * The loop's `runTask`, sent to the page (which starts the subagent's own worker). The call goes
 * before the queued events: the page starts the worker first, then renders the task call while
 * that worker loads.
 *
 * With a `hand` (a line to a subagent's worker waiting for a task, offered by the page), the
 * first task goes down it instead, and its summary comes back up it: the page, whose thread is
 * busy drawing the run, is told of the task but is not on its way. Its answer to `runTask` is
 * then only the fallback that reports a failure (the subagent's worker answers only success).
 */
export function taskRunner(
  host: Comlink.Remote<TaskHost> | TaskHost,
  events: EventForwarder,
  hand?: MessagePort,
): RunTask {
  let offered = hand;
  return (task) => {
    const handed = offered;
    offered = undefined;
    if (handed) {
      const summary = nextMessage(handed, checkHandedSummary);
      handed.postMessage({ task } satisfies HandedTask);
      const told = Promise.resolve(host.runTask(task, epoch(), true)).then(checkSummary);
      events.send();
      // Whichever settles first: the summary up the hand, or the page's answer (a failure).
      return Promise.race([summary, told]).finally(() => {
        handed.close();
        told.catch(() => {});
      });
    }
    // Checked where it arrives: on the page (src/page/agent-hosts.ts).
    const spawned = host.runTask(task, epoch());
    events.send();
    return spawned.then(checkSummary);
  };
}

/**
 * The page's side of a run, served on `port` (the page closes it once the run is over, or when
 * it stops the run's workers).
 */
export function hostOn<Host extends EventHost>(port: MessagePort): Comlink.Remote<Host> {
  port.start();
  return Comlink.wrap<Host>(port);
}

function timing(agent: AgentId, name: string, durationMs: number): WorkerEvent {
  return { type: 'timing', agent, name, startEpoch: epoch() - durationMs, durationMs };
}
