/**
 * The runtime in Node, with fake agent workers, a fake sandbox and a History that counts what it
 * is asked to keep: every public method, the wiring between its owners (the sandbox's file changes
 * reach the record), and when runs start and end.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentId } from '../core/messages';
import { REFERENCE_LIMITS } from '../core/variants';
import type { ModelConfig } from '../models/config';
import type { RunEvent, RunRecord, RunSettings } from '../run/record';
import { readUrlSettings } from '../settings/url-settings';
import type { AgentSettings } from '../workers/agent/protocol';
import type { AgentHandlers, Lifecycle, SubagentWorker } from './agent-workers';
import type { RunChoice } from './comparison.svelte';
import type { AgentPool, RunSetup } from './conversation';
import { Recorder, type Keeper, type RunKeeping, type Summarize } from './recorder.svelte';
import { Runtime, SERVICE_WORKER_AFTER_MS, STEPPING_QUIET_MS, type RuntimeScreen } from './runtime.svelte';
import type { SandboxEvents, SandboxSession } from './sandbox-session.svelte';

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What the fake parent does with a prompt: `hang` never answers (until Stop), `task` calls one
 * subagent, anything else answers at once with a log line.
 */
class FakePool implements AgentPool {
  /** Each run's request, as the parent's worker was given it. */
  readonly requests: Array<{ prompt: string; settings: AgentSettings }> = [];
  readonly spawned: AgentId[] = [];
  /** The spares asked for, by name. */
  readonly prepared: AgentId[] = [];
  stopAllCalls = 0;
  readonly live: AgentId[] = [];
  readonly spare = null;

  constructor(readonly lifecycle: Lifecycle) {}

  isReady(): boolean {
    return true;
  }
  prepare(id: AgentId): void {
    this.prepared.push(id);
  }
  dropSpare(): void {}
  startParent(): void {}
  async runParent(
    request: { prompt: string; settings: AgentSettings },
    _sandbox: MessagePort,
    handlers: AgentHandlers,
  ): Promise<void> {
    this.requests.push({ prompt: request.prompt, settings: request.settings });
    if (request.prompt === 'hang') return new Promise(() => {});
    if (request.prompt === 'task') {
      const task = { id: 'toolu_1', prompt: 'look', description: 'look' };
      const summary = handlers.runTask(task, performance.timeOrigin + performance.now());
      handlers.onEvents([
        { type: 'task_start', agent: 'parent', id: task.id, description: 'look', prompt: 'look' },
      ]);
      handlers.onEvents([{ type: 'task_end', agent: 'parent', id: task.id, summary: await summary }]);
    }
    handlers.onEvents([{ type: 'log', agent: 'parent', line: `answered ${request.prompt}` }]);
  }
  spawn(id: AgentId): SubagentWorker {
    this.spawned.push(id);
    return {
      id,
      ready: Promise.resolve({ name: id, readyAtEpoch: performance.timeOrigin + performance.now() }),
      run: async () => `summary by ${id}`,
      terminate: () => {},
    };
  }
  stopAll(): AgentId[] {
    this.stopAllCalls++;
    return [];
  }
}

/** A sandbox that boots when told to (at once unless a test holds it), and counts what it is asked. */
function fakeSandbox(boot: () => Promise<void> = () => Promise.resolve()) {
  const counts = { boots: 0, resets: 0, closed: 0, disposed: 0 };
  let events: SandboxEvents | undefined;
  let booted: Promise<void> | undefined;
  const sandbox = {
    label: 'fake sandbox',
    workdir: '/work',
    offline: false,
    pythonUsed: false,
    pythonSettled: false,
    // Once, as SandboxSession boots: later calls get the same promise.
    boot: () => (booted ??= (counts.boots++, boot())),
    retryBoot: () => boot(),
    settled: () => Promise.resolve(),
    reset: async () => void counts.resets++,
    port: () => {
      const { port1 } = new MessageChannel();
      port1.close();
      return { port: port1, line: { connected: Promise.resolve(), close() {} }, release: () => {} };
    },
    closeConnections: () => void counts.closed++,
    cancelPreload: () => false,
    preloadPython: () => {},
    dispose: () => void counts.disposed++,
  };
  return {
    counts,
    make: (given: SandboxEvents) => ((events = given), sandbox as unknown as SandboxSession),
    /** What the runtime gave the sandbox to tell it and ask it. */
    events: () => events!,
  };
}

