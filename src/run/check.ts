/**
 * Opening a record from outside (a file, IndexedDB): every problem becomes one sentence that
 * names it, and nothing is opened unless the whole record holds together. A record is checked in
 * three passes: its size and JSON, its shape (the schemas), then its story (each event must make
 * sense after the ones before it: no tool_result without its tool_use, no agent that was never
 * spawned, no tool or task ended that never started, no delta outside a block, no time running
 * backwards). A sentence quotes at most QUOTED characters of the file, whatever the file holds.
 */
import * as v from 'valibot';
import { AgentSchema, byType, LoopEventSchemas, MessageSchema } from '../core/schema';
import { CONTEXT_MODES, LIMIT_RANGES } from '../core/variants';
import { RECORD_FORMAT, RECORD_VERSION, type RecordEvent, type RunRecord } from './record';
import { RecordError } from './record-error';
import { upgradeV1, V1Schema } from './record-v1';
import { findSecretField, mayNameSecret } from './secrets';
import { messageChars } from './size';
import { checkStory } from './story';

export { quote, QUOTED, RecordError, type RecordProblem } from './record-error';

/** The largest run file that is opened (the bench opens its big shapes, up to this size). */
export const MAX_RECORD_BYTES = 25 * 1024 * 1024;

/**
 * The most events a run may have: 400,000. A record of the playground's 25 MB holds about 230,000
 * of its smallest events (streamed deltas); the screen reduces every event once as it opens.
 */
export const MAX_RECORD_EVENTS = 400_000;

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
  comparison: v.optional(text),
  speed: v.optional(v.picklist(['instant', 'normal', 'slow'])),
  cache: v.optional(v.boolean()),
});

const StatusSchema = v.variant('kind', [
  v.object({ kind: v.literal('booting') }),
  v.object({ kind: v.literal('idle') }),
  v.object({ kind: v.literal('running') }),
  v.object({ kind: v.literal('finished'), ending: v.optional(text), cutTool: v.optional(v.boolean()) }),
  v.object({ kind: v.literal('stopped'), reason: v.optional(text) }),
  v.object({
    kind: v.literal('failed'),
    reason: text,
    streamError: v.optional(text),
    kept: v.optional(v.boolean()),
  }),
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
    state: v.picklist(['discarded', 'stopped', 'failed', 'missing']),
    summary: v.optional(text),
  }),
  v.object({
    type: v.literal('worker'),
    worker: text,
    phase: v.picklist(['created', 'ready', 'terminated']),
  }),
  v.object({ type: v.literal('files'), changes: v.array(FileChangeSchema) }),
  v.object({ type: v.literal('sandbox'), label: text, workdir: text }),
  v.object({
    type: v.literal('context_reset'),
    agent: AgentSchema,
    reason: v.picklist(['compaction', 'model']),
    model: v.optional(text),
    trigger: v.optional(text),
    tokensBefore: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  }),
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

/** How many fields of its own an object has. */
function fields(object: object): number {
  // Object.keys of a small object parsed from JSON is read from the engine's cache of its shape:
  // several times faster than counting its keys with for-in.
  return Object.keys(object).length;
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
 * (and copying it) would be most of the time a big record takes to open. Any other event, or one
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

/**
 * Checks a parsed record of the current version; returns it typed. `json`, the text it was parsed
 * from, lets the search for a secret field skip a text that names none (see `mayNameSecret`).
 */
export function checkRecord(value: unknown, json?: string): RunRecord {
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
  const secret = json !== undefined && !mayNameSecret(json) ? null : findSecretField(value);
  if (secret) throw new RecordError('secretField', { field: secret });
  let upgraded: unknown = value;
  if (record.version === 1) {
    const old = v.safeParse(V1Schema, record);
    if (!old.success) throw shapeError(old.issues);
    upgraded = upgradeV1(old.output);
  }
  // The events are checked one by one below: the schema only needs to see that they are an array
  // (it would otherwise go through, and copy, every one of them).
  const events = (upgraded as Record<string, unknown>).events;
  if (Array.isArray(events) && events.length > MAX_RECORD_EVENTS) {
    throw new RecordError('tooManyEvents', { events: events.length, max: MAX_RECORD_EVENTS });
  }
  const head = Array.isArray(events) ? { ...(upgraded as object), events: [] } : upgraded;
  const parsed = v.safeParse(RecordSchema, head);
  if (!parsed.success) throw shapeError(parsed.issues);
  const checked = { ...parsed.output, events: checkEvents(events as unknown[]) } as RunRecord;
  checkMessageSizes(checked.events);
  checkStory(checked.events);
  return checked;
}

/**
 * The most one message may hold, in characters of its JSON text: 8 MB, as one line of a session
 * (src/run/claude-code/lines.ts). No run of the playground comes near it (a tool's result is cut
 * at 200,000 characters at most); a message of 20 MB would hold the page for a minute.
 */
export const MAX_MESSAGE_CHARS = 8 * 1024 * 1024;

/** Refuses a record with a message over MAX_MESSAGE_CHARS (its size is kept for the screen). */
function checkMessageSizes(events: readonly RecordEvent[]): void {
  events.forEach((event, i) => {
    const messages =
      event.type === 'message' ? [event.message] : event.type === 'spawn' ? event.messages : [];
    for (const message of messages) {
      const size = messageChars(message);
      if (size > MAX_MESSAGE_CHARS) {
        throw new RecordError('messageTooBig', {
          event: i,
          type: event.type,
          size: megabytes(size),
          max: megabytes(MAX_MESSAGE_CHARS),
        });
      }
    }
  });
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
  return checkRecord(value, json);
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

/** A size as a sentence says it: `1.5 MB`, `25 MB`. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}
