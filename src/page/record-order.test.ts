/**
 * The record's order where it is not the order events reach the page: a subagent's events after
 * its caller's task call, a handing caller's events after its subagent's end.
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
const taskEnd = (id: string): RunEvent => ({ type: 'task_end', agent: 'parent', id, summary: 's' });
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

  it("an offered spare's own life is recorded as it comes; its run waits for its task", () => {
    const { order, record, recorded } = recording();
    order.offered('subagent-1');
    record({ type: 'worker', worker: 'subagent-1', phase: 'ready' }, 1);
    record(log('subagent-1', 'raced ahead'), 2);
    expect(recorded).toEqual(['subagent-1 ready']);
    order.called('subagent-1', 'toolu_1', [spawn('subagent-1', 'toolu_1'), 1.5]);
    record(taskStart('toolu_1'), 3);
    expect(recorded).toEqual([
      'subagent-1 ready',
      'parent task_start',
      'subagent-1 spawn',
      'subagent-1: raced ahead',
    ]);
  });

  it('a withdrawn offer holds nothing any more', () => {
    const { order, record, recorded } = recording();
    order.offered('subagent-1');
    order.withdrawn('subagent-1');
    record(log('subagent-1', 'as it comes'), 1);
    expect(recorded).toEqual(['subagent-1: as it comes']);
  });

  it("a handing caller's events wait, from its task_end on, for its subagent's end, then follow it", () => {
    const { order, record, recorded } = recording();
    order.handed('parent', 'toolu_1', 'subagent-1');
    record(log('parent', 'a second task called'), 1);
    record(taskEnd('toolu_1'), 2);
    record(log('parent', 'its last call'), 3);
    record(log('subagent-1', 'returning'), 2.5);
    expect(recorded).toEqual(['parent: a second task called', 'subagent-1: returning']);
    // Another subagent's end does not release them.
    record({ type: 'agent_state', agent: 'subagent-2', state: 'discarded' }, 2.6);
    expect(recorded).toHaveLength(3);
    record({ type: 'agent_state', agent: 'subagent-1', state: 'discarded', summary: 's' }, 2.7);
    expect(recorded.slice(3)).toEqual(['subagent-1 agent_state', 'parent task_end', 'parent: its last call']);
    record(log('parent', 'after'), 4);
    expect(recorded.at(-1)).toBe('parent: after');
  });

  it('at the end of a run, whatever is still held is recorded in the order it came', () => {
    const { order, record, recorded } = recording();
    order.called('subagent-1', 'toolu_1', [spawn('subagent-1', 'toolu_1'), 1]);
    order.handed('parent', 'toolu_2', 'subagent-2');
    record(log('subagent-1', 'held'), 2);
    record(taskEnd('toolu_2'), 3);
    order.releaseAll();
    expect(recorded).toEqual(['subagent-1 spawn', 'subagent-1: held', 'parent task_end']);
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
