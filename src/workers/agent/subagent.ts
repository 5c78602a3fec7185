/**
 * One subagent's side of an agent worker (named `subagent-N`, ./agent.ts): a fresh messages array, the child tools, the
 * shared sandbox. It returns only its final text; then the page terminates it, and its whole
 * context is gone with it. When subagents may delegate, its `task` calls go to the page, which
 * starts a worker of their own.
 */
import { runSubagent } from '../../core/loop';
import { createModel } from '../../models';
import {
  checkHandedTask,
  checkSubagentRun,
  type HandedSummary,
  type SubagentWorkerApi,
  type TaskHost,
} from './protocol';
import { eventForwarder, hostOn, nextMessage, taskRunner, toolHandlers } from './runtime';

/** Ends the wait of the offer `runHanded` is waiting on, if there is one. */
let withdrawOffer: (() => void) | undefined;

/** What the page calls in a worker named `subagent-N`. */
export const subagentApi: SubagentWorkerApi = {
  // The worker's own time: the page may be busy when the answer arrives.
  ready: () => ({ name: self.name, readyAtEpoch: performance.timeOrigin + performance.now() }),

  async run(request, sandbox, hostPort) {
    const host = hostOn<TaskHost>(hostPort);
    const events = eventForwarder(host);
    try {
      const { agent, prompt, depth, forkFrom, settings } = checkSubagentRun(request);
      return await runSubagent(prompt, {
        agent,
        model: await createModel(settings.model),
        modelName: settings.modelName,
        workdir: settings.workdir,
        baseHandlers: toolHandlers(sandbox, settings),
        depth,
        forkFrom,
        context: settings.context,
        limits: settings.limits,
        concurrentTasks: true,
        onEvent: events.onEvent,
        runTask: taskRunner(host, events),
      });
    } finally {
      events.end();
    }
  },

  async runHanded(request, sandbox, hostPort, hand) {
    const withdrawn = new Promise<null>((resolve) => (withdrawOffer = () => resolve(null)));
    const task = await Promise.race([nextMessage(hand, checkHandedTask), withdrawn]).finally(() => {
      withdrawOffer = undefined;
      hand.onmessage = null;
    });
    if (!task) {
      hand.close();
      sandbox.close();
      // No events, but an end to them: the page takes the answer once their last batch is in.
      eventForwarder(hostOn(hostPort)).end();
      return null;
    }
    const run = { ...request, prompt: task.prompt, ...(task.forkFrom ? { forkFrom: task.forkFrom } : {}) };
    const summary = await subagentApi.run(run, sandbox, hostPort);
    hand.postMessage({ summary } satisfies HandedSummary);
    hand.close();
    return summary;
  },

  withdraw() {
    withdrawOffer?.();
  },
};
