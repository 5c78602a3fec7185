/**
 * A conversation, run: the parent's worker on each prompt, a fresh worker for every `task` that it
 * (or a subagent that may delegate) calls, at most `maxSubagents` of them at once, and the record
 * of it all (LiveRun). No DOM and no Svelte: the screen subscribes to the record and calls `run`
 * and `stop`; tests drive it with fake workers (conversation.test.ts).
 *
 *   run(prompt) ──► parent worker ──task──► #runTask: a turn (TaskQueue), then a fresh worker
 *                                              │ its events held until the caller's task_start
 *                                              └─► its summary back to the caller, in call order
 *
 * A subagent's worker is alive from its turn to its summary: a subagent waiting for subagents of
 * its own keeps its worker (and its turn), so the queue keeps turns back for a delegation chain's
 * deeper levels (task-queue.ts), and a chain always finishes.
 *
 * A run's first task may skip the page's thread, which is busy drawing the run: before the run,
 * the spare is offered to the parent with a turn kept for it (#offer), the parent hands its first
 * task straight to it and takes the summary from it, and the page is told (#runHanded). The
 * record reads as if the page had passed them on: the parent's `task_end` for it and whatever the
 * parent does next are recorded after the subagent's last event.
 */
import type { TaskRequest } from '../core/loop';
import type { AgentId, Message } from '../core/messages';
import { forkMessages } from '../core/variants';
import { resumableHistory } from '../run/figures';
import { later } from '../run/later';
import { LiveRun } from '../run/live';
import type { RunEvent, RunSettings, WorkerPhase } from '../run/record';
import type { RunView } from '../run/view';
import type { AgentSettings, TimingEvent, WorkerEvent } from '../workers/agent/protocol';
import type { AgentHandlers, Lifecycle, Offer, SubagentWorker } from './agent-workers';
import type { HandedRunRequest } from '../workers/agent/protocol';
import { ProtocolError } from '../workers/agent/protocol';
import { withLine, type SandboxLine } from './sandbox-line';
import { RecordOrder } from './record-order';
import { TaskQueue, type Turn } from './task-queue';
import { messageOf } from '../core/errors';

/** The agent workers a conversation runs on (AgentWorkers; fakes in tests). */
export interface AgentPool {
  /** The agent workers alive now, a spare included. */
  readonly live: AgentId[];
  /** The subagent worker started ahead for the next task, if there is one. */
  readonly spare: AgentId | null;
  isReady(id: AgentId): boolean;
  /** Starts `id`'s worker ahead of its task (a spare of another name is terminated). */
  prepare(id: AgentId): void;
  /** Terminates the spare, if there is one. */
  dropSpare(): void;
  startParent(): void;
  runParent(
    request: { prompt: string; history: Message[]; settings: AgentSettings },
    sandbox: MessagePort,
    handlers: AgentHandlers,
    hand?: MessagePort,
  ): Promise<void>;
  /** Offers the spare named `id` to the parent's first task (null if it is not the spare); optional. */
  offer?(id: AgentId, request: HandedRunRequest, sandbox: MessagePort, handlers: AgentHandlers): Offer | null;
  /** A fresh worker for one subagent: the spare if it was started for this name. */
  spawn(id: AgentId): SubagentWorker;
  stopAll(): AgentId[];
}

/** The sandbox's side: a line per agent worker, and Stop for every command. */
export interface SandboxLines {
  port(): { port: MessagePort; line: SandboxLine; release: () => void };
  closeConnections(): void;
}

/** What one run is given: the settings it keeps in the record and hands its workers. */
export interface RunSetup {
  /** What the record keeps (never the key). */
  settings: RunSettings;
  /** What every agent worker of the run is given. */
  agent: AgentSettings;
  /** At most this many subagents at once (SUBAGENTS_AT_ONCE). */
  maxSubagents: number;
  /** A worker's event as recorded (the API key scrubbed from errors). */
  scrub?(event: Exclude<WorkerEvent, { type: 'timing' }>): RunEvent;
  /** A failed run's reason as recorded. */
  reason?(error: unknown): string;
}

/** What the conversation tells its owner (the screen). */
export interface ConversationHooks {
  /** A new record began (the first prompt of a conversation). */
  began?(run: LiveRun): void;
  /** An event was appended to the record. */
  recorded?(event: RunEvent): void;
  /** A subagent's worker is starting; the screen may hold still until it is ready. */
  starting?(ready: Promise<unknown>): void;
  /** The spare worker changed. */
  spareChanged?(spare: AgentId | null): void;
  /** Whether a spare worker is worth starting (not in context mode `none`, not without a sandbox). */
  wantsSpare?(): boolean;
  /** A timing measured in a worker. */
  timing?(event: TimingEvent): void;
  /** The run is over (finished, stopped or failed), its last events recorded. */
  ended?(): void;
}

