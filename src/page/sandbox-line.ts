/**
 * An agent worker's line to the sandbox, handed over before the sandbox has taken its end.
 *
 * The sandbox answers on a MessagePort; what the agent sends before the sandbox has taken the
 * other end waits in the port's queue. So the agent can start (its first model call needs no
 * sandbox) while the sandbox's thread is still busy: on a fresh page it is loading commands
 * ahead, and the agent need not wait for that to take the port.
 */
import type { SandboxConnection } from '../workers/sandbox/service';

export interface SandboxLine {
  /** Settles when the sandbox has taken its end; rejects if it could not (the run fails then). */
  readonly connected: Promise<void>;
  /** Stops the agent's commands still running and closes the line, now or once it is taken. */
  close(): void;
}

export function sandboxLine(connecting: Promise<SandboxConnection>): SandboxLine {
  let closed = false;
  let connection: SandboxConnection | undefined;
  const connected = connecting.then((made) => {
    connection = made;
    if (closed) made.close();
  });
  connected.catch(() => {}); // reported to whoever awaits it (the run)
  return {
    connected,
    close() {
      if (closed) return;
      closed = true;
      connection?.close();
    },
  };
}

/** The agent's run, failed at once if its line to the sandbox could not be made. */
export function withLine<T>(run: Promise<T>, line: SandboxLine): Promise<T> {
  return Promise.all([run, line.connected]).then(([result]) => result);
}
