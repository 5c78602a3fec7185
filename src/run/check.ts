/**
 * Opening a record from outside (a file, IndexedDB): every problem becomes one sentence that
 * names it, and nothing is opened unless the whole record holds together. A record is checked in
 * three passes: its size and JSON, its shape (the schemas), then its story (each event must make
 * sense after the ones before it: no tool_result without its tool_use, no agent that was never
 * spawned, no tool or task ended that never started, no delta outside a block, no time running
 * backwards). A sentence quotes at most QUOTED characters of the file, whatever the file holds.
 */
import * as v from 'valibot';
import type { Message } from '../core/messages';
import { AgentSchema, byType, LoopEventSchemas, MessageSchema } from '../core/schema';
import { CONTEXT_MODES, LIMIT_RANGES } from '../core/variants';
import { RECORD_FORMAT, RECORD_VERSION, type RecordEvent, type RunRecord, type RunStatus } from './record';

/** The largest run file that is opened (the bench opens its big shapes, up to this size). */
export const MAX_RECORD_BYTES = 25 * 1024 * 1024;

/** The most characters of a file that a sentence about it quotes. */
export const QUOTED = 80;

/**
 * Why a record cannot be opened, in English; the screen shows the same sentence in its own
 * language from the code and the parameters (the `record.*` keys of src/ui/locales).
 */
const RECORD_PROBLEMS = {
  notObject: () => 'it is not a run: expected a JSON object',
  wrongFormat: (p: { format: string }) => `it is not a run of this playground (its "format" is ${p.format})`,
  newerVersion: (p: { version: number; supported: number }) =>
    `it was saved by a newer version of the playground (run format ${p.version}; this one reads up to ${p.supported})`,
  secretField: (p: { field: string }) =>
    `it carries a field named "${p.field}", which may hold a secret: it is not opened`,
  shape: (p: { at: string; expected: string; received: string }) =>
    `its shape is wrong at ${p.at}: ${p.expected} expected, ${p.received} found`,
  tooBig: (p: { size: string; max: string }) => `it is ${p.size}; a run file may be at most ${p.max}`,
  notJson: (p: { at: number }) => `it is not JSON (it breaks at character ${p.at})`,
  notJsonToken: (p: { token: string }) => `it is not JSON (it has ${p.token} where JSON cannot)`,
  notJsonEnd: () => 'it is not JSON (it ends too soon)',
  timeBackwards: (p: Where) => `${where(p)} happens before the event ahead of it`,
  spawnedTwice: (p: Where & { agent: string }) => `${where(p)}: ${p.agent} is spawned twice`,
  neverExisted: (p: Where & { agent: string }) => `${where(p)}: ${p.agent} never existed`,
  neverSpawned: (p: Where & { agent: string }) => `${where(p)}: ${p.agent} was never spawned`,
  messageGap: (p: Where & { index: number; agent: string; expected: number }) =>
    `${where(p)}: message ${p.index} of ${p.agent} comes before message ${p.expected}`,
  orphanResult: (p: Where & { id: string }) =>
    `${where(p)}: a tool_result for ${p.id} has no tool_use before it`,
  toolNotStarted: (p: Where & { id: string; agent: string }) =>
    `${where(p)}: ${p.agent} ends tool call ${p.id}, which it never started`,
  unknownTask: (p: Where & { id: string }) => `${where(p)}: task ${p.id} was never started`,
  deltaWithoutBlock: (p: Where & { index: number; agent: string }) =>
    `${where(p)}: ${p.agent} streams into block ${p.index}, which was never started`,
  rewrittenAfterFinish: (p: Where & { index: number; agent: string }) =>
    `${where(p)}: message ${p.index} of ${p.agent} is rewritten after the run finished`,
};

/** The event a story problem is about: its number (from 1) and type. */
interface Where {
  event: number;
  type: string;
}