export interface ConversationDeps {
  agents(lifecycle: Lifecycle): AgentPool;
  sandbox: SandboxLines;
  hooks?: ConversationHooks;
  /** The page's clock (performance, or a fake). */
  clock?: { timeOrigin: number; now(): number };
  /** A record's id. */
  newId?(): string;
}

/** The spare offered to a run's parent, with the turn and the sandbox line kept for it. */
interface Offered {
  readonly offer: Offer;
  readonly turn: Turn;
  readonly line: SandboxLine;
  readonly release: () => void;
  /** The parent has handed its task down it. */
  taken: boolean;
  /** Settles when the page has recorded the handed task's end (its summary, or its failure). */
  ended?: Promise<unknown>;
}

class Stopped extends Error {
  override name = 'AbortError';
}

/**
 * What a run's Stop rejects, by the run's signal: one abort listener for each run, however many
 * waits (a run of 340 subagents has hundreds at once; a listener each made Node warn of a leak).
 */
const waitsOn = new WeakMap<AbortSignal, Set<() => void>>();

/** Settles with the promise, or rejects as soon as the run is stopped (a terminated worker never answers). */
function untilStopped<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Stopped('Stopped'));
  const waits = waitsOf(signal);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Stopped('Stopped'));
    waits.add(onAbort);
    promise.then(resolve, reject).finally(() => waits.delete(onAbort));
  });
}

/** The waits on a run's signal, with the one listener that stops them all at its Stop. */
function waitsOf(signal: AbortSignal): Set<() => void> {
  let waits = waitsOn.get(signal);
  if (!waits) {
    const all = new Set<() => void>();
    signal.addEventListener('abort', () => all.forEach((stop) => stop()), { once: true });
    waitsOn.set(signal, (waits = all));
  }
  return waits;
}

function measure(name: string, start: number, end: number): void {
  try {
    performance.measure(name, { start, end: Math.max(start, end) });
  } catch {
    // A measure with a start before the page's time origin is not worth failing a run over.
  }
}

export class Conversation {
  readonly #agents: AgentPool;
  readonly #sandbox: SandboxLines;
  readonly #hooks: ConversationHooks;
  readonly #clock: { timeOrigin: number; now(): number };
  readonly #newId: () => string;
  #run: LiveRun | null = null;
  #controller: AbortController | undefined;
  #setup: RunSetup | undefined;
  #queue: TaskQueue | undefined;
  #spawned = 0;
  /**
   * Stop was pressed and nothing has begun since (a run, a new conversation): no worker starts
   * ahead, not even a spare asked for in idle time before it, so that Stop leaves no subagent
   * worker alive. The next run starts the workers it needs (`warm`).
   */
  #stopped = false;
  /** Spares whose life the current record already notes. */
  readonly #sparesRecorded = new Set<AgentId>();
  /** The order the record takes events in where it is not the order they arrive (./record-order.ts). */
  readonly #order = new RecordOrder((event, at) => this.#record(event, at));

  constructor(deps: ConversationDeps) {
    this.#hooks = deps.hooks ?? {};
    this.#sandbox = deps.sandbox;
    this.#clock = deps.clock ?? performance;
    this.#newId = deps.newId ?? (() => crypto.randomUUID());
    this.#agents = deps.agents((worker, phase, atEpoch) => this.#lifecycle(worker, phase, atEpoch));
  }

  /** The live record, once a prompt was run. */
  get liveRun(): LiveRun | null {
    return this.#run;
  }

  /** The live record's view as of its latest event, if there is one. */
  get view(): RunView | null {
    return this.#run?.view ?? null;
  }

  /** A run is under way. */
  get running(): boolean {
    return this.#controller !== undefined;
  }

  /** The spare subagent worker waiting for the next task, if there is one. */
  get spare(): AgentId | null {
    return this.#agents.spare;
  }

  /** The agent workers alive now (a spare included). */
  get workers(): AgentId[] {
    return this.#agents.live;
  }

  /** Subagents waiting for their turn now (at most `maxSubagents` run at once). */
  get queued(): number {
    return this.#queue?.waiting ?? 0;
  }

