/**
 * The agent workers' owner closes the port a run's host is served on once the run is over, and
 * when it terminates the workers of a run still going (Stop): a terminated worker never lets go
 * of that port, and the page would keep the run's host, and all it reaches, as long as it lives.
 * It lets go of the proxy of each worker it terminates too: a call still waiting on it would
 * keep it, and the worker, for good. Workers here are ports whose other end serves a fake agent
 * in this thread (terminating one does nothing to it).
 */
import { once } from 'node:events';
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventHost, ParentRunRequest, SubagentRunRequest } from '../workers/agent/protocol';
import { hostOn } from '../workers/agent/runtime';
import { AgentWorkers, type AgentsAhead } from './agent-workers';

/** What a fake agent's runs were given: the worker's end of each host's port, and its close. */
interface Hosts {
  closed: Array<Promise<unknown>>;
}

/** A fake agent: each run takes its host's port; `ends` says whether the run ends or goes on. */
function fakeAgent(hosts: Hosts, ends: boolean) {
  const run = (_request: unknown, sandbox: MessagePort, port: MessagePort) => {
    hosts.closed.push(once(port, 'close'));
    sandbox.close();
    if (!ends) return new Promise(() => {}); // a run still going
    void hostOn<EventHost>(port).onEvents([], true);
    return Promise.resolve('The project uses Vitest.');
  };
  return { run, ready: () => ({ name: 'subagent-1', readyAtEpoch: 0 }) };
}

const opened: MessagePort[] = [];
afterEach(() => {
  for (const port of opened.splice(0)) port.close();
});

/**
 * The workers' owner, every worker it starts a fake serving `agent`; `released` settles for each
 * once the page has let go of its proxy (Comlink then closes the agent's end).
 */
function agentsOf(agent: object): { agents: AgentWorkers; released: Array<Promise<unknown>> } {
  const released: Array<Promise<unknown>> = [];
  const ahead: AgentsAhead = {
    takeAgent: () => {
      const { port1, port2 } = new MessageChannel();
      opened.push(port1, port2);
      Comlink.expose(agent, port2);
      released.push(once(port2, 'close'));
      const worker = Object.assign(port1, { terminate: () => {} });
      return {
        worker: worker as unknown as Worker,
        failure: new Promise<never>(() => {}),
        createdAtEpoch: 0,
      };
    },
    agentScriptIn: () => Promise.resolve(),
  };
  return { agents: new AgentWorkers(() => {}, ahead), released };
}

const handlers = () => ({ onEvents: vi.fn(), runTask: vi.fn() });
const sandboxPort = () => new MessageChannel().port1;
const parentRun = { prompt: 'Find the tests' } as ParentRunRequest;
const subagentRun = { agent: 'subagent-1', prompt: 'Find the tests' } as SubagentRunRequest;

describe("AgentWorkers: the ports runs' hosts are served on", () => {
  it("a parent's run over: its host's port is closed", async () => {
    const hosts: Hosts = { closed: [] };
    const { agents } = agentsOf(fakeAgent(hosts, true));
    await agents.runParent(parentRun, sandboxPort(), handlers());
    await agents.runParent(parentRun, sandboxPort(), handlers());
    expect(hosts.closed).toHaveLength(2);
    await Promise.all(hosts.closed);
  });

  it("Stop during a run: the host's port is closed, the terminated parent's proxy let go of", async () => {
    const hosts: Hosts = { closed: [] };
    const { agents, released } = agentsOf(fakeAgent(hosts, false));
    agents.runParent(parentRun, sandboxPort(), handlers()).catch(() => {});
    await vi.waitFor(() => expect(hosts.closed).toHaveLength(1));
    expect(agents.stopAll()).toEqual(['parent']);
    await hosts.closed[0];
    await released[0];
  });

  it("Stop during a subagent's run, then its task's end: its host's port closed, its proxy let go of", async () => {
    const hosts: Hosts = { closed: [] };
    const { agents, released } = agentsOf(fakeAgent(hosts, false));
    const worker = agents.spawn('subagent-1');
    worker.run(subagentRun, sandboxPort(), handlers()).catch(() => {});
    await vi.waitFor(() => expect(hosts.closed).toHaveLength(1));
    expect(agents.stopAll()).toEqual(['subagent-1']);
    worker.terminate(); // its task's own end, after the Stop's: nothing more to do
    await hosts.closed[0];
    await released[0];
    expect(agents.live).toEqual([]);
  });

  it('an offer taken back after a Stop ended its spare: nothing to do, nothing thrown', async () => {
    const hosts: Hosts = { closed: [] };
    const { agents, released } = agentsOf({
      ...fakeAgent(hosts, false),
      runHanded: () => new Promise(() => {}),
    });
    agents.prepare('subagent-1');
    const offer = agents.offer('subagent-1', subagentRun, sandboxPort(), handlers());
    expect(offer?.id).toBe('subagent-1');
    expect(agents.stopAll()).toEqual(['subagent-1']);
    expect(() => offer?.withdraw()).not.toThrow();
    await released[0];
  });
});
