/**
 * The parent loop's side of an agent worker (named `parent`, ./agent.ts). It keeps nothing between
 * runs: the page sends the history each time, so Stop can terminate this worker without losing the
 * conversation.
 */
import { parentLoop } from '../../core/loop';
import { createModel } from '../../models';
import { checkParentRun, type ParentHost, type ParentWorkerApi } from './protocol';
import { eventForwarder, hostOn, taskRunner, toolHandlers } from './runtime';

/** What the page calls in the worker named `parent`. */
export const parentApi: ParentWorkerApi = {
  async run(request, sandbox, hostPort, hand?: MessagePort) {
    const host = hostOn<ParentHost>(hostPort);
    const events = eventForwarder(host);
    try {
      const { prompt, history, settings } = checkParentRun(request);
      await parentLoop(prompt, {
        model: await createModel(settings.model),
        modelName: settings.modelName,
        workdir: settings.workdir,
        baseHandlers: toolHandlers(sandbox, settings),
        history,
        context: settings.context,
        limits: settings.limits,
        concurrentTasks: true,
        onEvent: events.onEvent,
        runTask: taskRunner(host, events, hand),
      });
    } finally {
      hand?.close();
      events.end();
    }
  },
};
