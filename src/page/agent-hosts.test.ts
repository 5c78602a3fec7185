/**
 * What arrives on the page from the agent workers (and, for the summary, in the parent from the
 * page) is checked before anything acts on it: a malformed call fails back to its worker with the
 * field named, and nothing is recorded or started.
 */
import { describe, expect, it, vi } from 'vitest';
import { checkSummary, ProtocolError, type WorkerEvent } from '../workers/protocol';
import { eventHost, parentHost } from './agent-hosts';

const task = { id: 'toolu_1', prompt: 'Find the tests', description: 'explore' };
const log: WorkerEvent = { type: 'log', agent: 'parent', line: 'hi' };

function handlers() {
  return { onEvents: vi.fn(), runTask: vi.fn(async () => 'It uses pytest.') };
}

describe('page ← parent worker: runTask', () => {
  it('starts a subagent for a well-formed task', async () => {
    const page = handlers();
    await expect(parentHost(page).runTask(task, 1.7e12)).resolves.toBe('It uses pytest.');
    expect(page.runTask).toHaveBeenCalledWith(task, 1.7e12);
  });

  it('refuses a malformed task, naming the field, and starts nothing', async () => {
    const page = handlers();
    const host = parentHost(page);
    await expect(host.runTask({ ...task, prompt: 42 } as never, 1.7e12)).rejects.toThrow(
      "task: 'prompt' must be a string",
    );
    await expect(host.runTask(task, 'now' as never)).rejects.toThrow('runTask: calledAtEpoch');
    expect(page.runTask).not.toHaveBeenCalled();
  });
});

describe('page ← agent workers: events', () => {
  it('records a well-formed batch', () => {
    const page = handlers();
    parentHost(page).onEvents([log]);
    expect(page.onEvents).toHaveBeenCalledWith([log]);
  });

  it('refuses a batch with one malformed event whole: nothing of it is recorded', () => {
    for (const host of [(f: () => void) => parentHost({ ...handlers(), onEvents: f }), eventHost]) {
      const onEvents = vi.fn();
      const bad = { type: 'message', agent: 'subagent-1' };
      expect(() => host(onEvents).onEvents([log, bad] as WorkerEvent[])).toThrow(
        "needs 'index' and 'message'",
      );
      expect(() => host(onEvents).onEvents('events' as never)).toThrow('expected an array of events');
      expect(onEvents).not.toHaveBeenCalled();
    }
  });
});

describe('a subagent’s summary (page ← subagent worker, parent worker ← page)', () => {
  it('passes a string and refuses anything else', () => {
    expect(checkSummary('It uses pytest.')).toBe('It uses pytest.');
    expect(checkSummary('')).toBe('');
    expect(() => checkSummary({ text: 'It uses pytest.' })).toThrow('summary: expected a string');
    expect(() => checkSummary(undefined)).toThrow(ProtocolError);
  });
});
