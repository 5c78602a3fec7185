/**
 * The WebContainer backend's shell worker (named `webcontainer-shell`): runs each exec's
 * just-bash here, off the page's main thread, over the main thread's filesystem and programs
 * (see src/sandbox/webcontainer-shell.ts). A runaway loop keeps only this worker busy; its
 * deadline is just-bash's maxExecutionTimeMs, and the page terminates the worker as a last resort.
 */
import * as Comlink from 'comlink';
import {
  runShell,
  type ShellHost,
  type ShellOutcome,
  type ShellRequest,
} from '../sandbox/webcontainer-shell';

const running = new Map<number, AbortController>();

const api = {
  /** `host` arrives as a Comlink proxy (Comlink.proxy on the page): each call is a message. */
  async run(id: number, request: ShellRequest, host: ShellHost): Promise<ShellOutcome> {
    const controller = new AbortController();
    running.set(id, controller);
    try {
      return await runShell(request, host, controller.signal);
    } finally {
      running.delete(id);
      (host as unknown as Comlink.Remote<ShellHost>)[Comlink.releaseProxy]();
    }
  },

  abort(id: number): void {
    running.get(id)?.abort();
  },
};

export type ShellWorkerApi = typeof api;

Comlink.expose(api);
