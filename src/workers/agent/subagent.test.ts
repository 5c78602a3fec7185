/**
 * A subagent's worker offered to a caller (runHanded): it waits for the task down its hand, and an
 * offer taken back ends it having run nothing.
 */
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

/** The page's side, served on a port as the page serves it; `port` is the worker's end. */
function pageHost() {
  const host = { onEvents: vi.fn(), runTask: vi.fn() } satisfies TaskHost;
  const { port1: pageEnd, port2: port } = new MessageChannel();
  Comlink.expose(host, pageEnd);
  return { host, port, pageEnd };
}

function offered() {
  const page = pageHost();
  const { port1: hand, port2: caller } = new MessageChannel();
  const { port1: sandbox, port2: sandboxEnd } = new MessageChannel();
  const running = subagentApi.runHanded(
    { agent: 'subagent-1', depth: 1, settings },
    sandbox,
    page.port,
    hand,
  );
  const close = () => {
    caller.close();
    sandboxEnd.close();
    page.pageEnd.close();
  };
  return { host: page.host, caller, running, close };
}

describe('subagent worker: a task handed down its line', () => {
  it('an offer taken back before any task resolves with null, its events ended, nothing run', async () => {
    const { host, running, close } = offered();
    subagentApi.withdraw();
    await expect(running).resolves.toBeNull();
    await vi.waitFor(() => expect(host.onEvents).toHaveBeenCalledWith([], true, []));
    expect(host.runTask).not.toHaveBeenCalled();
    close();
  });

  it('a malformed task down the hand fails the run, naming the field', async () => {
    const { caller, running, close } = offered();
    caller.postMessage({ task: { id: 'toolu_1', prompt: 42, description: 'd' } });
    await expect(running).rejects.toThrow("task: 'prompt' must be a string");
    close();
  });
});
