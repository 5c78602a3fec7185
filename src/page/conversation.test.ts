/**
 * The orchestration of a run, in Node, with fake workers: a fresh worker per task, results in
 * call order, Stop mid-task, a worker that dies, a spare never reused, and the cap on subagents
 * at once (with tasks waiting their turn in call order, and delegation chains that still finish).
 */
import { describe, expect, it, vi } from 'vitest';
import type { TaskRequest } from '../core/loop';
import type { AgentId } from '../core/messages';
import { REFERENCE_LIMITS, type LoopLimits } from '../core/variants';
import type { RunEvent, RunSettings } from '../run/record';
import type { AgentSettings, WorkerEvent } from '../workers/agent/protocol';
import type { AgentHandlers, Lifecycle, SubagentWorker } from './agent-workers';
import { Conversation, type AgentPool, type RunSetup } from './conversation';
import { TaskQueue } from './task-queue';

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What a fake subagent does with its prompt: `wait:N` answers after N ms, `die` fails as a
 * worker that crashed, `hang` never answers, `fan:K:D` calls K tasks at once while D > 0 (the
 * same again one level down), then answers.
 */
async function behave(prompt: string, handlers: AgentHandlers, agent: AgentId): Promise<string> {
  const [kind, a, b] = prompt.split(':');
  if (kind === 'wait') await tick(Number(a));
  if (kind === 'die') throw new Error(`the ${agent} worker failed`);
  if (kind === 'hang') await new Promise(() => {});
  if (kind === 'fan') {
    const levels = Number(b);
    if (levels > 0)
      await callTasks(
        agent,
        handlers,
        Array.from({ length: Number(a) }, () => `fan:${a}:${levels - 1}`),
      );
    else await tick(1);
  }
  return `summary of ${prompt} by ${agent}`;
}

let taskIds = 0;

/** Calls one task per prompt, all at once, as the loop does for one response's `task` calls. */
function callTasks(agent: AgentId, handlers: AgentHandlers, prompts: string[]): Promise<string[]> {
  return Promise.all(
    prompts.map((prompt) => {
      const task: TaskRequest = { id: `toolu_${++taskIds}`, prompt, description: prompt };
      // The worker asks for the subagent first; its task_start comes in its next batch.
      const summary = handlers.runTask(task, performance.timeOrigin + performance.now());
      handlers.onEvents([{ type: 'task_start', agent, id: task.id, description: prompt, prompt }]);
      return summary.then(
        (text) => {
          handlers.onEvents([{ type: 'task_end', agent, id: task.id, summary: text }]);
          return text;
        },
        (error: Error) => `Error: ${error.message}`,
      );
    }),
  );
}

interface FakeWorker extends SubagentWorker {
  runs: number;
  terminated: boolean;
}

/** Fake agent workers: they record what was asked of them, and how many were alive at most. */
class FakePool implements AgentPool {
  readonly workers: FakeWorker[] = [];
  readonly parentResults: string[][] = [];
  maxAlive = 0;
  spareRef: FakeWorker | undefined;
  parentAlive = false;
  readonly alive = new Set<FakeWorker>();
  stopAllCalls = 0;
  parentScript: (handlers: AgentHandlers) => Promise<void> = async () => {};

  constructor(readonly lifecycle: Lifecycle) {}

