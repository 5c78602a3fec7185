/**
 * The sandbox served on one agent worker's port: SandboxRemote over any Sandbox, the offline one
 * in the sandbox worker or WebContainer on the page.
 *
 *   agent worker                       this connection                      Sandbox
 *   exec({id, command, stop}) ───────▶ signal(id) = request cell ∪ ───────▶ exec(command, {signal})
 *   cancel(id) ──────────────────────▶   connection cell ∪ cancel ∪ close
 *   page: close() (Stop, or the agent is done) aborts every command in flight, closes the port
 *
 * `onStart` hears of each command as it begins, before the sandbox runs it: the page's
 * `sandbox:exec` mark (a command that never yields leaves its thread no later moment to say so).
 *
 * Each request gets its own AbortSignal: the loop's tool call that sent it can stop it (cancel),
 * and so can the page, which owns the connection and terminates agent workers at Stop.
 */
import * as Comlink from 'comlink';
import type { Sandbox } from '../../sandbox/sandbox';
import { StopCell, watchedSignal } from '../../sandbox/stop-signal';
import { servedSandbox, type CommandStart, type SandboxRemote } from './protocol';

export interface SandboxConnection {
  /** Stops the commands still running on this port and closes it. */
  close(): void;
}

/** Serves `sandbox()` on `port`; `stop` is the page's cell for this connection, when shared memory exists. */
export function serveSandbox(
  sandbox: () => Sandbox,
  port: MessagePort,
  stop?: StopCell,
  onStart?: (start: CommandStart) => void,
): SandboxConnection {
  const served = sandboxRemote(sandbox, stop, onStart);
  // What the agent worker sends is checked before the sandbox acts on it (./protocol.ts).
  Comlink.expose(servedSandbox(served.remote), port);
  return {
    close() {
      served.close();
      port.close();
    },
  };
}

/** SandboxRemote over `sandbox()`, each exec with its own signal; `close` aborts those still running. */
export function sandboxRemote(
  sandbox: () => Sandbox,
  stop?: StopCell,
  onStart?: (start: CommandStart) => void,
): { remote: SandboxRemote } & SandboxConnection {
  const running = new Map<number, AbortController>();
  const closed = new AbortController();
  const remote: SandboxRemote = {
    async exec(request) {
      const cancel = new AbortController();
      running.get(request.id)?.abort();
      running.set(request.id, cancel);
      const cells = [stop, request.stop && new StopCell(request.stop)].filter((c): c is StopCell => !!c);
      const watched = watchedSignal(cells, [cancel.signal, closed.signal]);
      try {
        const box = sandbox();
        const atEpoch = performance.timeOrigin + performance.now();
        onStart?.({ agent: request.agent, command: request.command, atEpoch });
        return await box.exec(request.command, {
          timeoutMs: request.timeoutMs,
          agent: request.agent,
          signal: watched.signal,
        });
      } finally {
        watched.dispose();
        if (running.get(request.id) === cancel) running.delete(request.id);
      }
    },
    cancel: (id) => running.get(id)?.abort(),
    readFile: (path) => sandbox().readFile(path),
    writeFile: (path, content, agent) => sandbox().writeFile(path, content, agent),
    exists: (path) => sandbox().exists(path),
    list: () => sandbox().list(),
  };
  return {
    remote,
    close() {
      stop?.raise();
      closed.abort();
      running.clear();
    },
  };
}
