/**
 * The parent's side of a handed task (taskRunner with a hand): the task goes down the hand's
 * port, the summary is taken from it as soon as it comes, whatever the page is doing; the page is
 * told, and its answer decides only when the subagent failed.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TaskRequest } from '../../core/loop';
import type { TaskHost } from './protocol';
import { eventForwarder, taskRunner } from './runtime';

const task: TaskRequest = { id: 'toolu_1', prompt: 'Find the tests', description: 'explore' };

function page(answer: Promise<string>) {
  const host: TaskHost = { onEvents: vi.fn(), runTask: vi.fn(() => answer) };
  return { host, events: eventForwarder(host) };
}

/** The offered worker's end of a hand: what came down it, and a way to answer. */
function offered() {
  const { port1: hand, port2: worker } = new MessageChannel();
  const received = new Promise<unknown>((resolve) => (worker.onmessage = ({ data }) => resolve(data)));
  return { hand, worker, received };
}

describe('parent → offered subagent worker: the handed task', () => {
  it('sends the first task down the hand and takes the summary from it while the page is busy', async () => {
    const { host, events } = page(new Promise(() => {})); // the page never answers
    const { hand, worker, received } = offered();
    const runTask = taskRunner(host, events, hand);
    const summary = runTask(task);
    expect(await received).toEqual({ task });
    expect(host.runTask).toHaveBeenCalledWith(task, expect.any(Number), true);
    worker.postMessage({ summary: 'It uses pytest.' });
    await expect(summary).resolves.toBe('It uses pytest.');
    worker.close();
  });

  it('the next task goes to the page as before', async () => {
    const { host, events } = page(Promise.resolve('from the page'));
    const { hand, worker } = offered();
    const runTask = taskRunner(host, events, hand);
    void runTask(task).catch(() => {});
    await expect(runTask({ ...task, id: 'toolu_2' })).resolves.toBe('from the page');
    expect(host.runTask).toHaveBeenLastCalledWith({ ...task, id: 'toolu_2' }, expect.any(Number));
    worker.close();
  });

  it("a failed subagent: the page's error is the task's", async () => {
    const { host, events } = page(Promise.reject(new Error('the subagent-1 worker failed')));
    const { hand, worker } = offered();
    await expect(taskRunner(host, events, hand)(task)).rejects.toThrow('the subagent-1 worker failed');
    worker.close();
  });

  it('a malformed answer up the hand is an error naming it', async () => {
    const { host, events } = page(new Promise(() => {}));
    const { hand, worker, received } = offered();
    const summary = taskRunner(host, events, hand)(task);
    await received;
    worker.postMessage({ summary: 42 });
    await expect(summary).rejects.toThrow('summary: expected a string');
    worker.close();
  });
});
