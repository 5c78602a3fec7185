/**
 * The parent's worker side of a run, reached as the page reaches it: its host served by the page
 * on a port of its own, the sandbox served on another. The worker lives across runs and keeps
 * nothing between them: each run speaks to the host it was given, and only to it.
 */
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskRequest } from '../../core/loop';
import { REFERENCE_LIMITS } from '../../core/variants';
import { create } from '../../sandbox/local';
import { loadSample } from '../../sandbox/samples';
import { serveSandbox } from '../sandbox/service';
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

/**
 * The page's side of one run, served on a port as the page serves it; `port` is the worker's end.
 * `lastBatch` settles once the run's last events are in (they travel apart from its result).
 */
function pageHost() {
  const events: WorkerEvent[] = [];
  const tasks: TaskRequest[] = [];
  let ended = () => {};
  const lastBatch = new Promise<void>((resolve) => (ended = resolve));
  const served: ParentHost = {
    onEvents: (batch, last) => {
      events.push(...batch);
      if (last) ended();
    },
    runTask: (task) => {
      tasks.push(task);
      return Promise.resolve('The project uses Vitest (see package.json).');
    },
  };
  const { port1: pageEnd, port2: port } = new MessageChannel();
  opened.push(pageEnd, port);
  Comlink.expose(served, pageEnd);
  return { port, events, tasks, lastBatch };
}

async function servedSandbox(): Promise<MessagePort> {
  const local = await create(loadSample('typescript'));
  const { port1, port2 } = new MessageChannel();
  opened.push(
    serveSandbox(() => local, port2),
    port1,
    { close: () => local.dispose() },
  );
  return port1;
}

describe('parent worker: a run and its host', () => {
  it("a run's events and its task reach the page on the port it was given", async () => {
    const page = pageHost();
    await parentApi.run({ prompt: PROMPT, history: [], settings }, await servedSandbox(), page.port);
    await page.lastBatch;
    expect(page.tasks).toHaveLength(1);
    expect(page.events.some((event) => event.type === 'model_end')).toBe(true);
    expect(page.events).toContainEqual(
      expect.objectContaining({ type: 'task_end', summary: 'The project uses Vitest (see package.json).' }),
    );
  });

  it('the next run speaks only to its own host', async () => {
    const first = pageHost();
    await parentApi.run({ prompt: PROMPT, history: [], settings }, await servedSandbox(), first.port);
    await first.lastBatch;
    const seen = first.events.length;
    const second = pageHost();
    await parentApi.run({ prompt: PROMPT, history: [], settings }, await servedSandbox(), second.port);
    await second.lastBatch;
    expect(second.tasks).toHaveLength(1);
    expect(second.events.length).toBeGreaterThan(0);
    expect(first.events).toHaveLength(seen);
    expect(first.tasks).toHaveLength(1);
  });
});