/** Text of the file as a sentence may quote it: at most QUOTED characters, the cut marked. */
export function quote(text: string): string {
  if (text.length <= QUOTED) return text;
  let end = QUOTED - 1;
  // Never half of a character written as two UTF-16 units (an emoji, a rare CJK character).
  if (/[\uD800-\uDBFF]/.test(text[end - 1])) end--;
  return `${text.slice(0, end)}…`;
}

function where(p: Where): string {
  return `event ${p.event} (${p.type})`;
}

export type RecordProblem = keyof typeof RECORD_PROBLEMS;
type ParamsOf<C extends RecordProblem> = Parameters<(typeof RECORD_PROBLEMS)[C]>[0];

/** A record that cannot be opened: `code` and `params` say why; `message` says it in English. */
export class RecordError<C extends RecordProblem = RecordProblem> extends Error {
  override name = 'RecordError';
  readonly code: C;
  readonly params: Record<string, string | number>;

  constructor(code: C, ...params: ParamsOf<C> extends undefined ? [] : [ParamsOf<C>]) {
    const given: Record<string, string | number> = {};
    for (const [name, value] of Object.entries(params[0] ?? {})) {
      given[name] = typeof value === 'string' ? quote(value as string) : (value as number);
    }
    super((RECORD_PROBLEMS[code] as (p: Record<string, string | number>) => string)(given));
    this.code = code;
    this.params = given;
  }
}

const text = v.string();
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const time = v.pipe(v.number(), v.finite(), v.minValue(0));

const range = (key: keyof typeof LIMIT_RANGES) =>
  v.pipe(count, v.minValue(LIMIT_RANGES[key].min), v.maxValue(LIMIT_RANGES[key].max));

const LimitsSchema = v.object({
  subagentMaxCalls: range('subagentMaxCalls'),
  outputChars: range('outputChars'),
  maxTokens: range('maxTokens'),
  delegationDepth: range('delegationDepth'),
});

const SettingsSchema = v.object({
  provider: v.picklist(['demo', 'anthropic']),
  model: text,
  baseURL: v.optional(text),
  sample: v.picklist(['python', 'typescript']),
  sandbox: text,
  context: v.picklist(CONTEXT_MODES),
  limits: LimitsSchema,
});

const StatusSchema = v.variant('kind', [
  v.object({ kind: v.literal('booting') }),
  v.object({ kind: v.literal('idle') }),
  v.object({ kind: v.literal('running') }),
  v.object({ kind: v.literal('finished') }),
  v.object({ kind: v.literal('stopped'), reason: v.optional(text) }),
  v.object({ kind: v.literal('failed'), reason: text }),
]);

const FileChangeSchema = v.object({
  path: text,
  kind: v.picklist(['create', 'modify', 'delete']),
  agent: text,
});

const PageEventSchemas = [
  v.object({ type: v.literal('run'), prompt: text, settings: SettingsSchema }),
  v.object({ type: v.literal('status'), status: StatusSchema }),
  v.object({
    type: v.literal('spawn'),
    agent: AgentSchema,
    from: AgentSchema,
    taskId: text,
    description: text,
    messages: v.array(MessageSchema),
  }),
  v.object({
    type: v.literal('agent_state'),
    agent: AgentSchema,
    state: v.picklist(['discarded', 'stopped', 'failed']),
    summary: v.optional(text),
  }),
  v.object({
    type: v.literal('worker'),
    worker: text,
    phase: v.picklist(['created', 'ready', 'terminated']),
  }),
  v.object({ type: v.literal('files'), changes: v.array(FileChangeSchema) }),
  v.object({ type: v.literal('sandbox'), label: text, workdir: text }),
] as const;

// Each event's schema with its time (an intersect would merge every event's copy: far slower).
const EventSchema = byType(
  [...LoopEventSchemas, ...PageEventSchemas].map((schema) => v.object({ ...schema.entries, t: time })),
);

const RecordSchema = v.object({
  format: v.literal(RECORD_FORMAT),
  version: v.literal(RECORD_VERSION),
  id: v.pipe(text, v.minLength(1)),
  startedAt: time,
  title: text,
  settings: SettingsSchema,
  // Checked one by one below (see `plainEvent`).
  events: v.array(v.unknown()),
});