  /** Starts the parent's worker ahead of the next run, and the first task's spare. */
  warm(): void {
    this.#agents.startParent();
    // The first task's worker at once (not in idle time): a learner may click right away.
    if (this.#wantsSpare()) this.#agents.prepare(`subagent-${this.#spawned + 1}`);
  }

  /**
   * Runs one prompt of the conversation in the parent's worker (a new record for the first);
   * resolves when the run is over: finished, stopped or failed, as the record says.
   */
  async run(prompt: string, setup: RunSetup): Promise<void> {
    if (this.#controller) return;
    const controller = new AbortController();
    this.#controller = controller;
    this.#stopped = false;
    this.#setup = setup;
    const queue = new TaskQueue(setup.maxSubagents, setup.agent.limits.delegationDepth + 1);
    this.#queue = queue;
    const run = this.#run ?? this.#begin(prompt, setup.settings);
    let releasePort = () => {};
    let offered: Offered | undefined;
    this.#record({ type: 'run', prompt, settings: setup.settings });
    this.#record({ type: 'status', status: { kind: 'running' } });
    this.#noteSpare();
    try {
      // A stopped turn's dangling tail is not sent again: the parent's first event trims it.
      const history = resumableHistory(run.view.parent.messages);
      const { port, line, release } = this.#sandbox.port();
      releasePort = release;
      offered = this.#offer(queue, setup, controller.signal);
      const handed = offered;
      await untilStopped(
        withLine(
          this.#agents.runParent(
            { prompt, history, settings: setup.agent },
            port,
            {
              onEvents: (events, times) => this.#onEvents(events, times),
              runTask: (task, calledAtEpoch, isHanded) =>
                isHanded
                  ? this.#runHanded(task, calledAtEpoch, controller.signal, handed)
                  : this.#runTask(task, calledAtEpoch, controller.signal, 'parent', 1),
            },
            offered?.offer.hand,
          ),
          line,
        ),
        controller.signal,
      );
      // The parent had the summary before the page: the run is over once the page has it too.
      if (offered?.ended) await untilStopped(offered.ended, controller.signal);
      this.#record({ type: 'status', status: { kind: 'finished' } });
    } catch (error) {
      if (controller.signal.aborted) this.#record({ type: 'status', status: { kind: 'stopped' } });
      else {
        const reason = setup.reason?.(error) ?? messageOf(error);
        this.#record({ type: 'status', status: { kind: 'failed', reason } });
        this.#sandbox.closeConnections();
        this.#agents.stopAll();
      }
    } finally {
      releasePort();
      if (offered && !offered.taken) this.#withdraw(offered);
      queue.close();
      this.#order.releaseAll();
      this.#controller = undefined;
      this.#setup = undefined;
      this.#queue = undefined;
      this.#hooks.ended?.();
      later(() => this.#startSpare(), 2000);
    }
  }

  /** Stops the run at once: every agent worker is terminated, queued tasks never start. */
  stop(): void {
    const controller = this.#controller;
    if (!controller) return;
    this.#stopped = true;
    controller.abort();
    this.#queue?.close();
    // The sandbox first: its commands stop even if it is inside a loop that never yields.
    this.#sandbox.closeConnections();
    this.#agents.stopAll();
  }

  /** A fresh conversation: the next prompt begins a new record. */
  clear(): void {
    if (this.#controller) return;
    this.#run = null;
    this.#spawned = 0;
    this.#stopped = false;
    later(() => this.#startSpare(), 2000);
  }

  /** Terminates every worker (page teardown). */
  dispose(): void {
    this.stop();
    this.#agents.stopAll();
  }

  /** Appends a page event to the live record (e.g. the sandbox's file changes), if there is one. */
  note(event: RunEvent, at?: number): void {
    this.#record(event, at);
  }

  /** A new record for the conversation, when its first prompt is run. */
  #begin(prompt: string, settings: RunSettings): LiveRun {
    const clock = this.#clock;
    const run = new LiveRun(this.#newId(), prompt, settings, {
      epoch: clock.timeOrigin + clock.now(),
      now: () => clock.now(),
    });
    this.#run = run;
    this.#hooks.began?.(run);
    // The workers already alive when the record begins: the sandbox and the parent's, ahead of
    // time (a spare is noted when the run starts: see #noteSpare).
    this.#sparesRecorded.clear();
    this.#order.clear();
    this.#record({ type: 'worker', worker: 'sandbox', phase: 'ready' });
    for (const id of this.#agents.live) {
      if (id !== this.#agents.spare) this.#record({ type: 'worker', worker: id, phase: 'ready' });
    }
    return run;
  }

  #lifecycle(worker: AgentId, phase: WorkerPhase, atEpoch: number): void {
    this.#hooks.spareChanged?.(this.#agents.spare);
    // A spare's life between runs is not part of the record (a run notes it when it starts);
    // the timeline shows it from `spare` while the live end is on screen.
    if (worker === this.#agents.spare && !this.#controller) return;
    if (worker === this.#agents.spare) this.#sparesRecorded.add(worker);
    this.#record({ type: 'worker', worker, phase }, atEpoch - this.#clock.timeOrigin);
  }

  /**
   * One subagent in its own worker, asked for by `from` (the parent, or a subagent that may
   * delegate, `depth` levels below the parent), once its turn comes; resolves with its summary,
   * then the worker is gone.
   */
  async #runTask(
    task: TaskRequest,
    calledAtEpoch: number,
    signal: AbortSignal,
    from: AgentId,
    depth: number,
  ): Promise<string> {
    const { id, start } = this.#announce(task, calledAtEpoch, from);
    const queue = this.#queue;
    const setup = this.#setup;
    if (!queue || !setup || signal.aborted) throw new Stopped('Stopped');
    const turn = queue.take(depth);
    if (!turn.now) {
      // Waiting: a spare would be one worker too many (it is started again once nothing waits).
      this.#agents.dropSpare();
      await untilStopped(turn.started, signal);
    }
    return this.#inWorker(id, start, signal, turn, (worker) => {
      // Its line to the sandbox is made while the worker starts, and does not hold up its run.
      const { port, line, release } = this.#sandbox.port();
      const request = { agent: id, prompt: task.prompt, depth, forkFrom: task.forkFrom };
      const summary = () =>
        worker.run({ ...request, settings: setup.agent }, port, {
          onEvents: (events, times) => this.#onEvents(events, times),
          runTask: (inner, at) => this.#runTask(inner, at, signal, id, depth + 1),
        });
      return { line, release, summary };
    });
  }

  /**
   * The spare offered to the parent for its first task, if there is one ready: a turn is
   * kept for it and its line to the sandbox made now. The spare's own events are not held; its
   * run's are, until the parent's `task_start` for it.
   */
  #offer(queue: TaskQueue, setup: RunSetup, signal: AbortSignal): Offered | undefined {
    const id = `subagent-${this.#spawned + 1}`;
    if (!this.#agents.offer || this.#agents.spare !== id || !this.#wantsSpare()) return undefined;
    // Only a spare that is ready: one still starting (a run clicked right after the last, whose
    // task started it) would hold a fast first task up, where the page's path lets it start.
    if (!this.#agents.isReady(id)) return undefined;
    const turn = queue.take(1);
    if (!turn.now) {
      turn.done();
      return undefined;
    }
    const { port, line, release } = this.#sandbox.port();
    const offer = this.#agents.offer(id, { agent: id, depth: 1, settings: setup.agent }, port, {
      onEvents: (events, times) => this.#onEvents(events, times),
      runTask: (inner, at) => this.#runTask(inner, at, signal, id, 2),
    });
    if (!offer) {
      release();
      turn.done();
      return undefined;
    }
    this.#order.offered(id);
    return { offer, turn, line, release, taken: false };
  }