  get live(): AgentId[] {
    return [...(this.parentAlive ? ['parent'] : []), ...[...this.alive].map((w) => w.id)];
  }
  get spare(): AgentId | null {
    return this.spareRef?.id ?? null;
  }
  /** Whether a spare has answered that it is ready (all do, unless a test says otherwise). */
  spareReady = true;
  isReady(): boolean {
    return this.spareReady;
  }
  #create(id: AgentId): FakeWorker {
    const now = performance.timeOrigin + performance.now();
    const worker: FakeWorker = {
      id,
      runs: 0,
      terminated: false,
      ready: Promise.resolve({ name: id, readyAtEpoch: now }),
      run: async (request, _port, handlers) => {
        worker.runs++;
        if (worker.terminated) throw new Error(`${id} ran after it was terminated`);
        return behave(request.prompt, handlers, id);
      },
      terminate: () => {
        if (worker.terminated) return;
        worker.terminated = true;
        this.alive.delete(worker);
        this.lifecycle(id, 'terminated', performance.timeOrigin + performance.now());
      },
    };
    this.workers.push(worker);
    this.alive.add(worker);
    this.maxAlive = Math.max(this.maxAlive, this.alive.size);
    this.lifecycle(id, 'created', now);
    return worker;
  }
  prepare(id: AgentId): void {
    if (this.spareRef?.id === id) return;
    this.dropSpare();
    this.spareRef = this.#create(id);
  }
  dropSpare(): void {
    const spare = this.spareRef;
    this.spareRef = undefined;
    spare?.terminate();
  }
  startParent(): void {
    this.parentAlive = true;
  }
  async runParent(_request: unknown, _port: MessagePort, handlers: AgentHandlers): Promise<void> {
    this.parentAlive = true;
    await this.parentScript(handlers);
  }
  spawn(id: AgentId): SubagentWorker {
    if (this.spareRef?.id === id) {
      const spare = this.spareRef;
      this.spareRef = undefined;
      return spare;
    }
    return this.#create(id);
  }
  stopAll(): AgentId[] {
    this.stopAllCalls++;
    const live = this.live;
    this.spareRef = undefined;
    this.parentAlive = false;
    for (const worker of [...this.alive]) worker.terminate();
    return live;
  }
}

/** An offer of the spare to the parent (AgentWorkers.offer), as the fake parent sees it. */
interface FakeOffer {
  id: AgentId;
  withdrawn: boolean;
  task?: TaskRequest;
  /** Hands the task down the offer, as the parent's worker does (runtime.ts, taskRunner). */
  hand(task: TaskRequest): void;
  /** What comes back up the hand: the subagent's summary (only on success), or null if withdrawn. */
  result: Promise<string | null>;
}

/** Fake workers whose spare can be offered to the parent's first task. */
class HandingPool extends FakePool {
  readonly offers: FakeOffer[] = [];

  offer(id: AgentId, _request: unknown, _sandbox: MessagePort, handlers: AgentHandlers) {
    const spare = this.spareRef;
    if (spare?.id !== id) return null;
    const offer = { id, withdrawn: false } as FakeOffer;
    offer.result = new Promise<string | null>((resolve, reject) => {
      offer.hand = (task) => {
        offer.task = task;
        spare.runs++;
        behave(task.prompt, handlers, id).then((summary) => {
          // Its last event, stamped in its worker as it returns.
          handlers.onEvents(
            [{ type: 'log', agent: id, line: 'returning' }],
            [performance.timeOrigin + performance.now()],
          );
          resolve(summary);
        }, reject);
      };
      offer.withdraw = () => {
        offer.withdrawn = true;
        resolve(null);
      };
    });
    offer.result.catch(() => {});
    this.offers.push(offer);
    const { port1 } = new MessageChannel();
    port1.close();
    // The page has it later than the parent: once the subagent's last batch of events is in.
    const onPage = offer.result.then(async (summary) => (await tick(5), summary));
    return { id, hand: port1, result: onPage, withdraw: () => offer.withdraw() };
  }
}
interface FakeOffer {
  withdraw(): void;
}

/**
 * The parent's worker with an offer: its first task goes down the hand and its summary is taken
 * from there as soon as it comes (before the page has recorded it); the page is told, and its
 * answer counts only if it fails. The other tasks go to the page, all at once.
 */
function parentHanding(pool: HandingPool, prompts: string[]): void {
  pool.parentScript = async (handlers) => {
    const offer = pool.offers.at(-1);
    const [first, ...rest] = prompts;
    const handed = async (): Promise<string> => {
      const task: TaskRequest = { id: `toolu_${++taskIds}`, prompt: first, description: first };
      offer!.hand(task);
      const told = handlers.runTask(task, performance.timeOrigin + performance.now(), true);
      told.catch(() => {});
      handlers.onEvents([
        { type: 'task_start', agent: 'parent', id: task.id, description: first, prompt: first },
      ]);
      const up = offer!.result.then((summary) => summary ?? Promise.reject(new Error('withdrawn')));
      const text = await Promise.race([up, told]).catch((error: Error) => `Error: ${error.message}`);
      // Stamped when it happened in the parent's worker: as soon as the summary came up the hand.
      handlers.onEvents(
        [{ type: 'task_end', agent: 'parent', id: task.id, summary: text }],
        [performance.timeOrigin + performance.now()],
      );
      return text;
    };
    pool.parentResults.push(
      await Promise.all([handed(), ...(rest.length ? [callTasks('parent', handlers, rest)] : [])]).then(
        ([a, b]) => [a, ...(b ?? [])],
      ),
    );
    handlers.onEvents([{ type: 'log', agent: 'parent', line: 'after the tasks' }]);
  };
}

