/**
 * Opening a record from outside (a file, IndexedDB): every problem becomes one sentence that
 * names it, and nothing is opened unless the whole record holds together. A record is checked in
 * three passes: its size and JSON, its shape (the schemas), then its story (each event must make
 * sense after the ones before it: no tool_result without its tool_use, no agent that was never
 * spawned, no time running backwards).
 */
import * as v from 'valibot';
import type { Message } from '../core/messages';
import { AgentSchema, byType, firstIssue, LoopEventSchemas, MessageSchema } from '../core/schema';
import { CONTEXT_MODES, LIMIT_RANGES } from '../core/variants';
import { RECORD_FORMAT, RECORD_VERSION, type RecordEvent, type RunRecord } from './record';

/** The largest run file that is opened (a 5 MB run opens in well under a second). */
export const MAX_RECORD_BYTES = 25 * 1024 * 1024;

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
  shape: (p: { at: string }) => `its shape is wrong at ${p.at}`,
  tooBig: (p: { size: string; max: string }) => `it is ${p.size}; a run file may be at most ${p.max}`,
  notJson: (p: { detail: string }) => `it is not JSON (${p.detail})`,
  timeBackwards: (p: Where) => `${where(p)} happens before the event ahead of it`,
  spawnedTwice: (p: Where & { agent: string }) => `${where(p)}: ${p.agent} is spawned twice`,
  neverExisted: (p: Where & { agent: string }) => `${where(p)}: ${p.agent} never existed`,
  neverSpawned: (p: Where & { agent: string }) => `${where(p)}: ${p.agent} was never spawned`,
  messageGap: (p: Where & { index: number; agent: string; expected: number }) =>
    `${where(p)}: message ${p.index} of ${p.agent} comes before message ${p.expected}`,
  orphanResult: (p: Where & { id: string }) =>
    `${where(p)}: a tool_result for ${p.id} has no tool_use before it`,
};

/** The event a story problem is about: its number (from 1) and type. */
interface Where {
  event: number;
  type: string;
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
    const given = (params[0] ?? {}) as Record<string, string | number>;
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
  events: v.array(EventSchema),
});

/** Field names that hold a secret: a record carrying one is refused, not opened. */
const SECRET_KEY = /^(api[-_]?key|x-api-key|authorization|auth[-_]?token|access[-_]?token)$/i;

function findSecretField(value: unknown, depth = 0): string | null {
  if (depth > 64 || typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'object' || item === null) continue;
      const found = findSecretField(item, depth + 1);
      if (found) return found;
    }
    return null;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) {
    if (SECRET_KEY.test(key)) return key;
    const inner = object[key];
    if (typeof inner !== 'object' || inner === null) continue;
    const found = findSecretField(inner, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Checks that every event makes sense after the ones before it. */
function checkStory(events: readonly RecordEvent[]): void {
  const arrays = new Map<string, Message[]>([['parent', []]]);
  let last = 0;
  events.forEach((event, i) => {
    const at = { event: i + 1, type: event.type };
    if (event.t < last) throw new RecordError('timeBackwards', at);
    last = event.t;
    if (event.type === 'spawn') {
      if (arrays.has(event.agent)) throw new RecordError('spawnedTwice', { ...at, agent: event.agent });
      if (!arrays.has(event.from)) throw new RecordError('neverExisted', { ...at, agent: event.from });
      arrays.set(event.agent, [...event.messages]);
      return;
    }
    if (event.type !== 'message') return;
    const messages = arrays.get(event.agent);
    if (!messages) throw new RecordError('neverSpawned', { ...at, agent: event.agent });
    if (event.index > messages.length) {
      throw new RecordError('messageGap', {
        ...at,
        index: event.index,
        agent: event.agent,
        expected: messages.length,
      });
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
    throw new RecordError('wrongFormat', { format: JSON.stringify(record.format ?? null) });
  }
  if (typeof record.version === 'number' && record.version > RECORD_VERSION) {
    throw new RecordError('newerVersion', { version: record.version, supported: RECORD_VERSION });
  }
  const secret = findSecretField(value);
  if (secret) throw new RecordError('secretField', { field: secret });
  const upgraded = record.version === 1 ? upgradeV1(record) : value;
  const parsed = v.safeParse(RecordSchema, upgraded);
  if (!parsed.success) throw new RecordError('shape', { at: firstIssue(parsed.issues) });
  const checked = parsed.output as unknown as RunRecord;
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
    throw new RecordError('notJson', { detail: error instanceof Error ? error.message : String(error) });
  }
  return checkRecord(value);
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

/**
 * The first export format (version 1: the arrays on screen, no events) as a record: the parent's
 * messages in order, each subagent's right after the parent's `task` call that started it.
 */
function upgradeV1(old: Record<string, unknown>): unknown {
  const parent = (old.parent ?? {}) as { messages?: Message[] };
  const subagents = (old.subagents ?? []) as Array<{
    id: string;
    description?: string;
    taskId?: string;
    summary?: string | null;
    messages?: Message[];
  }>;
  const model = (old.model ?? {}) as { provider?: string; model?: string; baseURL?: string };
  const sandbox = (old.sandbox ?? {}) as { label?: string; sample?: string };
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
  const status = old.status as { kind?: string } | undefined;
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
