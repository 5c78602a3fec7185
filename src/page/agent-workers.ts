/**
 * The agent workers and their lifecycles: the parent's worker, and one throwaway worker per
 * subagent (created when a `task` is called, terminated as soon as it has returned its summary).
 *
 *   page ──run(prompt, history)──► parent worker ──runTask(task)──► page
 *                                                                    │ spawn('subagent-N')
 *                                                                    ▼
 *                                    subagent worker ──run(prompt)── its final text only;
 *                                        │                           then it is terminated
 *                                        └──runTask(task)──► page    (a subagent that may
 *                                                                    delegate: spawn again)
 *
 * A run's first task may skip the page: the spare is offered to the parent before the run
 * (`offer`), waiting on a line of its own; the parent sends the task down it, and the summary
 * comes back up it, while the page is told (it records the task, keeps its turn, ends the worker).
 *
 * Every lifecycle step (created, ready, terminated) is reported, with the time it happened, so
 * the run's record holds it (the workers timeline reads it).
 *
 * A spare: the next subagent's worker may be started ahead (`prepare`), so that a `task`
 * finds its script loaded and compiled. It is still a fresh worker for exactly one task: it has
 * run nothing when the task takes it, and it is terminated when that task returns.
 */
import * as Comlink from 'comlink';
import type { TaskRequest } from '../core/loop';
import type { AgentId } from '../core/messages';
import type { WorkerPhase } from '../run/record';
import {
  checkReady,
  checkSummary,
  type HandedRunRequest,
  type ParentRunRequest,
  type ParentWorkerApi,
  type SubagentRunRequest,
  type SubagentWorkerApi,
  type WorkerEvent,
  type WorkerReady,
} from '../workers/agent/protocol';
import { endWorker, ended } from './end-worker';
// One script for the parent's worker and every subagent's (src/workers/agent/agent.ts), by URL:
// the page may fetch it ahead before any of them is started (./ahead.ts).
import agentScript from '../workers/agent/agent.ts?worker&url';
import { afterLastBatch, HostLines, parentHost } from './agent-hosts';
import { FailureRace, failureOf } from './worker-failure';

export interface Lifecycle {
  (worker: AgentId, phase: WorkerPhase, atEpoch: number): void;
}

/** What the page gives a running agent: where its events go, and how its `task` calls are run. */
export interface AgentHandlers {
  /** `times`: when each happened in its worker (epoch milliseconds), if the worker said. */
  onEvents(events: WorkerEvent[], times?: number[]): void;
  runTask(task: TaskRequest, calledAtEpoch: number, handed?: boolean): Promise<string>;
}

/** One subagent's worker, from spawn to termination. */
export interface SubagentWorker {
  readonly id: AgentId;
  /** Resolves with the worker's own time of readiness; rejects if the worker fails to load. */
  readonly ready: Promise<WorkerReady>;
  run(request: SubagentRunRequest, sandbox: MessagePort, handlers: AgentHandlers): Promise<string>;
  terminate(): void;
}

const epochNow = () => performance.timeOrigin + performance.now();

/** The agents' worker script's URL. */
export const AGENT_SCRIPT: string = agentScript;

/** An agent's worker from `new Worker` on, before anyone has given it work. */
export interface EarlyAgentWorker {
  worker: Worker;
  failure: Promise<never>;
  createdAtEpoch: number;
}

/** A new agent worker named `id`: its role is its name, `parent` or `subagent-N` (src/workers/agent/agent.ts). */
export function createAgentWorker(id: AgentId): EarlyAgentWorker {
  const worker = new Worker(agentScript, { type: 'module', name: id });
  // Listened to from the start: a script that fails to load says so once, maybe before it is taken.
  const failure = failureOf(worker, id);
  failure.catch(() => {});
  return { worker, failure, createdAtEpoch: epochNow() };
}

/** What the page hands the agents' owner of what it did ahead of time (./ahead.ts). */
export interface AgentsAhead {
  /** The worker started ahead under the name `id`, if there is one (it is the caller's now). */
  takeAgent(id: AgentId): EarlyAgentWorker | undefined;
  /** Resolves once the agents' script fetched ahead is in (at once when none is). */
  agentScriptIn(): Promise<void>;
}

const NOTHING_AHEAD: AgentsAhead = { takeAgent: () => undefined, agentScriptIn: () => Promise.resolve() };