  /** The run ended with its offer untaken: the spare stays the spare, its turn and line are given back. */
  #withdraw(offered: Offered): void {
    offered.offer.withdraw();
    offered.release();
    offered.turn.done();
    this.#order.withdrawn(offered.offer.id);
  }

  /**
   * The parent's first task, handed by its worker to the spare offered to it (#offer): recorded
   * as any task is, and its worker ended once its summary is recorded. The parent has the summary
   * already; its events from its `task_end` on wait for this subagent's end in the record.
   */
  async #runHanded(
    task: TaskRequest,
    calledAtEpoch: number,
    signal: AbortSignal,
    offered: Offered | undefined,
  ): Promise<string> {
    if (!offered || offered.taken)
      throw new ProtocolError('runTask: no worker was offered for a handed task');
    offered.taken = true;
    const { id, start } = this.#announce(task, calledAtEpoch, 'parent');
    if (id !== offered.offer.id)
      throw new ProtocolError(`runTask: ${offered.offer.id} was offered, not ${id}`);
    // The parent's held events follow its subagent's end in the record (./record-order.ts).
    this.#order.handed('parent', task.id, id);
    const ended = this.#inWorker(id, start, signal, offered.turn, () => ({
      line: offered.line,
      release: offered.release,
      summary: () =>
        offered.offer.result.then((summary) => {
          if (summary === null) throw new Error(`${id} was withdrawn before its task came`);
          return summary;
        }),
    }));
    offered.ended = ended.catch(() => {});
    return ended;
  }

  /** A task called: its subagent's name, and its events held until the caller's `task_start`. */
  #announce(task: TaskRequest, calledAtEpoch: number, from: AgentId): { id: AgentId; start: number } {
    const id = `subagent-${++this.#spawned}`;
    const start = calledAtEpoch - this.#clock.timeOrigin;
    const first: Message[] = task.forkFrom
      ? forkMessages(task.forkFrom, task.prompt)
      : [{ role: 'user', content: task.prompt }];
    const spawn: [RunEvent, number] = [
      { type: 'spawn', agent: id, from, taskId: task.id, description: task.description, messages: first },
      start,
    ];
    this.#order.called(id, task.id, spawn);
    return { id, start };
  }

  /**
   * Runs a subagent's task in its worker (the spare if it was started for `id`), with the screen
   * held still while it starts; records its end, ends the worker and gives its turn back.
   */
  async #inWorker(
    id: AgentId,
    start: number,
    signal: AbortSignal,
    turn: Turn,
    begin: (worker: SubagentWorker) => {
      line: SandboxLine;
      release: () => void;
      summary: () => Promise<string>;
    },
  ): Promise<string> {
    let succeeded = false;
    // The worker first, with the screen held still while it starts.
    const worker = this.#agents.spawn(id);
    this.#hooks.spareChanged?.(this.#agents.spare);
    this.#hooks.starting?.(worker.ready);
    let releasePort = () => {};
    try {
      const { line, release, summary } = begin(worker);
      releasePort = release;
      const { readyAtEpoch } = await untilStopped(worker.ready, signal);
      measure('subagent:spawn', start, Math.max(start, readyAtEpoch - this.#clock.timeOrigin));
      const text = await untilStopped(withLine(summary(), line), signal);
      // Discarded as it returned: its last event, which the page may have read late.
      this.#record(
        { type: 'agent_state', agent: id, state: 'discarded', summary: text },
        this.#order.lastAt(id),
      );
      succeeded = true;
      return text;
    } catch (error) {
      if (!signal.aborted) this.#record({ type: 'agent_state', agent: id, state: 'failed' });
      throw error;
    } finally {
      worker.terminate();
      releasePort();
      turn.done();
      measure('subagent:run', start, this.#clock.now());
      // As a task returns, the next one's worker starts now, so that it finds it ready.
      if (succeeded && !signal.aborted) this.#startSpare();
    }
  }

  /**
   * The spare waiting for this run's first task, in the record: a row of its own in the timeline
   * until a task takes it.
   */
  #noteSpare(): void {
    const spare = this.#agents.spare;
    if (!spare || this.#sparesRecorded.has(spare)) return;
    this.#sparesRecorded.add(spare);
    this.#record({ type: 'worker', worker: spare, phase: this.#agents.isReady(spare) ? 'ready' : 'created' });
  }

  /**
   * Starts the next subagent's worker now, so that the next task (in this run or the next one)
   * finds it ready; not while tasks wait for a turn, nor when it would be one worker too many,
   * nor after Stop.
   */
  #startSpare(): void {
    if (this.#stopped || !this.#wantsSpare()) return;
    const queue = this.#queue;
    if (queue && !queue.roomForSpare) return;
    this.#agents.prepare(`subagent-${this.#spawned + 1}`);
  }

  #wantsSpare(): boolean {
    return this.#hooks.wantsSpare?.() ?? true;
  }

  /**
   * A batch checked where it arrived (src/page/agent-hosts.ts), each event recorded at the time
   * it happened in its worker: a page busy drawing the run reads a fast run's events late.
   */
  #onEvents(batch: WorkerEvent[], times?: number[]): void {
    batch.forEach((event, i) => {
      if (event.type === 'timing') return this.#hooks.timing?.(event);
      const at = times ? times[i] - this.#clock.timeOrigin : undefined;
      if (at !== undefined) this.#order.happened(event.agent, at);
      this.#record(this.#setup?.scrub?.(event) ?? event, at);
    });
  }

  /** Appends an event to the live record (stamped now, or at a page time), in order (./record-order.ts). */
  #record(event: RunEvent, at?: number): void {
    const run = this.#run;
    if (!run || this.#order.hold(event, at ?? this.#clock.now())) return;
    run.append(event, at);
    this.#order.recorded(event);
    this.#hooks.recorded?.(event);
  }
}
