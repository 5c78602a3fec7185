/**
 * The recorded reference run (learn-claude-code's s04 trace, public/traces/s04.json) as a record
 * of this playground: its responses replayed through our own loops, each tool answering what it
 * answered then, on a clock that advances as the recorded calls took. History offers it as an
 * example; it opens like any kept run.
 */
import { parentLoop, runSubagent, type LoopEvent, type RunTask } from '../core/loop';
import type { ModelRequest } from '../core/model';
import type { ToolHandler } from '../core/tools';
import { loopOf, ReplayModel, traceToolOutputs, traceWorkdir, type Trace } from '../models/replay';
import { LiveRun } from './live';
import { REFERENCE_LIMITS, type RunRecord, type RunSettings } from './record';

/** A replay that advances the record's clock by each recorded call's duration. */
class TimedReplay extends ReplayModel {
  readonly requests: ModelRequest[] = [];
  readonly #trace: Trace;
  readonly #clock: { now: number };

  constructor(trace: Trace, clock: { now: number }) {
    super(trace);
    this.#trace = trace;
    this.#clock = clock;
  }

  override async createMessage(...args: Parameters<ReplayModel['createMessage']>) {
    const cycle = this.#trace.cycles[this.requests.length];
    this.requests.push(structuredClone(args[0]));
    const response = await super.createMessage(...args);
    this.#clock.now += cycle?.elapsed_ms ?? 0;
    return response;
  }
}

export const EXAMPLE_ID = 'example:learn-claude-code-s04';

/** The trace as a record, and the requests our loops sent while replaying it. */
export async function traceRecord(trace: Trace): Promise<{ record: RunRecord; requests: ModelRequest[] }> {
  const clock = { now: 0 };
  const model = new TimedReplay(trace, clock);
  const outputs = traceToolOutputs(trace);
  const answer =
    (loop: 'parent' | 'subagent'): ToolHandler =>
    async () => {
      clock.now += 5;
      return outputs[loop].shift() ?? '';
    };
  const handlersFor = (loop: 'parent' | 'subagent') =>
    Object.fromEntries(['bash', 'read_file', 'write_file', 'edit_file'].map((n) => [n, answer(loop)]));
  const workdir = traceWorkdir(trace);
  const settings: RunSettings = {
    provider: 'anthropic',
    model: trace.model,
    sample: 'python',
    sandbox: 'recorded (learn-claude-code)',
    context: 'isolated',
    limits: REFERENCE_LIMITS,
  };
  const run = new LiveRun(EXAMPLE_ID, trace.prompt, settings, { epoch: 0, now: () => clock.now });
  const onEvent = (event: LoopEvent) => run.append(event);
  let spawned = 0;
  const runTask: RunTask = async (task) => {
    const agent = `subagent-${++spawned}`;
    run.append({
      type: 'spawn',
      agent,
      from: 'parent',
      taskId: task.id,
      description: task.description,
      messages: [{ role: 'user', content: task.prompt }],
    });
    run.append({ type: 'worker', worker: agent, phase: 'created' });
    run.append({ type: 'worker', worker: agent, phase: 'ready' });
    const summary = await runSubagent(task.prompt, {
      agent,
      model,
      modelName: trace.model,
      workdir,
      baseHandlers: handlersFor(loopOf(agent)),
      onEvent,
    });
    run.append({ type: 'agent_state', agent, state: 'discarded', summary });
    run.append({ type: 'worker', worker: agent, phase: 'terminated' });
    return summary;
  };
  run.append({ type: 'run', prompt: trace.prompt, settings });
  run.append({ type: 'status', status: { kind: 'running' } });
  run.append({ type: 'worker', worker: 'parent', phase: 'ready' });
  await parentLoop(trace.prompt, {
    model,
    modelName: trace.model,
    workdir,
    baseHandlers: handlersFor('parent'),
    history: [],
    runTask,
    onEvent,
  });
  run.append({ type: 'status', status: { kind: 'finished' } });
  return { record: run.record, requests: model.requests };
}
