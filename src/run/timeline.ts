/**
 * The "Workers timeline": every worker's life in a record, from created (or the record's start) to
 * terminated, with its model and tool calls, and the segments a row draws. A pure function of the
 * record, like the view.
 */
import type { RecordEvent, RunRecord } from './record';

export interface Segment {
  kind: 'model' | 'tool';
  label: string;
  start: number;
  end: number;
  /** Index in the record of the event that began it (a click steps there). */
  event: number;
  /** A model call's number in its agent's loop. */
  call?: number;
}

/** Segments close in time drawn as one (see `coalesce`): a click steps to the first. */
export interface SegmentGroup extends Segment {
  /** How many segments it stands for (1: just itself). */
  count: number;
  /** For model calls: the number of the group's last call. */
  lastCall?: number;
}

export interface WorkerRow {
  id: string;
  /** Who started it (subagents), for the tree. */
  from: string | null;
  depth: number;
  start: number;
  /** Null while it lives. */
  end: number | null;
  /**
   * A subagent whose task was called before its worker was created waited for its turn (at most
   * so many subagents work at once) until then: null while it still waits, undefined if it never did.
   */
  queuedUntil?: number | null;
  segments: Segment[];
}

/** A record's timeline as far as it was read: read on from there when the record grows. */
interface Progress {
  read: number;
  rows: Map<string, WorkerRow>;
  openModel: Map<string, { start: number; event: number; call: number }>;
  openTools: Map<string, { agent: string; name: string; start: number; event: number }>;
}

const progress = new WeakMap<RunRecord, Progress>();

/** The row of a worker, made when first seen. */
function rowOf(rows: Map<string, WorkerRow>, id: string, t: number): WorkerRow {
  let r = rows.get(id);
  if (!r) {
    r = { id, from: null, depth: 0, start: t, end: null, segments: [] };
    rows.set(id, r);
  }
  return r;
}

/**
 * Every worker of a record, from created (or the record's start) to terminated, with its calls.
 * A record only grows: what was read is kept, and a live run's next look reads only the events
 * added since (a live fan-out asks at every frame). Each look returns rows of its own.
 */
export function workersTimeline(record: RunRecord): { rows: WorkerRow[]; end: number } {
  let p = progress.get(record);
  if (!p || p.read > record.events.length) {
    p = { read: 0, rows: new Map(), openModel: new Map(), openTools: new Map() };
    progress.set(record, p);
  }
  for (; p.read < record.events.length; p.read++) readEvent(p, record.events[p.read], p.read);
  const end = record.events.at(-1)?.t ?? 0;
  const rows = new Map<string, WorkerRow>();
  for (const [id, r] of p.rows) rows.set(id, { ...r, segments: [...r.segments] });
  // Calls still open at the record's end (a live run, or one cut short) run to that end.
  for (const [agent, started] of p.openModel) {
    rowOf(rows, agent, started.start).segments.push({
      kind: 'model',
      label: `model call ${started.call}`,
      start: started.start,
      end,
      event: started.event,
      call: started.call,
    });
  }
  for (const started of p.openTools.values()) {
    rowOf(rows, started.agent, started.start).segments.push({
      kind: 'tool',
      label: started.name,
      start: started.start,
      end,
      event: started.event,
    });
  }
  return { rows: treeOrder([...rows.values()]), end };
}

