/**
 * What the parent and subagent workers share: the sandbox seen through a port, the model from
 * the settings, and events (with timings) sent to the page.
 */
import * as Comlink from 'comlink';
import type { EventSink, LoopEvent } from '../core/loop';
import type { AgentId } from '../core/messages';
import { baseToolHandlers, type ToolHandler } from '../core/tools';
import type { Sandbox } from '../sandbox/sandbox';
import type { AgentSettings, EventHost, SandboxRemote, WorkerEvent } from './protocol';

/** The shared sandbox, reached over a MessagePort, as the Sandbox interface the tools expect. */
export function remoteSandbox(port: MessagePort, workdir: string): Sandbox {
  const remote = Comlink.wrap<SandboxRemote>(port);
  return {
    kind: 'local',
    workdir,
    exec: (command, { timeoutMs, agent }) => remote.exec(command, timeoutMs, agent ?? 'user'),
    readFile: (path) => remote.readFile(path),
    writeFile: (path, content, agent) => remote.writeFile(path, content, agent ?? 'user'),
    exists: (path) => remote.exists(path),
    list: () => remote.list(),
    onChange: () => () => {},
    dispose: () => port.close(),
  };
}

export function toolHandlers(port: MessagePort, settings: AgentSettings): Record<string, ToolHandler> {
  return baseToolHandlers(remoteSandbox(port, settings.workdir), { bashTimeoutMs: settings.bashTimeoutMs });
}

const epoch = () => performance.timeOrigin + performance.now();

/**
 * Forwards loop events to the page and adds the User Timing measures the page records:
 * `model:call` and `tool:<name>`.
 */
export function eventForwarder(host: Comlink.Remote<EventHost> | EventHost): EventSink {
  const send = (event: WorkerEvent) => void host.onEvent(event);
  return (event: LoopEvent) => {
    send(event);
    if (event.type === 'model_end') {
      send(timing(event.agent, 'model:call', event.durationMs));
    } else if (event.type === 'tool_end') {
      send(timing(event.agent, `tool:${event.name}`, event.durationMs));
    }
  };
}

function timing(agent: AgentId, name: string, durationMs: number): WorkerEvent {
  return { type: 'timing', agent, name, startEpoch: epoch() - durationMs, durationMs };
}

/** Turns an error into the one-line reason shown after `Failed: `. */
export function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
