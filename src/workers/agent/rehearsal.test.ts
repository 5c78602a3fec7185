import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LoopEvent } from '../../core/loop';
import { DemoModel } from '../../models/demo';
import { endRehearsal, rehearse, rehearsesAs, rehearseWhileIdle, REHEARSE_AFTER_MS } from './rehearsal';

afterEach(() => {
  endRehearsal();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('an agent worker’s rehearsal', () => {
  it('runs the parent, a task and the subagent’s tools to the parent’s answer', async () => {
    const events: LoopEvent[] = [];
    await rehearse(new AbortController().signal, (event) => events.push(event));
    const types = events.map((event) => `${event.type}:${event.agent}`);
    expect(types).toContain('task_start:parent');
    expect(types).toContain('tool_start:subagent-1');
    expect(types).toContain('task_end:parent');
    const tools = events.flatMap((event) => (event.type === 'tool_start' ? [event.name] : []));
    expect(tools).toEqual(expect.arrayContaining(['task', 'bash', 'read_file']));
    // The demo model found what the made-up project uses, from its tools' answers.
    const last = events.findLast((event) => event.type === 'message' && event.agent === 'parent');
    expect(JSON.stringify(last)).toMatch(/pytest/);
  });

  it('stops at the next tool call once its signal aborts', async () => {
    const controller = new AbortController();
    const events: LoopEvent[] = [];
    await rehearse(controller.signal, (event) => {
      events.push(event);
      if (event.type === 'tool_start' && event.name === 'bash') controller.abort();
    });
    const stoppedAt = events.findIndex((event) => event.type === 'tool_start' && event.name === 'bash');
    expect(stoppedAt).toBeGreaterThan(0);
    expect(events.slice(stoppedAt).some((event) => event.type === 'model_start')).toBe(false);
  });

  it('starts only if no run has begun REHEARSE_AFTER_MS after the worker’s script ran', async () => {
    vi.useFakeTimers();
    const calls = vi.spyOn(DemoModel.prototype, 'createMessage');
    rehearseWhileIdle();
    await vi.advanceTimersByTimeAsync(REHEARSE_AFTER_MS - 1);
    endRehearsal(); // a task came first
    await vi.advanceTimersByTimeAsync(REHEARSE_AFTER_MS * 10);
    expect(calls).not.toHaveBeenCalled();
    rehearseWhileIdle();
    await vi.advanceTimersByTimeAsync(REHEARSE_AFTER_MS);
    expect(calls).toHaveBeenCalled();
  });

  it('is run only by the workers started with the first screen, not by a spare started during a run', () => {
    expect(rehearsesAs('parent')).toBe(true);
    expect(rehearsesAs('subagent-1')).toBe(true);
    expect(['subagent-2', 'subagent-9', 'subagent-12', 'subagent-340'].filter(rehearsesAs)).toEqual([]);
  });
});