const SETTINGS = { provider: 'demo', model: 'demo', sample: 'python', sandbox: 'fake', context: 'isolated' };

function setup(limits: Partial<LoopLimits> = {}, maxSubagents = 8): RunSetup {
  const all = { ...REFERENCE_LIMITS, ...limits };
  return {
    settings: { ...SETTINGS, limits: all } as RunSettings,
    agent: { context: 'isolated', limits: all } as AgentSettings,
    maxSubagents,
  };
}

function conversation<Pool extends FakePool = FakePool>(
  options: { spare?: boolean; handing?: boolean } = {},
) {
  let pool: FakePool | undefined;
  const closed: number[] = [];
  const recorded: RunEvent[] = [];
  const conv = new Conversation({
    agents: (lifecycle) => (pool = options.handing ? new HandingPool(lifecycle) : new FakePool(lifecycle)),
    sandbox: {
      port: () => {
        const { port1 } = new MessageChannel();
        port1.close();
        return { port: port1, line: { connected: Promise.resolve(), close() {} }, release: () => {} };
      },
      closeConnections: () => closed.push(1),
    },
    hooks: { wantsSpare: () => options.spare ?? false, recorded: (event) => recorded.push(event) },
  });
  return { conv, pool: pool! as Pool, closed, recorded };
}

/** The parent calls one task per prompt at once, and keeps the summaries in the order it got them back. */
function parentCalling(pool: FakePool, prompts: string[]): void {
  pool.parentScript = async (handlers) => {
    pool.parentResults.push(await callTasks('parent', handlers, prompts));
  };
}

const status = (events: readonly { type: string }[]) =>
  events
    .filter((e): e is Extract<RunEvent, { type: 'status' }> => e.type === 'status')
    .map((e) => e.status.kind);

