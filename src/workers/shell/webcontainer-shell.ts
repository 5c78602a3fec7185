/**
 * The WebContainer backend's shell worker (named `webcontainer-shell`): runs each exec's
 * just-bash here, off the page's main thread, over the main thread's filesystem and programs
 * (see src/sandbox/webcontainer/shell.ts). A runaway loop keeps only this worker busy; its
 * deadline is just-bash's maxExecutionTimeMs, and the page terminates the worker as a last resort.
 * What the page sends, and what its host answers, is checked on arrival (src/sandbox/webcontainer/shell-protocol.ts).
 */
import * as Comlink from 'comlink';
import { runShell } from '../../sandbox/webcontainer/shell';
import {
  checkedHostAnswers,
  servedShellWorker,
  type ShellHost,
} from '../../sandbox/webcontainer/shell-protocol';

const running = new Map<number, AbortController>();

const api = servedShellWorker({
  async run(id, request, host) {
    const controller = new AbortController();
    running.set(id, controller);
    try {
      return await runShell(request, checkedHostAnswers(host), controller.signal);
    } finally {
      running.delete(id);
      (host as unknown as Comlink.Remote<ShellHost>)[Comlink.releaseProxy]();
    }
  },

  abort(id) {
    running.get(id)?.abort();
  },
});

Comlink.expose(api);