/** A History that notes every record it keeps, how often it was told of a change, and each save's status. */
function fakeHistory() {
  const kept: Array<{ record: RunRecord; changes: number; saves: string[]; done: boolean }> = [];
  const history: RunKeeping = {
    keep(record: RunRecord, summarize: Summarize): Keeper {
      const entry = { record, changes: 0, saves: [] as string[], done: false };
      kept.push(entry);
      return {
        changed: () => void entry.changes++,
        save: async () => void entry.saves.push(summarize().status.kind),
        done: () => void (entry.done = true),
      };
    },
  };
  return { history, kept };
}

/** What a run is given: the mode chosen (`isolated`) unless the run's choice says otherwise. */
function forRun(_sandbox: { label: string; workdir: string }, choice: RunChoice): RunSetup {
  const context = choice.context ?? 'isolated';
  const settings = {
    provider: 'demo',
    model: 'demo',
    sample: 'python',
    sandbox: 'fake',
    context,
    limits: REFERENCE_LIMITS,
    ...(choice.comparison ? { comparison: choice.comparison } : {}),
  } as RunSettings;
  const agent = {
    context,
    limits: REFERENCE_LIMITS,
    model: { provider: 'demo' },
  } as unknown as AgentSettings;
  return { settings, agent, maxSubagents: 8 };
}

function runtime(
  options: {
    boot?: () => Promise<void>;
    mayRun?: () => Promise<boolean>;
    loads?: boolean;
    opened?: () => boolean;
    /** A spare subagent worker is kept for the next task (the page works ahead). */
    spare?: boolean;
    context?: 'none' | 'isolated';
  } = {},
) {
  let pool: FakePool | undefined;
  const sandbox = fakeSandbox(options.boot);
  const { history, kept } = fakeHistory();
  const clock = { t: 1000, now: () => clock.t };
  /** The models the screen let through its gate (the presenter's), each a copy of the one given. */
  const gated = new Set<ModelConfig>();
  const gate = (model: ModelConfig): ModelConfig => {
    const copy = { ...model };
    gated.add(copy);
    return copy;
  };
  const view = {
    get opened() {
      return (options.opened ?? (() => false))() ? {} : null;
    },
    closeOpened: vi.fn(),
    followLive: vi.fn(),
  };
  const screen = {
    view,
    gate: { gated: vi.fn(gate), recorded: vi.fn((_event: RunEvent) => {}) },
    started: vi.fn(),
    soon: vi.fn(),
    beforeRun: vi.fn(),
    quiet: vi.fn(),
    notLoaded: () => 'the sandbox did not load',
  } satisfies RuntimeScreen;
  const mayRun = vi.fn(options.mayRun ?? (() => Promise.resolve(true)));
  const loads = options.loads ?? false;
  const rt = new Runtime({
    url: readUrlSettings('?sample=python'),
    ahead: {
      on: loads,
      spare: options.spare ?? false,
      loads,
      agentScriptIn: () => Promise.resolve(),
      takeSandbox: () => undefined,
      takeAgent: () => undefined,
    },
    options: { context: options.context ?? 'isolated', mayRun, forRun },
    recorder: new Recorder(history),
    screen,
    agents: (lifecycle) => (pool = new FakePool(lifecycle)),
    sandbox: sandbox.make,
    clock,
  });
  return { rt, pool: pool!, sandbox, kept, screen, mayRun, clock, gated };
}

