/**
 * The record's order where it is not the order events reach the page: a subagent's events after
 * its caller's task call.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../run/record';
import { RecordOrder } from './record-order';

/** A RecordOrder over a list: what it lets through (or releases) is recorded, as the conversation does. */
function recording() {
  const recorded: string[] = [];
  const order: RecordOrder = new RecordOrder((event, at) => record(event, at));
  const record = (event: RunEvent, at: number) => {
    if (order.hold(event, at)) return;
    recorded.push(name(event));
    order.recorded(event);
  };
  return { order, record, recorded };
}

function name(event: RunEvent): string {
  if (event.type === 'worker') return `${event.worker} ${event.phase}`;
  if (event.type === 'log') return `${event.agent}: ${event.line}`;
  return 'agent' in event ? `${event.agent} ${event.type}` : event.type;
}

const log = (agent: string, line: string): RunEvent => ({ type: 'log', agent, line });
const taskStart = (id: string): RunEvent => ({
  type: 'task_start',
  agent: 'parent',
  id,
  description: 'd',
  prompt: 'p',
});
const spawn = (agent: string, taskId: string): RunEvent => ({
  type: 'spawn',
  agent,
  from: 'parent',
  taskId,
  description: 'd',
  messages: [],
});

describe('RecordOrder', () => {
  it("holds a subagent's events until its caller's task_start, its spawn first", () => {
    const { order, record, recorded } = recording();
    order.called('subagent-1', 'toolu_1', [spawn('subagent-1', 'toolu_1'), 1]);
    record(log('subagent-1', 'first look'), 2);
    record(log('parent', 'before the call'), 3);
    expect(recorded).toEqual(['parent: before the call']);
    record(taskStart('toolu_1'), 4);
    expect(recorded).toEqual([
      'parent: before the call',
      'parent task_start',
      'subagent-1 spawn',
      'subagent-1: first look',
    ]);
    // From then on, as they come.
    record(log('subagent-1', 'later'), 5);
    expect(recorded.at(-1)).toBe('subagent-1: later');
  });

  it('at the end of a run, whatever is still held is recorded in the order it came', () => {
    const { order, record, recorded } = recording();
    order.called('subagent-1', 'toolu_1', [spawn('subagent-1', 'toolu_1'), 1]);
    order.called('subagent-2', 'toolu_2', [spawn('subagent-2', 'toolu_2'), 2]);
    record(log('subagent-2', 'held too'), 3);
    record(log('subagent-1', 'held'), 4);
    order.releaseAll();
    expect(recorded).toEqual([
      'subagent-1 spawn',
      'subagent-1: held',
      'subagent-2 spawn',
      'subagent-2: held too',
    ]);
  });

  it('keeps when each agent last did something in its worker, until the next record', () => {
    const { order } = recording();
    order.happened('subagent-1', 12.5);
    order.happened('subagent-1', 14);
    expect(order.lastAt('subagent-1')).toBe(14);
    expect(order.lastAt('parent')).toBeUndefined();
    order.clear();
    expect(order.lastAt('subagent-1')).toBeUndefined();
  });
});
