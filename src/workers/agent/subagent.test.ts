/**
 * A subagent's worker offered to a caller (runHanded): it waits for the task down its hand, and an
 * offer taken back ends it having run nothing, letting go of the page's side of it.
 */
import { once } from 'node:events';
import * as Comlink from 'comlink';
import { describe, expect, it, vi } from 'vitest';
import { REFERENCE_LIMITS } from '../../core/variants';
import type { AgentSettings, TaskHost } from './protocol';
import { subagentApi } from './subagent';

const settings: AgentSettings = {
  model: { provider: 'demo', speed: 'instant' },
  modelName: 'demo',
  workdir: '/project',
  bashTimeoutMs: 1000,
  context: 'isolated',
  limits: REFERENCE_LIMITS,
} as AgentSettings;

function offered() {
  const host: TaskHost = { onEvents: vi.fn(), runTask: vi.fn() };
  const { port1: hand, port2: caller } = new MessageChannel();
  const { port1: sandbox, port2: sandboxEnd } = new MessageChannel();
  const running = subagentApi.runHanded({ agent: 'subagent-1', depth: 1, settings }, sandbox, host, hand);
  return { host, caller, sandboxEnd, running };
}

describe('subagent worker: a task handed down its line', () => {
  it('an offer taken back before any task resolves with null, its events ended, nothing run', async () => {
    const { host, caller, sandboxEnd, running } = offered();
    subagentApi.withdraw();
    await expect(running).resolves.toBeNull();
    expect(host.onEvents).toHaveBeenCalledWith([], true, []);
    expect(host.runTask).not.toHaveBeenCalled();
    caller.close();
    sandboxEnd.close();
  });

  it("an offer taken back lets go of the page's side: the page closes its port", async () => {
    const served: TaskHost = { onEvents: vi.fn(), runTask: vi.fn() };
    const { port1: pageEnd, port2: workerEnd } = new MessageChannel();
    Comlink.expose(served, pageEnd);
    const closed = once(pageEnd, 'close');
    const { port1: hand, port2: caller } = new MessageChannel();
    const { port1: sandbox, port2: sandboxEnd } = new MessageChannel();
    const host = Comlink.wrap<TaskHost>(workerEnd);
    const running = subagentApi.runHanded({ agent: 'subagent-1', depth: 1, settings }, sandbox, host, hand);
    subagentApi.withdraw();
    await expect(running).resolves.toBeNull();
    await closed;
    expect(served.onEvents).toHaveBeenCalledWith([], true, []);
    caller.close();
    sandboxEnd.close();
  });

  it('a malformed task down the hand fails the run, naming the field', async () => {
    const { caller, sandboxEnd, running } = offered();
    caller.postMessage({ task: { id: 'toolu_1', prompt: 42, description: 'd' } });
    await expect(running).rejects.toThrow("task: 'prompt' must be a string");
    caller.close();
    sandboxEnd.close();
  });
});