/**
 * The spare offered to a caller for its next task: the caller's end of the line (`hand`) goes to
 * its worker, which sends its first task straight down it (src/workers/agent/runtime.ts).
 */
export interface Offer {
  readonly id: AgentId;
  readonly hand: MessagePort;
  /** The subagent's summary once it has run the task; null if the offer was withdrawn first. */
  readonly result: Promise<string | null>;
  /** Takes the offer back, if no task has come down it yet. */
  withdraw(): void;
}

/** A subagent's worker from `new Worker` on, before it has a task. */
interface Started {
  id: AgentId;
  worker: Worker;
  api: Comlink.Remote<SubagentWorkerApi>;
  failure: Promise<never>;
  ready: Promise<WorkerReady>;
  isReady: boolean;
}

export class AgentWorkers {
  #parent: { worker: Worker; api: Comlink.Remote<ParentWorkerApi>; failure: FailureRace } | undefined;
  readonly #subagents = new Map<AgentId, { worker: Worker; api: Comlink.Remote<SubagentWorkerApi> }>();
  readonly #lifecycle: Lifecycle;
  readonly #ahead: AgentsAhead;
  /** The next subagent's worker, started ahead of its task (see `prepare`). */
  #spare: Started | undefined;
  /** The ports each agent's run's host is served on, by the agent's name. */
  readonly #hosts = new HostLines();

  constructor(lifecycle: Lifecycle = () => {}, ahead: AgentsAhead = NOTHING_AHEAD) {
    this.#lifecycle = lifecycle;
    this.#ahead = ahead;
  }

