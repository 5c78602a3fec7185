/**
 * A run of the demo model on a fresh copy of a sample project, in Node, recorded as the page records
 * one (spawn, agent_state, status and every loop event): for tests of what the screen derives from a
 * record, with real tool calls and no workers.
 */
import { parentLoop, runSubagent, type LoopEvent, type RunTask } from '../src/core/loop';
import type { Usage } from '../src/core/messages';
import type { ModelCallOptions, ModelClient, ModelRequest, ModelResponse } from '../src/core/model';
import { baseToolHandlers } from '../src/core/tools';
import { forkMessages, REFERENCE_LIMITS, type ContextMode } from '../src/core/variants';
import { DemoModel } from '../src/models/demo';
import { LiveRun } from '../src/run/live';
import type { RunRecord, RunSettings } from '../src/run/record';
import { create } from '../src/sandbox/local';
import { loadSample, type SampleName } from '../src/sandbox/samples';

/** The demo model, or the demo's answers with a usage as a real API would report it. */
class Counting implements ModelClient {
  readonly label = 'demo';
  readonly #inner = new DemoModel({ speed: 'instant' });
  constructor(readonly usage?: (request: ModelRequest, response: ModelResponse) => Usage) {}
  async createMessage(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
    const response = await this.#inner.createMessage(request, options);
    return this.usage ? { ...response, usage: this.usage(request, response) } : response;
  }
}

export interface DemoRunOptions {
  sample?: SampleName;
  context?: ContextMode;
  /** Given: the record says `anthropic` and each call's usage is what this returns. */
  usage?: (request: ModelRequest, response: ModelResponse) => Usage;
}

/** Runs `prompt` with the demo model and returns its record. */
export async function demoRecord(prompt: string, options: DemoRunOptions = {}): Promise<RunRecord> {
  const sample = options.sample ?? 'python';
  const context = options.context ?? 'isolated';
  const sandbox = await create(await loadSample(sample));
  const handlers = baseToolHandlers(sandbox, { outputChars: REFERENCE_LIMITS.outputChars });
  const settings: RunSettings = {
    provider: options.usage ? 'anthropic' : 'demo',
    model: 'demo',
    sample,
    sandbox: 'offline shell',
    context,
    limits: REFERENCE_LIMITS,
  };
  let now = 0;
  const run = new LiveRun(`demo-${context}`, prompt, settings, { epoch: 0, now: () => (now += 1) });
  const onEvent = (event: LoopEvent) => run.append(event);
  let spawned = 0;
  const runTaskFor =
    (from: string, depth: number): RunTask =>
    async (task, signal) => {
      const agent = `subagent-${++spawned}`;
      run.append({
        type: 'spawn',
        agent,
        from,
        taskId: task.id,
        description: task.description,
        // As the page records it: a fork child starts from its caller's history (src/page/conversation.ts).
        messages: task.forkFrom
          ? forkMessages(task.forkFrom, task.prompt)
          : [{ role: 'user', content: task.prompt }],
      });
      run.append({ type: 'worker', worker: agent, phase: 'ready' });
      const summary = await runSubagent(task.prompt, {
        agent,
        model: new Counting(options.usage),
        modelName: 'demo',
        workdir: sandbox.workdir,
        baseHandlers: handlers,
        depth,
        forkFrom: task.forkFrom,
        context,
        limits: REFERENCE_LIMITS,
        runTask: runTaskFor(agent, depth + 1),
        signal,
        onEvent,
      });
      run.append({ type: 'agent_state', agent, state: 'discarded', summary });
      return summary;
    };
  run.append({ type: 'run', prompt, settings });
  run.append({ type: 'status', status: { kind: 'running' } });
  await parentLoop(prompt, {
    model: new Counting(options.usage),
    modelName: 'demo',
    workdir: sandbox.workdir,
    baseHandlers: handlers,
    history: [],
    context,
    limits: REFERENCE_LIMITS,
    runTask: runTaskFor('parent', 1),
    onEvent,
  });
  run.append({ type: 'status', status: { kind: 'finished' } });
  return run.record;
}