const statuses = (record: RunRecord | null) =>
  (record?.events ?? []).flatMap((e) => (e.type === 'status' ? [e.status.kind] : []));

/** Waits until `check` holds (the runtime's work goes through promises and timers). */
const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('Runtime: start', () => {
  it('boots the sandbox once; the status goes from booting to idle', async () => {
    const { rt, sandbox } = runtime();
    expect(rt.status).toEqual({ kind: 'booting' });
    await rt.start();
    await rt.start();
    expect(sandbox.counts.boots).toBe(1);
    expect(rt.status).toEqual({ kind: 'idle' });
  });

  it('a boot that fails says why in the status, and rejects', async () => {
    const { rt } = runtime({ boot: () => Promise.reject(new Error('no worker')) });
    await expect(rt.start()).rejects.toThrow('no worker');
    expect(rt.status).toEqual({ kind: 'failed', reason: 'the sandbox did not start: no worker' });
  });
});

describe('Runtime: run', () => {
  it('runs the prompt in the mode chosen, with the model as the screen lets it, and records it to the end', async () => {
    const { rt, pool, screen, gated } = runtime();
    expect(await rt.run('go')).toBe('ran');
    expect(pool.requests.map((r) => [r.prompt, r.settings.context])).toEqual([['go', 'isolated']]);
    expect(gated.has(pool.requests[0].settings.model)).toBe(true);
    expect(statuses(rt.record)).toEqual(['running', 'finished']);
    expect(rt.status).toEqual({ kind: 'finished' });
    expect(rt.running).toBe(false);
    // The screen left what it had opened before the boot, and follows the live end once the run begins.
    expect(screen.view.closeOpened).toHaveBeenCalledOnce();
    expect(screen.view.followLive).toHaveBeenCalledOnce();
    expect(screen.gate.recorded.mock.calls.map(([event]) => event.type)).toContain('run');
  });

  it.each([['none'], ['fork'], ['isolated']] as const)(
    'runs in the mode its choice gives: %s',
    async (mode) => {
      const { rt, pool } = runtime();
      await rt.run('go', { context: mode });
      expect(pool.requests[0].settings.context).toBe(mode);
      const run = rt.record!.events.find((e) => e.type === 'run');
      expect(run?.type === 'run' && run.settings.context).toBe(mode);
    },
  );

  it('refuses an empty prompt before asking anything', async () => {
    const { rt, pool, mayRun, sandbox } = runtime();
    expect(await rt.run('   ')).toBe('emptyPrompt');
    expect(mayRun).not.toHaveBeenCalled();
    expect(sandbox.counts.boots).toBe(0);
    expect(pool.requests).toEqual([]);
    expect(rt.runsStarted).toBe(0);
  });

  it('starts nothing when the settings may not run', async () => {
    const { rt, pool, screen } = runtime({ mayRun: () => Promise.resolve(false) });
    expect(await rt.run('go')).toBe('refused');
    expect(pool.requests).toEqual([]);
    expect(screen.view.closeOpened).not.toHaveBeenCalled();
    expect(rt.runsStarted).toBe(0);
  });

  it('ignores a run asked for while one is under way', async () => {
    const { rt, pool } = runtime();
    const first = rt.run('hang');
    await until(() => rt.running);
    expect(await rt.run('again')).toBe('busy');
    expect(pool.requests.map((r) => r.prompt)).toEqual(['hang']);
    rt.stop();
    expect(await first).toBe('ran');
  });

  it('a sandbox that fails to start ends the run before it begins: the status says why', async () => {
    const { rt, pool } = runtime({ boot: () => Promise.reject(new Error('no worker')) });
    expect(await rt.run('go')).toBe('notStarted');
    expect(pool.requests).toEqual([]);
    expect(rt.record).toBeNull();
    expect(rt.status.kind).toBe('failed');
  });

  it('runs a second prompt in the same conversation: one record, two runs', async () => {
    const { rt, kept } = runtime();
    await rt.run('first');
    await rt.run('second');
    expect(kept).toHaveLength(1);
    expect(rt.record!.events.filter((e) => e.type === 'run')).toHaveLength(2);
  });
});