const agentNames = new Map<unknown, boolean>();
const isAgent = (name: unknown) => {
  let known = agentNames.get(name);
  if (known === undefined) agentNames.set(name, (known = v.is(AgentSchema, name)));
  return known;
};
const isCount = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;
const isTime = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/** How many fields an object has. */
function fields(object: object): number {
  let n = 0;
  for (const key in object) if (Object.hasOwn(object, key)) n++;
  return n;
}

/** A content block of a known kind whose fields are each of their kind (its schema keeps the rest). */
function plainBlock(block: unknown): boolean {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return false;
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string';
    case 'tool_use':
      return typeof b.id === 'string' && typeof b.name === 'string' && 'input' in b;
    case 'tool_result':
      return typeof b.tool_use_id === 'string' && 'content' in b;
    case 'thinking':
      return typeof b.thinking === 'string' && (!('signature' in b) || typeof b.signature === 'string');
    case 'redacted_thinking':
      return typeof b.data === 'string';
    default:
      return false;
  }
}

/** A streamed event of the frequent kinds, exactly as its schema reads it. */
function plainStreamed(event: unknown): boolean {
  if (typeof event !== 'object' || event === null) return false;
  const e = event as Record<string, unknown>;
  if (!isCount(e.index)) return false;
  switch (e.type) {
    case 'text_delta':
      return typeof e.text === 'string' && fields(e) === 3;
    case 'thinking_delta':
      return typeof e.thinking === 'string' && fields(e) === 3;
    case 'input_json_delta':
      return typeof e.partial_json === 'string' && fields(e) === 3;
    case 'block_stop':
      return fields(e) === 2;
    case 'block_start':
      return plainBlock(e.block) && fields(e) === 3;
    default:
      return false;
  }
}

/** A message with exactly its two fields, its content of its role's kind, every block plain. */
function plainMessage(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const m = message as Record<string, unknown>;
  if (m.role !== 'user' && m.role !== 'assistant') return false;
  if (fields(m) !== 2) return false;
  const content = m.content;
  if (typeof content === 'string') return m.role === 'user';
  if (!Array.isArray(content)) return false;
  for (let i = 0; i < content.length; i++) if (!plainBlock(content[i])) return false;
  return true;
}

/**
 * Whether an event is one of the kinds a long record is mostly made of (log lines, errors,
 * streamed deltas, model calls' starts and ends, tool calls, messages), with exactly the fields its schema reads, each of its kind: such
 * an event passes the schema unchanged, so it is taken as it is. The schema checking every event
 * (and copying it) was most of the time a 25 MB record took to open. Any other event, or one
 * with a field more or less, goes through the schema, which names what is wrong.
 */
function plainEvent(event: unknown): event is RecordEvent {
  if (typeof event !== 'object' || event === null) return false;
  const e = event as Record<string, unknown>;
  if (!isTime(e.t) || !isAgent(e.agent)) return false;
  switch (e.type) {
    case 'log':
      return typeof e.line === 'string' && fields(e) === 4;
    case 'error':
      return typeof e.error === 'string' && fields(e) === 4;
    case 'model_start':
      return isCount(e.call) && fields(e) === 4;
    case 'stream':
      return isCount(e.call) && plainStreamed(e.event) && fields(e) === 5;
    case 'model_end':
      // With usage, the schema reads it (its fields may be absent, null or more).
      return (
        isCount(e.call) &&
        typeof e.durationMs === 'number' &&
        Number.isFinite(e.durationMs) &&
        (e.stopReason === null || typeof e.stopReason === 'string') &&
        fields(e) === 6
      );
    case 'tool_start':
      return typeof e.id === 'string' && typeof e.name === 'string' && 'input' in e && fields(e) === 6;
    case 'message':
      return isCount(e.index) && plainMessage(e.message) && fields(e) === 5;
    case 'tool_end':
      return (
        typeof e.id === 'string' &&
        typeof e.name === 'string' &&
        typeof e.output === 'string' &&
        typeof e.durationMs === 'number' &&
        Number.isFinite(e.durationMs) &&
        fields(e) === 7
      );
    default:
      return false;
  }
}

