/**
 * The parent's worker side of a run, reached as the page reaches it: its host a Comlink proxy on a
 * port of its own, the sandbox served on another. The worker lives across runs, so each run lets
 * go of its host when it ends, however it ends: the page then closes its end of the host's port,
 * and nothing of the run stays held on the page for it.
 */
import { once } from 'node:events';
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskRequest } from '../../core/loop';
import { REFERENCE_LIMITS } from '../../core/variants';
import { create, type LocalSandbox } from '../../sandbox/local';
import { loadSample } from '../../sandbox/samples';
import { serveSandbox, type SandboxConnection } from '../sandbox/service';
import { parentApi } from './parent';
import type { AgentSettings, ParentHost, WorkerEvent } from './protocol';

const PROMPT = 'Use a subtask to find what testing framework this project uses';

const settings = {
  model: { provider: 'demo', speed: 'instant' },
  modelName: 'demo',
  workdir: '/project',
  bashTimeoutMs: 20_000,
  context: 'isolated',
  limits: REFERENCE_LIMITS,
} as AgentSettings;

const opened: Array<{ close(): void }> = [];
afterEach(() => {
  for (const thing of opened.splice(0)) thing.close();
});

/** The page's side of a run, served on `pageEnd` as Comlink serves a proxied host; the worker gets `host`. */
function pageHost() {
  const events: WorkerEvent[] = [];
  const tasks: TaskRequest[] = [];
  const served: ParentHost = {
    onEvents: (batch) => void events.push(...batch),
    runTask: (task) => {
      tasks.push(task);
      return Promise.resolve('The project uses Vitest (see package.json).');
    },
  };
  const { port1: pageEnd, port2: workerEnd } = new MessageChannel();
  opened.push(pageEnd, workerEnd);
  Comlink.expose(served, pageEnd);
  const closed = once(pageEnd, 'close');
  return { host: Comlink.wrap<ParentHost>(workerEnd), events, tasks, closed };
}

async function servedSandbox(): Promise<{ port: MessagePort; local: LocalSandbox }> {
  const local = await create(loadSample('typescript'));
  const { port1, port2 } = new MessageChannel();
  const connection: SandboxConnection = serveSandbox(() => local, port2);
  opened.push(connection, port1, { close: () => local.dispose() });
  return { port: port1, local };
}

describe('parent worker: a run lets go of its host', () => {
  it('a finished run: its events and task reached the page, then the page closes the host port', async () => {
    const page = pageHost();
    const { port } = await servedSandbox();
    await parentApi.run({ prompt: PROMPT, history: [], settings }, port, page.host);
    await page.closed;
    expect(page.tasks).toHaveLength(1);
    expect(page.events.some((event) => event.type === 'model_end')).toBe(true);
  });

  it('a run refused at once (an empty prompt) lets go of it too', async () => {
    const page = pageHost();
    const { port } = await servedSandbox();
    await expect(parentApi.run({ prompt: ' ', history: [], settings }, port, page.host)).rejects.toThrow(
      'run: the prompt is empty',
    );
    await page.closed;
    expect(page.tasks).toEqual([]);
  });
});