describe('Runtime: when runs start and end', () => {
  it('counts a run from its click, before the boot it waits for, and notes when it ended', async () => {
    let booted = () => {};
    const { rt, sandbox, clock } = runtime({
      boot: () => new Promise<void>((resolve) => (booted = resolve)),
    });
    const events = sandbox.events();
    expect(events.runBegun?.()).toBe(false);
    expect(events.runEndedAt?.()).toBeNull();
    const running = rt.run('go');
    await until(() => rt.runsStarted === 1);
    // The sandbox knows a run has begun (a WebContainer ready now is offered, not switched to).
    expect(events.runBegun?.()).toBe(true);
    expect(events.runEndedAt?.()).toBeNull();
    clock.t = 4321;
    booted();
    await running;
    expect(rt.runsEndedAt).toBe(4321);
    expect(events.runEndedAt?.()).toBe(4321);
  });

  it('the sandbox sees the page busy during a run and a comparison, and not after', async () => {
    const { rt, sandbox } = runtime();
    const busy = sandbox.events().busy!;
    expect(busy()).toBe(false);
    const running = rt.run('hang');
    await until(() => busy());
    rt.stop();
    await running;
    expect(busy()).toBe(false);
  });
});

describe('Runtime: stop', () => {
  it('stops the run at once: the record says stopped, every worker and command is ended', async () => {
    const { rt, pool, sandbox } = runtime();
    const running = rt.run('hang');
    await until(() => rt.running);
    rt.stop();
    await running;
    expect(statuses(rt.record)).toEqual(['running', 'stopped']);
    expect(pool.stopAllCalls).toBeGreaterThan(0);
    expect(sandbox.counts.closed).toBeGreaterThan(0);
    expect(rt.busy).toBe(false);
  });

  it('with nothing under way, changes nothing', async () => {
    const { rt, pool } = runtime();
    await rt.run('go');
    rt.stop();
    expect(statuses(rt.record)).toEqual(['running', 'finished']);
    expect(pool.stopAllCalls).toBe(0);
  });
});

describe('Runtime: runAfresh (a prompt again, in a new conversation)', () => {
  it('leaves the opened run, begins a new record and runs the prompt in it', async () => {
    const { rt, kept, screen } = runtime();
    await rt.run('first');
    const before = rt.record!;
    screen.view.closeOpened.mockClear();
    expect(await rt.runAfresh('first')).toBe('ran');
    expect(screen.view.closeOpened).toHaveBeenCalled();
    expect(rt.record).not.toBe(before);
    expect(rt.record!.id).not.toBe(before.id);
    expect(kept.map((k) => k.record.id)).toEqual([before.id, rt.record!.id]);
  });

  it('is refused while a run is under way, which goes on', async () => {
    const { rt } = runtime();
    const running = rt.run('hang');
    await until(() => rt.running);
    const record = rt.record;
    expect(await rt.runAfresh('again')).toBe('busy');
    expect(rt.record).toBe(record);
    rt.stop();
    await running;
  });
});

describe('Runtime: startOver', () => {
  it('a fresh conversation on a fresh copy of the sample project', async () => {
    const { rt, sandbox, screen } = runtime();
    await rt.run('go');
    await rt.startOver();
    expect(rt.record).toBeNull();
    expect(sandbox.counts.resets).toBe(1);
    expect(screen.view.closeOpened).toHaveBeenCalledTimes(2);
    expect(rt.status).toEqual({ kind: 'idle' });
  });
});