/** How many events went through their schema (the others were plain): counted for the tests. */
export const schemaChecked = { events: 0 };

/** The events of a record, checked: the plain ones as they are, the others by their schema. */
function checkEvents(events: readonly unknown[]): RecordEvent[] {
  const checked: RecordEvent[] = new Array(events.length);
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (plainEvent(event)) {
      checked[i] = event;
      continue;
    }
    schemaChecked.events++;
    const parsed = v.safeParse(EventSchema, event);
    if (!parsed.success) throw shapeError(parsed.issues, `events.${i}`);
    checked[i] = parsed.output as RecordEvent;
  }
  return checked;
}

/** Field names that hold a secret: a record carrying one is refused, not opened. */
const SECRET_KEY = /^(api[-_]?key|x-api-key|authorization|auth[-_]?token|access[-_]?token)$/i;

/**
 * The first field named like a secret, at any depth: searched with a list of what is left to look
 * at, not by recursion, so that no nesting is too deep to be searched (JSON.parse reads deeper
 * nesting than a recursive search could follow). A record repeats a few field names many times:
 * each name is tested once.
 */
function findSecretField(value: unknown): string | null {
  const named = new Map<string, boolean>();
  const pending: unknown[] = [value];
  while (pending.length) {
    const next = pending.pop();
    if (Array.isArray(next)) {
      for (const item of next) if (typeof item === 'object' && item !== null) pending.push(item);
      continue;
    }
    const object = next as Record<string, unknown>;
    for (const key in object) {
      let secret = named.get(key);
      if (secret === undefined) named.set(key, (secret = SECRET_KEY.test(key)));
      if (secret) return key;
      const item = object[key];
      if (typeof item === 'object' && item !== null) pending.push(item);
    }
  }
  return null;
}

/** Whether a status ends the run (what a late event may not change). */
function isOver(status: RunStatus): boolean {
  return status.kind === 'finished';
}

/** Checks that every event makes sense after the ones before it. */
function checkStory(events: readonly RecordEvent[]): void {
  const arrays = new Map<string, Message[]>([['parent', []]]);
  /** For each agent, the blocks of the response it is streaming (since its last model_start). */
  const blocks = new Map<string, Set<number>>();
  /** Tool calls started and not yet ended, as `agent id`. */
  const tools = new Set<string>();
  const tasks = new Set<string>();
  let finished = false;
  let last = 0;
  events.forEach((event, i) => {
    const at = { event: i + 1, type: event.type };
    if (event.t < last) throw new RecordError('timeBackwards', at);
    last = event.t;
    if (event.type === 'status') finished = isOver(event.status);
    if (event.type === 'spawn') {
      if (arrays.has(event.agent)) throw new RecordError('spawnedTwice', { ...at, agent: event.agent });
      if (!arrays.has(event.from)) throw new RecordError('neverExisted', { ...at, agent: event.from });
      arrays.set(event.agent, [...event.messages]);
      return;
    }
    if (!('agent' in event)) return;
    const messages = arrays.get(event.agent);
    if (!messages) throw new RecordError('neverSpawned', { ...at, agent: event.agent });
    switch (event.type) {
      case 'model_start':
        blocks.set(event.agent, new Set());
        return;
      case 'stream': {
        const streamed = event.event;
        if (streamed.type === 'block_start') {
          if (!blocks.has(event.agent)) blocks.set(event.agent, new Set());
          blocks.get(event.agent)!.add(streamed.index);
        } else if (
          (streamed.type === 'text_delta' ||
            streamed.type === 'thinking_delta' ||
            streamed.type === 'input_json_delta') &&
          !blocks.get(event.agent)?.has(streamed.index)
        ) {
          throw new RecordError('deltaWithoutBlock', { ...at, index: streamed.index, agent: event.agent });
        }
        return;
      }
      case 'tool_start':
        tools.add(`${event.agent} ${event.id}`);
        return;
      case 'tool_end':
        if (!tools.delete(`${event.agent} ${event.id}`)) {
          throw new RecordError('toolNotStarted', { ...at, id: event.id, agent: event.agent });
        }
        return;
      case 'task_start':
        tasks.add(event.id);
        return;
      case 'task_end':
        if (!tasks.delete(event.id)) throw new RecordError('unknownTask', { ...at, id: event.id });
        return;
      case 'message':
        break;
      default:
        return;
    }
    if (event.index > messages.length) {
      throw new RecordError('messageGap', {
        ...at,
        index: event.index,
        agent: event.agent,
        expected: messages.length,
      });
    }
    if (finished && event.index < messages.length) {
      throw new RecordError('rewrittenAfterFinish', { ...at, index: event.index, agent: event.agent });
    }
    messages.length = event.index;
    const { message } = event;
    if (message.role === 'user' && Array.isArray(message.content)) {
      const before = messages[event.index - 1];
      const uses = new Set(
        before?.role === 'assistant'
          ? before.content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id)
          : [],
      );
      for (const block of message.content) {
        if (block.type === 'tool_result' && !uses.has(block.tool_use_id)) {
          throw new RecordError('orphanResult', { ...at, id: block.tool_use_id });
        }
      }
    }
    messages.push(message);
  });
}

