/**
 * What arrives on the page from the agent workers (and, for the summary, in the parent from the
 * page) is checked before anything acts on it: a malformed call fails back to its worker with the
 * field named, and nothing is recorded or started. Each run's host is served on a port of its own
 * that the page closes.
 */
import { once } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { checkSummary, ProtocolError, type ParentHost, type WorkerEvent } from '../workers/agent/protocol';
import { eventForwarder, hostOn } from '../workers/agent/runtime';
import { afterLastBatch, eventHost, HostLines, parentHost } from './agent-hosts';

const task = { id: 'toolu_1', prompt: 'Find the tests', description: 'explore' };
const log: WorkerEvent = { type: 'log', agent: 'parent', line: 'hi' };

function handlers() {
  return { onEvents: vi.fn(), runTask: vi.fn(async () => 'It uses pytest.') };
}

describe('page ← parent worker: runTask', () => {
  it('starts a subagent for a well-formed task', async () => {
    const page = handlers();
    await expect(parentHost(page).host.runTask(task, 1.7e12)).resolves.toBe('It uses pytest.');
    expect(page.runTask).toHaveBeenCalledWith(task, 1.7e12);
  });

  it('refuses a malformed task, naming the field, and starts nothing', async () => {
    const page = handlers();
    const { host } = parentHost(page);
    await expect(host.runTask({ ...task, prompt: 42 } as never, 1.7e12)).rejects.toThrow(
      "task: 'prompt' must be a string",
    );
    await expect(host.runTask(task, 'now' as never)).rejects.toThrow('runTask: calledAtEpoch');
    await expect(host.runTask(task, 1.7e12, 'yes' as never)).rejects.toThrow(
      "runTask: 'handed' must be a boolean",
    );
    expect(page.runTask).not.toHaveBeenCalled();
  });

  it('tells the page of a task handed to an offered worker', async () => {
    const page = handlers();
    await parentHost(page).host.runTask(task, 1.7e12, true);
    expect(page.runTask).toHaveBeenCalledWith(task, 1.7e12, true);
  });
});

describe('page ← agent workers: events', () => {
  it('records a well-formed batch, with the times its events happened in the worker', () => {
    const page = handlers();
    parentHost(page).host.onEvents([log]);
    expect(page.onEvents).toHaveBeenCalledWith([log], undefined);
    parentHost(page).host.onEvents([log, log], false, [1.7e12, 1.7e12 + 5]);
    expect(page.onEvents).toHaveBeenLastCalledWith([log, log], [1.7e12, 1.7e12 + 5]);
  });

  it('refuses a batch whose times do not match its events, naming the problem', () => {
    const page = handlers();
    const { host } = parentHost(page);
    expect(() => host.onEvents([log, log], false, [1.7e12])).toThrow('expected 2 times, one for each event');
    expect(() => host.onEvents([log], false, ['now'] as never)).toThrow('events: a time');
    expect(page.onEvents).not.toHaveBeenCalled();
  });

  it('refuses a batch with one malformed event whole: nothing of it is recorded', () => {
    for (const make of [(f: () => void) => parentHost({ ...handlers(), onEvents: f }), eventHost]) {
      const host = (f: () => void) => make(f).host;
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

describe("a run's result is taken after its last events (they travel on their own port)", () => {
  const later = () => new Promise((resolve) => setTimeout(resolve, 5));

  /** A worker's forwarder wired to the page's host, each batch arriving a while after it is sent. */
  function wired() {
    const seen: string[] = [];
    const { host, lastBatch } = eventHost((events) =>
      seen.push(...events.map((e) => (e.type === 'log' ? e.line : e.type))),
    );
    const events = eventForwarder({
      onEvents: (batch, last) => void later().then(() => host.onEvents(batch, last)),
    });
    return { seen, events, lastBatch };
  }

  it('waits for the last batch when the result comes first, without a round trip', async () => {
    const { seen, events, lastBatch } = wired();
    events.onEvent({ type: 'log', agent: 'subagent-1', line: 'read the config' });
    events.send();
    events.onEvent({ type: 'log', agent: 'subagent-1', line: 'found vitest' });
    events.end();
    const taken = afterLastBatch(Promise.resolve('It uses vitest.'), lastBatch).then((summary) => {
      seen.push('result');
      return summary;
    });
    await expect(taken).resolves.toBe('It uses vitest.');
    expect(seen).toEqual(['read the config', 'found vitest', 'result']);
  });

  it('takes a failure only after the last batch too', async () => {
    const { seen, events, lastBatch } = wired();
    events.onEvent({ type: 'log', agent: 'subagent-1', line: 'ran a command' });
    events.end();
    const outcome = afterLastBatch(Promise.reject(new Error('Model call failed')), lastBatch).catch(
      (error: Error) => {
        seen.push(error.message);
      },
    );
    await outcome;
    expect(seen).toEqual(['ran a command', 'Model call failed']);
  });

  it('ends with an empty last batch when nothing was queued', async () => {
    const onEvents = vi.fn();
    const events = eventForwarder({ onEvents });
    events.send();
    expect(onEvents).not.toHaveBeenCalled();
    events.end();
    expect(onEvents).toHaveBeenCalledWith([], true, []);
  });

  it('a malformed last batch is refused whole, and still ends the run', async () => {
    const onEvents = vi.fn();
    const { host, lastBatch } = eventHost(onEvents);
    expect(() => host.onEvents([{ type: 'message', agent: 'subagent-1' }] as never, true)).toThrow(
      "needs 'index' and 'message'",
    );
    expect(onEvents).not.toHaveBeenCalled();
    await expect(afterLastBatch(Promise.resolve('done'), lastBatch)).resolves.toBe('done');
  });
});

describe('HostLines: the ports runs are served on', () => {
  it('serves a host to the worker end, and closes its port when asked', async () => {
    const lines = new HostLines();
    const page = handlers();
    const line = lines.serve('parent', parentHost(page).host);
    const closed = once(line.port, 'close');
    await expect(hostOn<ParentHost>(line.port).runTask(task, 1.7e12)).resolves.toBe('It uses pytest.');
    expect(lines.open).toBe(1);
    line.close();
    await closed;
    expect(lines.open).toBe(0);
  });

  it("closes one owner's ports, or every owner's", async () => {
    const lines = new HostLines();
    const [parent, first, again, other] = [
      lines.serve('parent', {}),
      lines.serve('subagent-1', {}),
      lines.serve('subagent-1', {}),
      lines.serve('subagent-2', {}),
    ];
    lines.close('subagent-1');
    await Promise.all([once(first.port, 'close'), once(again.port, 'close')]);
    expect(lines.open).toBe(2);
    lines.close();
    await Promise.all([once(parent.port, 'close'), once(other.port, 'close')]);
    expect(lines.open).toBe(0);
  });
});