describe('Runtime: compare', () => {
  it('runs the prompt in each mode, none first, on a fresh copy each, as one comparison', async () => {
    const { rt, pool, sandbox, kept } = runtime();
    expect(await rt.compare('task', true)).toBe('ran');
    expect(pool.requests.map((r) => r.settings.context)).toEqual(['none', 'fork', 'isolated']);
    expect(sandbox.counts.resets).toBe(3);
    expect(rt.comparison.runs.map((r) => [r.mode, r.status.kind])).toEqual([
      ['none', 'finished'],
      ['fork', 'finished'],
      ['isolated', 'finished'],
    ]);
    // Three records, kept in History under one comparison id.
    expect(kept).toHaveLength(3);
    const ids = new Set(kept.map((k) => k.record.settings.comparison));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^compare-/);
    expect(rt.comparison.running).toBe(false);
    expect(rt.record).toBe(rt.comparison.runs[2].record);
  });

  it('refuses an empty prompt, and a comparison while a run is under way', async () => {
    const { rt, pool } = runtime();
    expect(await rt.compare(' ', false)).toBe('emptyPrompt');
    const running = rt.run('hang');
    await until(() => rt.running);
    expect(await rt.compare('go', false)).toBe('busy');
    rt.stop();
    await running;
    expect(pool.requests.map((r) => r.prompt)).toEqual(['hang']);
  });

  it('Stop during a comparison stops its run and starts no further mode', async () => {
    const { rt, pool } = runtime();
    const comparing = rt.compare('hang', true);
    await until(() => rt.running);
    expect(rt.busy).toBe(true);
    rt.stop();
    await comparing;
    expect(pool.requests).toHaveLength(1);
    expect(rt.comparison.ended).toEqual({ kind: 'stopped' });
    expect(rt.comparison.runs.map((r) => r.mode)).toEqual(['none']);
    expect(rt.busy).toBe(false);
  });
});

describe('Runtime: clear', () => {
  it('a fresh conversation: nothing live, the screen at the live end, the record saved and let go', async () => {
    const { rt, kept, screen } = runtime();
    await rt.run('go');
    screen.view.followLive.mockClear();
    const saves = kept[0].saves.length;
    expect(kept[0].done).toBe(false);
    rt.clear();
    expect(rt.record).toBeNull();
    expect(rt.status).toEqual({ kind: 'idle' });
    expect(screen.view.followLive).toHaveBeenCalledOnce();
    await until(() => kept[0].saves.length > saves && kept[0].done);
  });

  it('does nothing while a run is under way', async () => {
    const { rt } = runtime();
    const running = rt.run('hang');
    await until(() => rt.running);
    rt.clear();
    expect(rt.record).not.toBeNull();
    rt.stop();
    await running;
  });
});

describe('Runtime: the wiring between its owners', () => {
  it("the sandbox's file changes reach the live record", async () => {
    const { rt, sandbox } = runtime();
    const events = sandbox.events();
    // No run yet: nothing to note them in, and nothing fails.
    events.onChanges([{ path: '/work/early.py', kind: 'create', agent: 'system' }]);
    const running = rt.run('hang');
    await until(() => rt.running);
    events.onChanges([{ path: '/work/a.py', kind: 'create', agent: 'parent' }]);
    events.onAdopted();
    rt.stop();
    await running;
    const noted = rt.record!.events.filter((e) => e.type === 'files' || e.type === 'sandbox');
    expect(noted).toMatchObject([
      { type: 'files', changes: [{ path: '/work/a.py', kind: 'create', agent: 'parent' }] },
      { type: 'sandbox', label: 'fake sandbox', workdir: '/work' },
    ]);
  });

  it('the sandbox waits for a run opened read-only on screen', () => {
    const opened = { now: true };
    const { sandbox } = runtime({ opened: () => opened.now });
    expect(sandbox.events().viewing?.()).toBe(true);
    opened.now = false;
    expect(sandbox.events().viewing?.()).toBe(false);
  });

  it("a task's subagent runs in a worker of its own, recorded in the run", async () => {
    const { rt, pool } = runtime();
    await rt.run('task');
    expect(pool.spawned).toEqual(['subagent-1']);
    expect(rt.record!.events.some((e) => e.type === 'agent_state' && e.state === 'discarded')).toBe(true);
  });

  it('hold stops the live run’s clock and lets it go on', async () => {
    const { rt } = runtime();
    const running = rt.run('hang');
    await until(() => rt.running);
    const hold = vi.spyOn(rt.conversation.liveRun!, 'hold');
    rt.hold(true);
    rt.hold(false);
    expect(hold.mock.calls.map(([held]) => held)).toEqual([true, false]);
    rt.stop();
    await running;
  });
});

