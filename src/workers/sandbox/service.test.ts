/**
 * The sandbox served on a port, as agent workers reach it: the page closing a connection (Stop)
 * and a tool call's own signal both stop the command, even one that never gives its thread back.
 */
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { create, type LocalSandbox } from '../../sandbox/local';
import { loadSample } from '../../sandbox/samples';
import type { ExecResult, Sandbox } from '../../sandbox/sandbox';
import { StopCell } from '../../sandbox/stop-signal';
import { remoteSandbox } from '../agent/runtime';
import type { CommandStart } from './protocol';
import { serveSandbox, type SandboxConnection } from './service';

let local: LocalSandbox;
/** What the sandbox itself answered, whether or not the answer could still cross the port. */
let answers: Array<Promise<ExecResult>>;
let spied: Sandbox;
const open: SandboxConnection[] = [];

beforeEach(async () => {
  local = await create(loadSample('python'));
  answers = [];
  spied = Object.assign(Object.create(local) as Sandbox, {
    exec: (command: string, options: Parameters<Sandbox['exec']>[1]) => {
      const answer = local.exec(command, options);
      answers.push(answer);
      return answer;
    },
  });
});

afterEach(() => {
  for (const connection of open.splice(0)) connection.close();
  local.dispose();
});

function connect(
  stop?: StopCell,
  onStart?: (start: CommandStart) => void,
): { sandbox: Sandbox; connection: SandboxConnection } {
  const { port1, port2 } = new MessageChannel();
  const connection = serveSandbox(() => spied, port2, stop, onStart);
  open.push(connection);
  return { sandbox: remoteSandbox(port1, local.workdir), connection };
}

describe('serveSandbox', () => {
  it('runs commands for an agent and credits them to it', async () => {
    const { sandbox } = connect();
    const result = await sandbox.exec('echo hi > hi.txt; cat hi.txt', {
      timeoutMs: 20_000,
      agent: 'subagent-1',
    });
    expect(result).toMatchObject({ stdout: 'hi\n', exitCode: 0, timedOut: false });
  });

  it('tells of each command as it begins, before its answer', async () => {
    const begun: CommandStart[] = [];
    const { sandbox } = connect(undefined, (start) => {
      begun.push(start);
      expect(answers).toHaveLength(0); // told before the sandbox runs it
    });
    await sandbox.exec('echo one', { timeoutMs: 20_000, agent: 'subagent-2' });
    expect(begun).toEqual([{ agent: 'subagent-2', command: 'echo one', atEpoch: expect.any(Number) }]);
  });

  it("stops a command when the agent's tool call is aborted (a cancel naming the request)", async () => {
    const { sandbox } = connect();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await sandbox.exec('sleep 10; echo late > late.txt', {
      timeoutMs: 20_000,
      signal: controller.signal,
    });
    expect(result).toMatchObject({ exitCode: 130, timedOut: false });
    expect(await local.exists(`${local.workdir}/late.txt`)).toBe(false);
  });

  it('stops the commands still running when the page closes the connection (Stop)', async () => {
    const { sandbox, connection } = connect(new StopCell());
    void sandbox.exec('sleep 10', { timeoutMs: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    connection.close();
    expect(await answers[0]).toMatchObject({ exitCode: 130, timedOut: false });
  });

  it("stops a runaway loop when the page raises the connection's stop from its own thread", async () => {
    const stop = new StopCell();
    const { sandbox } = connect(stop);
    void sandbox.exec('while true; do :; done', { timeoutMs: 30_000 });
    raiseFromAnotherThread(stop, 200);
    await expect.poll(() => answers.length).toBe(1);
    expect(await answers[0]).toMatchObject({ exitCode: 130, timedOut: false });
  });

  it('turns a malformed request into a failed call, not a broken sandbox', async () => {
    const { port1, port2 } = new MessageChannel();
    open.push(serveSandbox(() => spied, port2));
    const { wrap } = await import('comlink');
    const remote = wrap<{ exec(request: unknown): Promise<ExecResult> }>(port1);
    await expect(remote.exec({ id: 'one', command: 'ls', timeoutMs: 1000, agent: 'parent' })).rejects.toThrow(
      "exec: 'id' must be an integer",
    );
    expect(answers).toHaveLength(0);
    port1.close();
  });
});

/** Raises `stop` from a thread of its own after `ms`, as the page does when the learner presses Stop. */
function raiseFromAnotherThread(stop: StopCell, ms: number): void {
  const code = `
    const { workerData } = require('node:worker_threads');
    const cell = new Int32Array(workerData);
    Atomics.wait(cell, 0, 0, ${ms});
    Atomics.store(cell, 0, 1);
  `;
  new Worker(code, { eval: true, workerData: stop.cell.buffer }).unref();
}
