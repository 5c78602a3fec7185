/**
 * Schemas of the loop's data (messages and loop events), for checking what arrives from another
 * thread or from a file before anything acts on it. Content blocks are checked for the fields the
 * playground reads; unknown block types pass (they are shown, folded, as "unknown block").
 */
import * as v from 'valibot';

const text = v.string();
const finite = v.pipe(v.number(), v.finite());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

type Tagged = v.ObjectSchema<{ type: v.LiteralSchema<string, undefined> } & v.ObjectEntries, undefined>;
type LooseTagged = v.LooseObjectSchema<
  { type: v.LiteralSchema<string, undefined> } & v.ObjectEntries,
  undefined
>;

/**
 * One of `options`, picked by the value's `type` (else `otherwise`, or a type error naming the
 * known types). valibot's `variant` tries the options in turn and builds an issue for each type
 * that does not match: a 10,000-event record spent most of its check there.
 */
export function byType<const O extends readonly (Tagged | LooseTagged)[], F extends v.GenericSchema = never>(
  options: O,
  otherwise?: F,
): v.LazySchema<O[number] | F> {
  const table = new Map<unknown, O[number]>(options.map((option) => [option.entries.type.literal, option]));
  const unknown = v.object({ type: v.picklist([...table.keys()] as string[]) });
  return v.lazy((input) => {
    const type = typeof input === 'object' && input !== null ? (input as { type?: unknown }).type : undefined;
    return table.get(type) ?? otherwise ?? (unknown as unknown as O[number]);
  });
}

export const ContentBlockSchema = byType(
  [
    v.looseObject({ type: v.literal('text'), text }),
    v.looseObject({ type: v.literal('tool_use'), id: text, name: text, input: v.unknown() }),
    v.looseObject({ type: v.literal('tool_result'), tool_use_id: text, content: v.unknown() }),
    v.looseObject({ type: v.literal('thinking'), thinking: text, signature: v.optional(text) }),
    v.looseObject({ type: v.literal('redacted_thinking'), data: text }),
  ],
  // Unknown block types pass: they are shown, folded.
  v.looseObject({ type: text }),
);

export const MessageSchema = v.variant('role', [
  v.object({ role: v.literal('user'), content: v.union([text, v.array(ContentBlockSchema)]) }),
  v.object({ role: v.literal('assistant'), content: v.array(ContentBlockSchema) }),
]);

export const UsageSchema = v.looseObject({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: v.nullish(count),
  cache_read_input_tokens: v.nullish(count),
});

const StreamEventSchema = byType([
  v.object({ type: v.literal('block_start'), index: count, block: ContentBlockSchema }),
  v.object({ type: v.literal('text_delta'), index: count, text }),
  v.object({ type: v.literal('input_json_delta'), index: count, partial_json: text }),
  v.object({ type: v.literal('thinking_delta'), index: count, thinking: text }),
  v.object({ type: v.literal('block_stop'), index: count }),
  v.object({ type: v.literal('retrying'), attempt: count, reason: text }),
]);

const agent = v.pipe(text, v.regex(/^(parent|subagent-\d+)$/, 'an agent name (parent or subagent-N)'));

/** Every LoopEvent (src/core/loop.ts). */
export const LoopEventSchemas = [
  v.object({ type: v.literal('message'), agent, index: count, message: MessageSchema }),
  v.object({
    type: v.literal('model_start'),
    agent,
    call: count,
    // The body as sent, its messages as their count (SentBody): the rest is shown as it is.
    request: v.optional(v.looseObject({ messages: count })),
  }),
  v.object({ type: v.literal('stream'), agent, call: count, event: StreamEventSchema }),
  v.object({
    type: v.literal('model_end'),
    agent,
    call: count,
    durationMs: finite,
    usage: v.optional(UsageSchema),
    stopReason: v.nullable(text),
    model: v.optional(text),
  }),
  v.object({ type: v.literal('tool_start'), agent, id: text, name: text, input: v.unknown() }),
  v.object({ type: v.literal('tool_end'), agent, id: text, name: text, output: text, durationMs: finite }),
  v.object({ type: v.literal('task_start'), agent, id: text, description: text, prompt: text }),
  v.object({ type: v.literal('task_end'), agent, id: text, summary: text }),
  v.object({ type: v.literal('limit_reached'), agent, calls: count }),
  v.object({ type: v.literal('log'), agent, line: text }),
  v.object({ type: v.literal('error'), agent, error: text, streamError: v.optional(text) }),
] as const;

export const AgentSchema = agent;

/** The first problem valibot found, as one line: `where: what`. */
export function firstIssue(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  const path = v.getDotPath(issue);
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** A message from another thread did not have the expected shape. */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

/**
 * `value` as `schema` declares it, or a ProtocolError naming `where` and the first bad field:
 * what arrives from another thread is checked before anything acts on it.
 */
export function checked<const S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  where: string,
): v.InferOutput<S> {
  const result = v.safeParse(schema, value, { abortEarly: true });
  if (!result.success) throw new ProtocolError(`${where}: ${firstIssue(result.issues)}`);
  return result.output;
}

/**
 * For messages nobody answers (a listener's batch): the reason is logged and the message
 * dropped, so a malformed one is never acted on and never breaks the sender.
 */
export function acceptOrWarn<const S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  where: string,
): v.InferOutput<S> | undefined {
  try {
    return checked(schema, value, where);
  } catch (error) {
    console.warn(`Ignored a malformed message: ${(error as Error).message}`);
    return undefined;
  }
}

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A record's string field, or a ProtocolError naming it. */
export function expectString(record: Record<string, unknown>, field: string, where: string): string {
  const value = record[field];
  if (typeof value !== 'string') throw new ProtocolError(`${where}: '${field}' must be a string`);
  return value;
}