/** Checks a parsed record of the current version; returns it typed. */
export function checkRecord(value: unknown): RunRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RecordError('notObject');
  }
  const record = value as Record<string, unknown>;
  if (record.format !== RECORD_FORMAT) {
    throw new RecordError('wrongFormat', { format: literal(record.format) });
  }
  if (typeof record.version === 'number' && record.version > RECORD_VERSION) {
    throw new RecordError('newerVersion', { version: record.version, supported: RECORD_VERSION });
  }
  const secret = findSecretField(value);
  if (secret) throw new RecordError('secretField', { field: secret });
  let upgraded: unknown = value;
  if (record.version === 1) {
    const old = v.safeParse(V1Schema, record);
    if (!old.success) throw shapeError(old.issues);
    upgraded = upgradeV1(old.output);
  }
  const parsed = v.safeParse(RecordSchema, upgraded);
  if (!parsed.success) throw shapeError(parsed.issues);
  const checked = { ...parsed.output, events: checkEvents(parsed.output.events) } as RunRecord;
  checkStory(checked.events);
  return checked;
}

/** Reads a run file's text: size, JSON, shape and story. */
export function parseRecord(json: string, bytes = json.length): RunRecord {
  if (bytes > MAX_RECORD_BYTES) {
    throw new RecordError('tooBig', { size: megabytes(bytes), max: megabytes(MAX_RECORD_BYTES) });
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw notJson(error instanceof Error ? error.message : '');
  }
  return checkRecord(value);
}

/**
 * Why a text is not JSON, from the engine's message: that is English and quotes the file, so only
 * what it says of where it broke is kept (engines word it differently; each form is read here).
 */
function notJson(message: string): RecordError {
  if (/end of (JSON )?(input|data)|unterminated/i.test(message)) return new RecordError('notJsonEnd');
  const token = /^Unexpected token '(.{1,2})'/u.exec(message);
  if (token) return new RecordError('notJsonToken', { token: JSON.stringify(token[1]) });
  const at = /at position (\d+)|column (\d+) of the JSON/.exec(message);
  if (at) return new RecordError('notJson', { at: Number(at[1] ?? at[2]) + (at[1] ? 1 : 0) });
  return new RecordError('notJsonToken', { token: '?' });
}