/** Reads the `i`th event of a record into its timeline so far. */
function readEvent(p: Progress, event: RecordEvent, i: number): void {
  const { rows, openModel, openTools } = p;
  const row = (id: string, t: number): WorkerRow => rowOf(rows, id, t);
  switch (event.type) {
    case 'worker': {
      const known = rows.has(event.worker);
      const r = row(event.worker, event.t);
      // Its turn came when its worker was created; a record that notes only the worker ready
      // (a spare's, or one written before workers' creation was recorded) shows it from then.
      if (event.phase !== 'terminated' && known && r.queuedUntil === null) r.queuedUntil = event.t;
      if (event.phase === 'terminated') {
        r.end = event.t;
        if (r.queuedUntil === null) r.queuedUntil = event.t; // stopped while it waited
      }
      break;
    }
    case 'spawn': {
      // Its task was called before its worker was created: it waits for a turn until then.
      const waits = !rows.has(event.agent);
      const r = row(event.agent, event.t);
      if (waits) r.queuedUntil = null;
      r.from = event.from;
      r.depth = (rows.get(event.from)?.depth ?? 0) + 1;
      break;
    }
    case 'status':
      // Over: a task still waiting for its turn never got one.
      if (event.status.kind === 'running') break;
      for (const r of rows.values()) {
        if (r.queuedUntil !== null) continue;
        r.queuedUntil = event.t;
        r.end ??= event.t;
      }
      break;
    case 'model_start':
      row(event.agent, event.t);
      openModel.set(event.agent, { start: event.t, event: i, call: event.call });
      break;
    case 'model_end': {
      const started = openModel.get(event.agent);
      if (!started) break;
      openModel.delete(event.agent);
      row(event.agent, started.start).segments.push({
        kind: 'model',
        label: `model call ${started.call}`,
        start: started.start,
        end: event.t,
        event: started.event,
        call: started.call,
      });
      break;
    }
    case 'tool_start':
      openTools.set(`${event.agent}:${event.id}`, {
        agent: event.agent,
        name: event.name,
        start: event.t,
        event: i,
      });
      break;
    case 'tool_end': {
      const key = `${event.agent}:${event.id}`;
      const started = openTools.get(key);
      if (!started) break;
      openTools.delete(key);
      row(event.agent, started.start).segments.push({
        kind: 'tool',
        label: event.name,
        start: started.start,
        end: event.t,
        event: started.event,
      });
      break;
    }
    default:
      break;
  }
}

/**
 * The sandbox first, then the parent, then each subagent under the agent that started it (children
 * in the order they came). One pass: a fan-out has hundreds of rows, ordered again at every frame.
 */
function treeOrder(rows: WorkerRow[]): WorkerRow[] {
  const out: WorkerRow[] = [];
  const placed = new Set<WorkerRow>();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const children = new Map<string, WorkerRow[]>();
  for (const r of rows)
    if (r.from) {
      const list = children.get(r.from);
      if (list) list.push(r);
      else children.set(r.from, [r]);
    }
  const place = (r: WorkerRow) => {
    out.push(r);
    placed.add(r);
  };
  for (const r of rows) if (!r.from && r.id !== 'parent' && !r.id.startsWith('subagent-')) place(r);
  const visit = (id: string) => {
    const r = byId.get(id);
    if (r && !placed.has(r)) place(r);
    for (const child of children.get(id) ?? []) if (!placed.has(child)) visit(child.id);
  };
  visit('parent');
  for (const r of rows) if (!placed.has(r)) place(r);
  return out;
}

/**
 * A row's segments as drawn: at most about `most` of each kind. In a long run, the calls that
 * start within one `span / most` stretch are one group (on screen they would overlap anyway), so
 * that a row of a thousand calls is a few hundred elements and still one click from each stretch.
 */
export function coalesce(segments: readonly Segment[], span: number, most = 120): SegmentGroup[] {
  const groups: SegmentGroup[] = [];
  for (const kind of ['model', 'tool'] as const) {
    const ofKind = segments.filter((s) => s.kind === kind).sort((a, b) => a.start - b.start);
    const stretch = ofKind.length > most ? span / most : 0;
    let open: SegmentGroup | undefined;
    for (const segment of ofKind) {
      if (open && segment.start - open.start < stretch) {
        open.end = Math.max(open.end, segment.end);
        open.count++;
        if (segment.call !== undefined) open.lastCall = segment.call;
        continue;
      }
      open = { ...segment, count: 1, lastCall: segment.call };
      groups.push(open);
    }
  }
  return groups;
}

/** Whether two groups draw the same bar (its place, its label, what a click steps to). */
function sameGroup(a: SegmentGroup, b: SegmentGroup): boolean {
  return (
    a.kind === b.kind &&
    a.label === b.label &&
    a.start === b.start &&
    a.end === b.end &&
    a.event === b.event &&
    a.call === b.call &&
    a.count === b.count &&
    a.lastCall === b.lastCall
  );
}

/**
 * `next`, with each group that draws the same bar as the group at its place in `previous` given
 * back as that very object: the screen redraws a growing run's rows and touches only the bars that
 * changed (the call still open, a new one), not the hundreds that did not.
 */
export function keepUnchanged(
  previous: readonly SegmentGroup[] | undefined,
  next: readonly SegmentGroup[],
): SegmentGroup[] {
  if (!previous) return [...next];
  const kept = next.map((group, i) =>
    i < previous.length && sameGroup(previous[i], group) ? previous[i] : group,
  );
  return kept.length === previous.length && kept.every((group, i) => group === previous[i])
    ? (previous as SegmentGroup[])
    : kept;
}