describe("Runtime: History's saving", () => {
  it('keeps the record as it begins, is told of each event, and saves it at the end of each run', async () => {
    const { rt, kept } = runtime();
    await rt.run('go');
    expect(kept).toHaveLength(1);
    expect(kept[0].record).toBe(rt.record);
    expect(kept[0].changes).toBeGreaterThanOrEqual(rt.record!.events.length - 1);
    await until(() => kept[0].saves.includes('finished'));
  });

  it('saves what is recorded when asked (the page going away), mid-run too', async () => {
    const { rt, kept } = runtime();
    const running = rt.run('hang');
    await until(() => rt.running);
    rt.persist();
    await until(() => kept[0].saves.includes('running'));
    rt.stop();
    await running;
  });
});

describe('Runtime: dispose', () => {
  it('saves what is recorded, stops the run and ends every worker and the sandbox', async () => {
    const { rt, pool, sandbox, kept } = runtime();
    const running = rt.run('hang');
    await until(() => rt.running);
    rt.dispose();
    await running;
    expect(statuses(rt.record)).toEqual(['running', 'stopped']);
    expect(pool.stopAllCalls).toBeGreaterThanOrEqual(2);
    expect(sandbox.counts.disposed).toBe(1);
    await until(() => kept[0].saves.length >= 2);
  });
});

describe("Runtime: the page's start", () => {
  it('opens what the address links to first, then boots; History is read once the boot is over', async () => {
    const { rt, sandbox, screen } = runtime();
    let opened = () => {};
    const opening = new Promise<void>((resolve) => (opened = resolve));
    const starting = rt.startUp(() => opening);
    await tick();
    expect(sandbox.counts.boots).toBe(0);
    expect(screen.started).not.toHaveBeenCalled();
    opened();
    await starting;
    expect(sandbox.counts.boots).toBe(1);
    expect(screen.started).toHaveBeenCalledOnce();
    expect(rt.status).toEqual({ kind: 'idle' });
  });

  it('reads History even when the sandbox failed to start', async () => {
    const { rt, screen } = runtime({ boot: () => Promise.reject(new Error('no worker')) });
    await rt.startUp(() => Promise.resolve());
    expect(screen.started).toHaveBeenCalledOnce();
    expect(rt.status.kind).toBe('failed');
  });

  it('starts the service worker at once when the page must reload for isolation', async () => {
    const { rt } = runtime();
    const start = vi.fn();
    const starting = rt.startUp(() => new Promise(() => {}), {
      serviceWorker: { urgent: true, start, setBusy: () => {} },
    });
    expect(start).toHaveBeenCalledOnce();
    void starting;
  });

  it('else once the page is quiet: not before SERVICE_WORKER_AFTER_MS, nor while the learner moves through a run', async () => {
    vi.useFakeTimers();
    const { rt, clock } = runtime();
    const start = vi.fn();
    await rt.startUp(() => Promise.resolve(), { serviceWorker: { urgent: false, start, setBusy: () => {} } });
    await vi.advanceTimersByTimeAsync(SERVICE_WORKER_AFTER_MS - 100);
    expect(start).not.toHaveBeenCalled();
    // The learner steps through a run: the clock stands still, so they are at it until it moves on.
    rt.stepped();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(start).not.toHaveBeenCalled();
    clock.t += STEPPING_QUIET_MS;
    await vi.advanceTimersByTimeAsync(5000);
    expect(start).toHaveBeenCalledOnce();
  });

  it('tells the service worker when runs and comparisons begin and end, and nothing between the modes of one', async () => {
    const { rt } = runtime();
    const busy: boolean[] = [];
    const serviceWorker = { urgent: false, start: () => {}, setBusy: (b: boolean) => void busy.push(b) };
    await rt.startUp(() => Promise.resolve(), { serviceWorker });
    await rt.run('go');
    expect(busy).toEqual([true, false]);
    busy.length = 0;
    await rt.compare('go', false);
    // Each mode's run says busy again (it already is); none says idle before the comparison is over.
    expect(busy.at(-1)).toBe(false);
    expect(busy.slice(0, -1).every(Boolean)).toBe(true);
    expect(busy.length).toBeGreaterThan(1);
  });

  it("loads the screen's parts for later once the page is quiet, when it works ahead", async () => {
    vi.useFakeTimers();
    vi.stubGlobal('navigator', {}); // a connection the Network Information API says nothing of
    const { rt, screen } = runtime({ loads: true });
    const dialogs = vi.fn();
    await rt.startUp(() => Promise.resolve(), { dialogs });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(dialogs).toHaveBeenCalledOnce();
    expect(screen.quiet).toHaveBeenCalledOnce();
    expect(screen.soon).toHaveBeenCalledOnce();
  });

  it('loads nothing for later with the page working ahead switched off', async () => {
    vi.useFakeTimers();
    const { rt, screen } = runtime({ loads: false });
    const dialogs = vi.fn();
    await rt.startUp(() => Promise.resolve(), { dialogs });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(dialogs).not.toHaveBeenCalled();
    expect(screen.quiet).not.toHaveBeenCalled();
  });
});