  /**
   * Runs `call` with the page's side of `id`'s run served on a port of its own (every call
   * checked: agent-hosts.ts); resolves with its result once its last events are recorded, and
   * closes the port then. A Stop, or the worker's end, closes it too (`#hosts.close`).
   */
  #withHost<T>(id: AgentId, handlers: AgentHandlers, call: (host: MessagePort) => Promise<T>): Promise<T> {
    const { host, lastBatch } = parentHost(handlers);
    const line = this.#hosts.serve(id, host);
    return afterLastBatch(call(Comlink.transfer(line.port, [line.port])), lastBatch).finally(line.close);
  }

  /** The worker started ahead under this name, or a new one. */
  #take(id: AgentId): EarlyAgentWorker {
    return this.#ahead.takeAgent(id) ?? createAgentWorker(id);
  }

  /** The names of the agent workers alive now (a spare included). */
  get live(): AgentId[] {
    return [...(this.#parent ? ['parent'] : []), ...this.#subagents.keys()];
  }

  /** The spare's name, while there is one that has not been given a task. */
  get spare(): AgentId | null {
    return this.#spare?.id ?? null;
  }

  /** Whether an agent worker has answered that it is ready (the parent's is not asked). */
  isReady(id: AgentId): boolean {
    return id === 'parent' || (this.#spare?.id === id && this.#spare.isReady);
  }

  /**
   * Starts `id`'s worker now, for the task that will be given that name. A spare with another
   * name (the numbering started again) is terminated first.
   */
  prepare(id: AgentId): void {
    if (this.#spare?.id === id) return;
    this.dropSpare();
    const { started, createdAtEpoch } = this.#start(id);
    this.#spare = started;
    // Reported once it is the spare, so that its owner can tell it is one from its first event.
    this.#lifecycle(id, 'created', createdAtEpoch);
  }

  /** Terminates the spare, if there is one (tasks wait for a turn: it would be a worker too many). */
  dropSpare(): void {
    const spare = this.#spare;
    if (!spare) return;
    this.#spare = undefined;
    endWorker(spare.worker, spare.api);
    this.#hosts.close(spare.id);
    this.#subagents.delete(spare.id);
    this.#lifecycle(spare.id, 'terminated', epochNow());
  }

  /** A fresh worker for `id` (an early one if it is waiting); its caller reports it `created`. */
  #start(id: AgentId): { started: Started; createdAtEpoch: number } {
    const { worker, failure, createdAtEpoch } = this.#take(id);
    const api = Comlink.wrap<SubagentWorkerApi>(worker);
    this.#subagents.set(id, { worker, api });
    const started: Started = { id, worker, api, failure, ready: undefined!, isReady: false };
    started.ready = Promise.race([api.ready(), failure]).then((answer) => {
      const checked = checkReady(answer);
      started.isReady = true;
      this.#lifecycle(id, 'ready', checked.readyAtEpoch);
      return checked;
    });
    started.ready.catch(() => {});
    return { started, createdAtEpoch };
  }

  /**
   * Starts the parent's worker if it is not running: ahead of the first run once the sandbox is
   * ready (when the page works ahead), else for the run; and again after a Stop. It lives across runs (it keeps nothing between them).
   */
  startParent(): void {
    if (this.#parent) return;
    const { worker, failure, createdAtEpoch } = this.#take('parent');
    this.#parent = { worker, api: Comlink.wrap<ParentWorkerApi>(worker), failure: new FailureRace(failure) };
    this.#lifecycle('parent', 'created', createdAtEpoch);
  }

  /**
   * Runs one prompt in the parent's worker; resolves when it is over, or rejects with why. `hand`:
   * an offered spare's line, for its first task (`offer`).
   */
  async runParent(
    request: ParentRunRequest,
    sandbox: MessagePort,
    handlers: AgentHandlers,
    hand?: MessagePort,
  ): Promise<void> {
    // Not beside the script's fetch ahead: the worker would fetch it a second time, sharing the link.
    if (!this.#parent) await this.#ahead.agentScriptIn();
    this.startParent();
    const { api, failure } = this.#parent!;
    // Its messages came as events: what the run resolves with is not read.
    await failure.race(
      this.#withHost('parent', handlers, (host) =>
        hand
          ? api.run(request, Comlink.transfer(sandbox, [sandbox]), host, Comlink.transfer(hand, [hand]))
          : api.run(request, Comlink.transfer(sandbox, [sandbox]), host),
      ),
    );
  }

  /**
   * Offers the spare, if it was started for `id`, to the caller of the next task: it waits for
   * the task on a line of its own, with its line to the sandbox and its events' host given now.
   * It stays the spare (a Stop or a `dropSpare` ends it) until `spawn(id)` takes it.
   */
  offer(id: AgentId, request: HandedRunRequest, sandbox: MessagePort, handlers: AgentHandlers): Offer | null {
    const spare = this.#spare;
    if (spare?.id !== id) return null;
    const { port1, port2 } = new MessageChannel();
    const result = Promise.race([
      this.#withHost(id, handlers, (host) =>
        spare.api.runHanded(
          request,
          Comlink.transfer(sandbox, [sandbox]),
          host,
          Comlink.transfer(port1, [port1]),
        ),
      ).then((summary) => (summary === null ? null : checkSummary(summary))),
      spare.failure,
    ]);
    result.catch(() => {}); // reported to whoever awaits it (the task, once handed)
    const withdraw = () => {
      // A spare ended since (a Stop, a failed run) has nothing to take back.
      if (!ended(spare.api)) void spare.api.withdraw();
    };
    return { id, hand: port2, result, withdraw };
  }

  /** A fresh worker for one subagent: the spare if it was started for this name, else a new one. */
  spawn(id: AgentId): SubagentWorker {
    let started: Started;
    if (this.#spare?.id === id) {
      started = this.#spare;
      this.#spare = undefined;
    } else {
      const fresh = this.#start(id);
      started = fresh.started;
      this.#lifecycle(id, 'created', fresh.createdAtEpoch);
    }
    const { worker, api, failure, ready } = started;
    let terminated = false;
    return {
      id,
      ready,
      run: (request, sandbox, handlers) =>
        Promise.race([
          this.#withHost(id, handlers, (host) =>
            api.run(request, Comlink.transfer(sandbox, [sandbox]), host),
          ).then(checkSummary),
          failure,
        ]),
      terminate: () => {
        if (terminated) return;
        terminated = true;
        endWorker(worker, api);
        this.#hosts.close(id);
        this.#subagents.delete(id);
        this.#lifecycle(id, 'terminated', epochNow());
      },
    };
  }

  /** Terminates every agent worker at once (Stop, or a failed run), a spare included. */
  stopAll(): AgentId[] {
    this.#spare = undefined;
    const stopped = this.live;
    if (this.#parent) {
      endWorker(this.#parent.worker, this.#parent.api);
      this.#parent = undefined;
      this.#lifecycle('parent', 'terminated', epochNow());
    }
    for (const [id, { worker, api }] of this.#subagents) {
      endWorker(worker, api);
      this.#lifecycle(id, 'terminated', epochNow());
    }
    this.#subagents.clear();
    this.#hosts.close();
    return stopped;
  }
}
