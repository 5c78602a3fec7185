/**
 * Where an agent's context dropped by its own doing, not the provider's: the `context_reset`
 * events of a record (a compaction of its array, or its next calls going to another model), with
 * where each falls among the run's model calls, for the chart (a mark between two calls) and the
 * workers timeline (a mark at its time). A pure function of the record, like the view.
 */
import type { AgentId } from '../core/messages';
import type { RecordEvent, RunRecord } from './record';

export interface ContextResetMark {
  agent: AgentId;
  reason: 'compaction' | 'model';
  /** When, on the record's clock, and the event's index (a click steps there). */
  t: number;
  event: number;
  /** How many model calls of the run (every agent's) started before it: the chart's x is after them. */
  after: number;
  model?: string;
  trigger?: string;
  tokensBefore?: number;
}

/** Every context reset of a record, in order. */
export function contextResets(record: RunRecord): ContextResetMark[] {
  const marks: ContextResetMark[] = [];
  let calls = 0;
  record.events.forEach((event: RecordEvent, i) => {
    if (event.type === 'model_start') calls++;
    if (event.type !== 'context_reset') return;
    const { agent, reason, t, model, trigger, tokensBefore } = event;
    marks.push({
      agent,
      reason,
      t,
      event: i,
      after: calls,
      ...(model !== undefined ? { model } : {}),
      ...(trigger !== undefined ? { trigger } : {}),
      ...(tokensBefore !== undefined ? { tokensBefore } : {}),
    });
  });
  return marks;
}