describe('Runtime: the spare subagent worker', () => {
  it('is kept for the next task when the page works ahead, the sandbox is up and the mode calls tasks', async () => {
    const { rt, pool } = runtime({ spare: true });
    await rt.start();
    rt.conversation.warm();
    expect(pool.prepared).toEqual(['subagent-1']);
  });

  it('is not kept in context mode `none`, which calls no task', async () => {
    const { rt, pool } = runtime({ spare: true, context: 'none' });
    await rt.start();
    rt.conversation.warm();
    expect(pool.prepared).toEqual([]);
  });

  it('is not kept when the sandbox failed to start', async () => {
    const { rt, pool } = runtime({ spare: true, boot: () => Promise.reject(new Error('no worker')) });
    await rt.start().catch(() => {});
    rt.conversation.warm();
    expect(pool.prepared).toEqual([]);
  });
});

describe('Runtime: viewing', () => {
  it("python3's load ahead yields to a run looked through", async () => {
    const { rt } = runtime();
    const viewing = vi.spyOn(rt.warmup, 'viewing');
    rt.viewing(true);
    rt.viewing(false);
    expect(viewing.mock.calls.map(([on]) => on)).toEqual([true, false]);
  });
});

describe('Runtime: the page going away', () => {
  it('once started, saves what is recorded at `pagehide`; after dispose, no longer listens', async () => {
    const page = new EventTarget();
    vi.stubGlobal('addEventListener', page.addEventListener.bind(page));
    vi.stubGlobal('removeEventListener', page.removeEventListener.bind(page));
    const { rt, kept } = runtime();
    await rt.startUp(() => Promise.resolve());
    const running = rt.run('hang');
    await until(() => rt.running);
    page.dispatchEvent(new Event('pagehide'));
    await until(() => kept[0].saves.length === 1);
    rt.dispose();
    await running;
    // Saved at the teardown (the run still under way), then at the stopped run's end.
    await until(() => kept[0].saves.length === 3);
    page.dispatchEvent(new Event('pagehide'));
    await tick(10);
    expect(kept[0].saves).toEqual(['running', 'running', 'stopped']);
  });
});