describe('Conversation', () => {
  it('gives each task a fresh worker, terminated once it has answered', async () => {
    const { conv, pool } = conversation();
    parentCalling(pool, ['wait:5', 'wait:1', 'wait:3']);
    await conv.run('go', setup());
    expect(pool.workers.map((w) => w.id)).toEqual(['subagent-1', 'subagent-2', 'subagent-3']);
    expect(pool.workers.every((w) => w.runs === 1 && w.terminated)).toBe(true);
    expect(status(conv.liveRun!.record.events)).toEqual(['running', 'finished']);
  });

  it('answers in call order, however the subagents finish', async () => {
    const { conv, pool } = conversation();
    parentCalling(pool, ['wait:20', 'wait:1', 'wait:10']);
    await conv.run('go', setup());
    expect(pool.parentResults[0]).toEqual([
      'summary of wait:20 by subagent-1',
      'summary of wait:1 by subagent-2',
      'summary of wait:10 by subagent-3',
    ]);
    // In the record, each caller's task_start comes before its subagent's first event.
    const events = conv.liveRun!.record.events;
    for (const id of ['subagent-1', 'subagent-2', 'subagent-3']) {
      const spawn = events.findIndex((e) => e.type === 'spawn' && e.agent === id);
      const spawnEvent = events[spawn] as Extract<RunEvent, { type: 'spawn' }>;
      const start = events.findIndex((e) => e.type === 'task_start' && e.id === spawnEvent.taskId);
      expect(start).toBeGreaterThanOrEqual(0);
      expect(spawn).toBeGreaterThan(start);
    }
  });

  it('stops mid-task: every worker terminated, the record says stopped, nothing runs after', async () => {
    const { conv, pool, closed } = conversation();
    parentCalling(pool, ['hang', 'hang', 'wait:1']);
    const running = conv.run('go', setup());
    await tick(5);
    expect(conv.running).toBe(true);
    conv.stop();
    await running;
    expect(conv.running).toBe(false);
    expect(pool.alive.size).toBe(0);
    expect(pool.parentAlive).toBe(false);
    expect(closed.length).toBeGreaterThan(0);
    expect(status(conv.liveRun!.record.events)).toEqual(['running', 'stopped']);
  });

  it('a worker that dies fails its task only; the caller gets the error and the run goes on', async () => {
    const { conv, pool } = conversation();
    parentCalling(pool, ['wait:1', 'die', 'wait:2']);
    await conv.run('go', setup());
    expect(pool.parentResults[0]).toEqual([
      'summary of wait:1 by subagent-1',
      'Error: the subagent-2 worker failed',
      'summary of wait:2 by subagent-3',
    ]);
    const states = conv.liveRun!.record.events.filter((e) => e.type === 'agent_state');
    expect(states.map((e) => [e.agent, e.state])).toEqual(
      expect.arrayContaining([
        ['subagent-2', 'failed'],
        ['subagent-1', 'discarded'],
        ['subagent-3', 'discarded'],
      ]),
    );
    expect(pool.workers.every((w) => w.terminated)).toBe(true);
    expect(status(conv.liveRun!.record.events)).toEqual(['running', 'finished']);
  });

  it('never gives the spare a second task: each task takes a fresh one', async () => {
    const { conv, pool } = conversation({ spare: true });
    conv.warm();
    expect(pool.spare).toBe('subagent-1');
    const spare = pool.spareRef!;
    parentCalling(pool, ['wait:1']);
    await conv.run('go', setup());
    parentCalling(pool, ['wait:1']);
    await conv.run('again', setup());
    // The spare ran the first task, then was terminated; each run's task had a worker of its own.
    expect(spare.runs).toBe(1);
    expect(spare.terminated).toBe(true);
    expect(pool.workers.filter((w) => w.runs > 0).map((w) => w.id)).toEqual(['subagent-1', 'subagent-2']);
    expect(pool.workers.every((w) => w.runs <= 1)).toBe(true);
    expect(pool.spare).toBe('subagent-3');
  });

  it("hands the parent's first task straight to the spare; the record reads as if the page had passed it on", async () => {
    const { conv, pool } = conversation<HandingPool>({ spare: true, handing: true });
    conv.warm();
    parentHanding(pool, ['wait:3']);
    await conv.run('go', setup());
    expect(pool.offers.map((o) => [o.id, o.task?.prompt, o.withdrawn])).toEqual([
      ['subagent-1', 'wait:3', false],
    ]);
    expect(pool.parentResults[0]).toEqual(['summary of wait:3 by subagent-1']);
    // One worker ran it (the spare, handed the task), and it is gone.
    expect(pool.workers.filter((w) => w.runs > 0).map((w) => [w.id, w.runs, w.terminated])).toEqual([
      ['subagent-1', 1, true],
    ]);
    // The parent had the summary before the page; its task_end and what followed are recorded after the subagent's end.
    const events = conv.liveRun!.record.events;
    const at = (match: (e: RunEvent) => boolean) => events.findIndex(match);
    const order = [
      at((e) => e.type === 'task_start' && e.agent === 'parent'),
      at((e) => e.type === 'spawn' && e.agent === 'subagent-1'),
      at((e) => e.type === 'agent_state' && e.agent === 'subagent-1' && e.state === 'discarded'),
      at((e) => e.type === 'task_end' && e.agent === 'parent'),
      at((e) => e.type === 'log' && e.line === 'after the tasks'),
      at((e) => e.type === 'status' && e.status.kind === 'finished'),
    ];
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    for (let i = 1; i < events.length; i++) expect(events[i].t).toBeGreaterThanOrEqual(events[i - 1].t);
    // At the time it happened: before the page ended the subagent's worker (5 ms after, here).
    const taskEnd = events[order[3]];
    const terminated = events.find(
      (e) => e.type === 'worker' && e.worker === 'subagent-1' && e.phase === 'terminated',
    )!;
    expect(terminated.t - taskEnd.t).toBeGreaterThanOrEqual(3);
  });

  it("records a worker's events at the times they happened there, not when the page read them", async () => {
    const { conv, pool } = conversation();
    const epoch = () => performance.timeOrigin + performance.now();
    pool.parentScript = async (handlers) => {
      const happened = epoch();
      await tick(30); // the page was busy
      handlers.onEvents(
        [
          { type: 'log', agent: 'parent', line: 'first' },
          { type: 'log', agent: 'parent', line: 'second' },
        ],
        [happened, happened + 4],
      );
    };
    await conv.run('go', setup());
    const events = conv.liveRun!.record.events;
    const first = events.find((e) => e.type === 'log' && e.line === 'first')!;
    const second = events.find((e) => e.type === 'log' && e.line === 'second')!;
    const finished = events.find((e) => e.type === 'status' && e.status.kind === 'finished')!;
    expect(second.t - first.t).toBeCloseTo(4, 0);
    expect(finished.t - first.t).toBeGreaterThanOrEqual(25);
  });

  it('a second task called at once goes through the page, to a worker of its own', async () => {
    const { conv, pool } = conversation<HandingPool>({ spare: true, handing: true });
    conv.warm();
    parentHanding(pool, ['wait:5', 'wait:1']);
    await conv.run('go', setup());
    expect(pool.parentResults[0]).toEqual([
      'summary of wait:5 by subagent-1',
      'summary of wait:1 by subagent-2',
    ]);
    expect(pool.offers.map((o) => o.task?.prompt)).toEqual(['wait:5']);
    expect(pool.workers.filter((w) => w.runs > 0).map((w) => [w.id, w.runs])).toEqual([
      ['subagent-1', 1],
      ['subagent-2', 1],
    ]);
    expect(status(conv.liveRun!.record.events)).toEqual(['running', 'finished']);
  });

  it('a handed subagent that fails: the parent gets the error from the page, the record says failed', async () => {
    const { conv, pool } = conversation<HandingPool>({ spare: true, handing: true });
    conv.warm();
    parentHanding(pool, ['die']);
    await conv.run('go', setup());
    expect(pool.parentResults[0]).toEqual(['Error: the subagent-1 worker failed']);
    const states = conv.liveRun!.record.events.filter((e) => e.type === 'agent_state');
    expect(states.map((e) => [e.agent, e.state])).toEqual([['subagent-1', 'failed']]);
    expect(pool.spareRef?.terminated ?? true).toBe(true);
    expect(status(conv.liveRun!.record.events)).toEqual(['running', 'finished']);
  });

  it('an offer the run does not take is withdrawn: the spare stays the spare, offered again next run', async () => {
    const { conv, pool } = conversation<HandingPool>({ spare: true, handing: true });
    conv.warm();
    pool.parentScript = async (handlers) =>
      handlers.onEvents([{ type: 'log', agent: 'parent', line: 'no task' }]);
    await conv.run('go', setup());
    expect(pool.offers.map((o) => [o.id, o.withdrawn])).toEqual([['subagent-1', true]]);
    expect(pool.spare).toBe('subagent-1');
    expect(pool.spareRef!.terminated).toBe(false);
    // Nothing of the spare's waiting was held back in the record, nor left held for the next run.
    parentHanding(pool, ['wait:1']);
    await conv.run('again', setup());
    expect(pool.offers.map((o) => [o.id, o.withdrawn, o.task?.prompt])).toEqual([
      ['subagent-1', true, undefined],
      ['subagent-1', false, 'wait:1'],
    ]);
    expect(pool.parentResults.at(-1)).toEqual(['summary of wait:1 by subagent-1']);
    const spawns = conv.liveRun!.record.events.filter((e) => e.type === 'spawn');
    expect(spawns.map((e) => e.agent)).toEqual(['subagent-1']);
  });

  it('a spare still starting is not offered: the first task goes through the page to it', async () => {
    const { conv, pool } = conversation<HandingPool>({ spare: true, handing: true });
    conv.warm();
    pool.spareReady = false;
    parentCalling(pool, ['wait:1']);
    await conv.run('go', setup());
    expect(pool.offers).toEqual([]);
    expect(pool.parentResults[0]).toEqual(['summary of wait:1 by subagent-1']);
    expect(pool.workers.filter((w) => w.runs > 0).map((w) => w.id)).toEqual(['subagent-1']);
  });

  it('Stop while a handed subagent runs ends it and every other worker at once', async () => {
    const { conv, pool } = conversation<HandingPool>({ spare: true, handing: true });
    conv.warm();
    parentHanding(pool, ['hang']);
    const running = conv.run('go', setup());
    await tick(5);
    conv.stop();
    await running;
    expect(pool.alive.size).toBe(0);
    expect(status(conv.liveRun!.record.events)).toEqual(['running', 'stopped']);
  });

  it('runs at most 8 subagents at once; the others wait in call order and answer in call order', async () => {
    const { conv, pool } = conversation({ spare: true });
    conv.warm();
    const prompts = Array.from({ length: 20 }, (_, i) => `wait:${(i * 7) % 5}`);
    parentCalling(pool, prompts);
    const started: AgentId[] = [];
    const running = conv.run('go', setup());
    // Mid-run, the tasks that could not start yet are waiting.
    await tick(0);
    expect(conv.queued).toBe(12);
    await running;
    for (const event of conv.liveRun!.record.events) {
      if (event.type === 'worker' && event.phase === 'created') started.push(event.worker);
    }
    expect(pool.maxAlive).toBeLessThanOrEqual(8);
    expect(pool.workers.filter((w) => w.runs > 0)).toHaveLength(20);
    // Workers start in call order.
    const numbers = started.map((id) => Number(id.slice('subagent-'.length)));
    expect(numbers.slice(0, 20)).toEqual([...numbers.slice(0, 20)].sort((a, b) => a - b));
    expect(pool.parentResults[0]).toEqual(prompts.map((p, i) => `summary of ${p} by subagent-${i + 1}`));
  });

  it('without the cap the same 20 tasks all run at once (the cap is what holds them)', async () => {
    const { conv, pool } = conversation();
    parentCalling(
      pool,
      Array.from({ length: 20 }, () => 'wait:2'),
    );
    await conv.run('go', setup({}, 32));
    expect(pool.maxAlive).toBe(20);
  });

  it('finishes 340 subagents delegating 3 levels deep, 4 at each, never more than 8 alive', async () => {
    const { conv, pool } = conversation({ spare: true });
    conv.warm();
    parentCalling(
      pool,
      Array.from({ length: 4 }, () => 'fan:4:3'),
    );
    await conv.run('go', setup({ delegationDepth: 3 }));
    expect(pool.workers.filter((w) => w.runs > 0)).toHaveLength(340);
    expect(pool.maxAlive).toBeLessThanOrEqual(8);
    expect(status(conv.liveRun!.record.events)).toEqual(['running', 'finished']);
  });

  it('stops a run of 340 subagents at once, with waiting tasks never started', async () => {
    const { conv, pool } = conversation();
    parentCalling(
      pool,
      Array.from({ length: 4 }, () => 'fan:4:3'),
    );
    const running = conv.run('go', setup({ delegationDepth: 3 }));
    await tick(5);
    const before = pool.workers.length;
    conv.stop();
    await running;
    await tick(5);
    expect(pool.alive.size).toBe(0);
    expect(pool.workers.length).toBe(before);
    expect(before).toBeLessThan(340);
    expect(status(conv.liveRun!.record.events)).toEqual(['running', 'stopped']);
  });

  it('starts no worker after Stop, not even the spare it would have started ahead in idle time', async () => {
    const idle: Array<() => void> = [];
    vi.stubGlobal('requestIdleCallback', (task: () => void) => idle.push(task));
    try {
      const { conv, pool } = conversation({ spare: true });
      conv.warm();
      // A finished run first: a spare is started ahead for the next run, in idle time.
      parentCalling(pool, ['wait:1']);
      await conv.run('go', setup());
      parentCalling(
        pool,
        Array.from({ length: 4 }, () => 'fan:4:3'),
      );
      const running = conv.run('again', setup({ delegationDepth: 3 }));
      await tick(5);
      conv.stop();
      await running;
      // The idle moments after Stop come (the finished run's and the stopped run's requests).
      expect(idle.length).toBeGreaterThanOrEqual(2);
      for (const task of idle.splice(0)) task();
      expect(pool.alive.size).toBe(0);
      expect(pool.spare).toBeNull();
      // The next run starts the workers it needs again.
      parentCalling(pool, ['wait:1']);
      await conv.run('once more', setup());
      expect(status(conv.liveRun!.record.events).slice(-2)).toEqual(['running', 'finished']);
      for (const task of idle.splice(0)) task();
      expect(pool.spare).not.toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('holds a subagent event until its caller records task_start', async () => {
    const { conv, pool, recorded } = conversation();
    pool.parentScript = async (handlers) => {
      const task: TaskRequest = { id: 'toolu_x', prompt: 'wait:5', description: 'd' };
      const summary = handlers.runTask(task, performance.timeOrigin + performance.now());
      await tick(2);
      expect(recorded.some((e) => e.type === 'spawn')).toBe(false);
      handlers.onEvents([
        { type: 'task_start', agent: 'parent', id: 'toolu_x', description: 'd', prompt: 'wait:5' },
      ]);
      expect(recorded.some((e) => e.type === 'spawn')).toBe(true);
      await summary;
    };
    await conv.run('go', setup());
  });

  it('records what the run scrubs, and a failure with its reason', async () => {
    const { conv, pool } = conversation();
    pool.parentScript = async (handlers) => {
      handlers.onEvents([{ type: 'error', agent: 'parent', error: 'key sk-secret' } as WorkerEvent]);
      throw new Error('boom sk-secret');
    };
    await conv.run('go', {
      ...setup(),
      scrub: (event) =>
        event.type === 'error' ? { ...event, error: event.error.replace('sk-secret', '***') } : event,
      reason: (error) => (error as Error).message.replace('sk-secret', '***'),
    });
    const events = conv.liveRun!.record.events;
    expect(JSON.stringify(events)).not.toContain('sk-secret');
    expect(events.at(-1)).toMatchObject({ type: 'status', status: { kind: 'failed', reason: 'boom ***' } });
    expect(pool.stopAllCalls).toBe(1);
  });
});

describe('TaskQueue', () => {
  it('starts tasks in call order as turns free up', async () => {
    const queue = new TaskQueue(2, 1);
    const order: number[] = [];
    const turns = [0, 1, 2, 3].map((i) => {
      const turn = queue.take(1);
      void turn.started.then(() => order.push(i));
      return turn;
    });
    expect(turns.map((t) => t.now)).toEqual([true, true, false, false]);
    turns[1].done();
    turns[0].done();
    await tick();
    expect(order).toEqual([0, 1, 2, 3]);
    expect(queue.running).toBe(2);
  });

  it('lets a deeper task go first when the next in line may not start yet', () => {
    const queue = new TaskQueue(4, 3);
    const a = queue.take(1); // 1 running, 2 turns kept back for its chain
    const b = queue.take(1); // 2 + 2 = 4: starts
    const c = queue.take(1); // 3 + 2 > 4: waits
    expect([a.now, b.now, c.now]).toEqual([true, true, false]);
    const d = queue.take(2); // 2 + 1 + 1 = 4: starts before c, which may not start yet
    expect(d.now).toBe(true);
    expect(queue.waiting).toBe(1);
    b.done(); // 2 running: c (2 + 1 + 2 = 5) still waits
    expect(queue.waiting).toBe(1);
    d.done(); // 1 running: c (1 + 1 + 2 = 4) starts
    expect(queue.running).toBe(2);
    expect(queue.waiting).toBe(0);
  });

  it('never keeps fewer turns than a delegation chain needs', () => {
    const queue = new TaskQueue(1, 4);
    expect(queue.limit).toBe(4);
    expect(queue.take(1).now).toBe(true);
  });

  it('fails the waiting tasks once closed', async () => {
    const queue = new TaskQueue(1, 1);
    queue.take(1);
    const waiting = queue.take(1);
    queue.close();
    await expect(waiting.started).rejects.toThrow('Stopped');
    expect(queue.take(1).now).toBe(false);
  });

  it('finishes random delegation trees within the cap (no chain is ever stuck)', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 30; round++) {
      const levels = 1 + Math.floor(random() * 4);
      const queue = new TaskQueue(1 + Math.floor(random() * 10), levels);
      let alive = 0;
      let max = 0;
      let finished = 0;
      const task = async (depth: number): Promise<void> => {
        const turn = queue.take(depth);
        await turn.started;
        alive++;
        max = Math.max(max, alive);
        const children = depth < levels ? Math.floor(random() * 4) : 0;
        await Promise.all(Array.from({ length: children }, () => task(depth + 1)));
        await tick(0);
        alive--;
        finished++;
        turn.done();
      };
      const roots = 1 + Math.floor(random() * 5);
      await Promise.race([
        Promise.all(Array.from({ length: roots }, () => task(1))),
        tick(2000).then(() => {
          throw new Error(`stuck: limit ${queue.limit}, levels ${levels}, ${queue.waiting} waiting`);
        }),
      ]);
      expect(max).toBeLessThanOrEqual(queue.limit);
      expect(finished).toBeGreaterThanOrEqual(roots);
    }
  });
});