/** A value of the file as a sentence may quote it: a string or number as written, an object as `{…}`. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return '[…]';
  if (typeof value === 'object' && value !== null) return '{…}';
  // A string is quoted as JSON writes it; its own length is cut by RecordError (QUOTED).
  return typeof value === 'string' ? JSON.stringify(value) : String(value ?? null);
}

/** The first problem the schemas found, as a sentence's parameters: where, what was expected, what was there. */
function shapeError(issues: readonly v.BaseIssue<unknown>[], within?: string): RecordError {
  const issue = issues[0];
  const path = v.getDotPath(issue);
  return new RecordError('shape', {
    at: within ? (path ? `${within}.${path}` : within) : (path ?? '$'),
    expected: issue.expected ?? '?',
    received: issue.received,
  });
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

/**
 * What the first export format must hold to be read: each part optional, but each part present of
 * its kind (an array of messages, not a string or null), so that reading it never stumbles.
 */
const V1Schema = v.looseObject({
  model: v.nullish(
    v.looseObject({ provider: v.nullish(text), model: v.nullish(text), baseURL: v.nullish(text) }),
  ),
  sandbox: v.nullish(v.looseObject({ label: v.nullish(text), sample: v.nullish(text) })),
  status: v.nullish(v.looseObject({ kind: v.nullish(text) })),
  parent: v.nullish(v.looseObject({ messages: v.nullish(v.array(MessageSchema)) })),
  subagents: v.nullish(
    v.array(
      v.looseObject({
        id: text,
        description: v.nullish(text),
        taskId: v.nullish(text),
        summary: v.nullish(text),
        messages: v.nullish(v.array(MessageSchema)),
      }),
    ),
  ),
});

/**
 * The first export format (version 1: the arrays on screen, no events) as a record: the parent's
 * messages in order, each subagent's right after the parent's `task` call that started it.
 */
function upgradeV1(old: v.InferOutput<typeof V1Schema>): unknown {
  const parent = old.parent ?? {};
  const subagents = old.subagents ?? [];
  const model = old.model ?? {};
  const sandbox = old.sandbox ?? {};
  const provider = model.provider === 'anthropic' ? 'anthropic' : 'demo';
  const settings = {
    provider,
    model: model.model ?? 'demo',
    ...(provider === 'anthropic' && model.baseURL ? { baseURL: model.baseURL } : {}),
    sample: sandbox.sample === 'typescript' ? 'typescript' : 'python',
    sandbox: sandbox.label ?? 'local',
    context: 'isolated',
    limits: { subagentMaxCalls: 30, outputChars: 50_000, maxTokens: 8000, delegationDepth: 0 },
  };
  const messages = Array.isArray(parent.messages) ? parent.messages : [];
  const first = messages[0];
  const title = typeof first?.content === 'string' ? first.content : '';
  const events: unknown[] = [
    { t: 0, type: 'run', prompt: title, settings },
    { t: 0, type: 'status', status: { kind: 'running' } },
  ];
  messages.forEach((message, index) => {
    events.push({ t: 0, type: 'message', agent: 'parent', index, message });
    if (message?.role !== 'assistant' || !Array.isArray(message.content)) return;
    for (const block of message.content) {
      const sub = block.type === 'tool_use' ? subagents.find((s) => s.taskId === block.id) : undefined;
      if (!sub) continue;
      const [start, ...rest] = Array.isArray(sub.messages) ? sub.messages : [];
      events.push({
        t: 0,
        type: 'spawn',
        agent: sub.id,
        from: 'parent',
        taskId: sub.taskId,
        description: sub.description ?? '',
        messages: start ? [start] : [],
      });
      rest.forEach((m, i) => events.push({ t: 0, type: 'message', agent: sub.id, index: i + 1, message: m }));
      events.push({
        t: 0,
        type: 'agent_state',
        agent: sub.id,
        state: 'discarded',
        ...(typeof sub.summary === 'string' ? { summary: sub.summary } : {}),
      });
    }
  });
  const status = old.status;
  events.push({
    t: 0,
    type: 'status',
    status: status?.kind === 'failed' || status?.kind === 'stopped' ? status : { kind: 'finished' },
  });
  const exportedAt = typeof old.exportedAt === 'string' ? Date.parse(old.exportedAt) : NaN;
  return {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    id: `v1-${Number.isFinite(exportedAt) ? exportedAt : 0}`,
    startedAt: Number.isFinite(exportedAt) ? exportedAt : 0,
    title,
    settings,
    events,
  };
}
