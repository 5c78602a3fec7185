/**
 * A transcript's records as what becomes a run's events: messages and model calls in order, notes
 * for the log; images' and documents' data not kept (shown folded, never decoded or fetched).
 */
import type { AssistantBlock, Message, Usage } from '../../core/messages';
import { isObject, str, type Json, type Line } from './transcript';

/** Base64 data of an image or a document is not kept: only its size (it is never shown anyway). */
const KEPT_DATA = 64;

/** A block's base64 payload replaced by its size: it is shown folded, never decoded or fetched. */
export function lightBlock(block: unknown): unknown {
  if (!isObject(block)) return block;
  const source = block.source;
  if ((block.type === 'image' || block.type === 'document') && isObject(source)) {
    const data = source.data;
    if (typeof data === 'string' && data.length > KEPT_DATA) {
      return {
        ...block,
        source: { ...source, data: `[${Math.round((data.length * 3) / 4 / 1024)} KB not kept]` },
      };
    }
    return block;
  }
  if (block.type === 'tool_result' && Array.isArray(block.content)) {
    return { ...block, content: block.content.map(lightBlock) };
  }
  return block;
}

/** The text of a tool result's content (its text blocks; other blocks by their type). */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => (isObject(b) ? (b.type === 'text' ? str(b.text) : `[${str(b.type)}]`) : ''))
    .join('\n');
}

/** A user record's content as blocks. */
export function userBlocks(rec: Json): unknown[] {
  const message = isObject(rec.message) ? rec.message : {};
  const content = message.content;
  if (rec.isCompactSummary === true) {
    // The summary a compaction left: it starts the array again, shown folded.
    return [
      { type: 'compaction_summary', text: typeof content === 'string' ? content : resultText(content) },
    ];
  }
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.map(lightBlock) : [];
}

export function usageOf(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0);
  return {
    input_tokens: n(value.input_tokens),
    output_tokens: n(value.output_tokens),
    cache_creation_input_tokens: n(value.cache_creation_input_tokens),
    cache_read_input_tokens: n(value.cache_read_input_tokens),
  };
}

/** A tool's answer, as the user record that brought it holds it. */
export interface Result {
  id: string;
  t: number;
  text: string;
  /** The tool refused or failed (`is_error`), e.g. a call whose input did not validate. */
  error: boolean;
  /** It only launched a subagent in the background (`toolUseResult.status: async_launched`). */
  launched: boolean;
}

/** A user message of the array: a prompt, or the results of the call before it. */
export interface UserItem {
  kind: 'user';
  t: number;
  blocks: unknown[];
  results: Result[];
}

/** One model call: every line of one `message.id`, wherever they are in the file. */
export interface CallItem {
  kind: 'call';
  /** When the request went out: the record before its first line. */
  start: number;
  /** When its reply was complete: its last line. */
  t: number;
  id: string;
  model: string;
  blocks: AssistantBlock[];
  /** The last line's usage: Claude Code writes the reply's usage again on every line of it. */
  usage?: Usage;
  stop: string | null;
}

/** What a transcript turns into before it becomes events: its messages and calls, in order. */
export type Item =
  | UserItem
  | CallItem
  | { kind: 'note'; t: number; text: string }
  /** Claude Code compacted the array: it starts again from the summary that follows. */
  | { kind: 'compact'; t: number; trigger: string; tokensBefore: number | null };

/** A note for the log about a record that is not part of the array. */
export function noteOf(rec: Json): string {
  const type = str(rec.type) || '?';
  const sub = str(rec.subtype);
  const content = typeof rec.content === 'string' ? rec.content : str(rec.summary);
  const said = content ? `: ${content.replace(/\s+/g, ' ').slice(0, 120)}` : '';
  return `[${type}${sub ? ` ${sub}` : ''}]${said}`;
}

/**
 * Records that are neither the array nor worth a log line: Claude Code writes a `progress` record
 * for every hook, every line a command prints and every step of a subagent (hundreds in a session),
 * and keeps its queue and snapshots of its file history beside them.
 */
const QUIET = new Set(['progress', 'queue-operation', 'last-prompt']);

/** Whether a system record marks a compaction (`compact_boundary`, and `microcompact_boundary`). */
export function isCompaction(rec: Json): boolean {
  return rec.type === 'system' && /compact_boundary$/.test(str(rec.subtype));
}

/**
 * A record's kind: its `type`, else its message's role (a record written without `type`), else ''
 * (a record that says nothing of what it is: left out, and counted by `untypedRecords`).
 */
export function typeOf(rec: Json): string {
  if (typeof rec.type === 'string') return rec.type;
  const role = isObject(rec.message) ? rec.message.role : undefined;
  return role === 'user' || role === 'assistant' ? role : '';
}

/** How many of a transcript's records say nothing of their kind. */
export function untypedRecords(lines: readonly Line[]): number {
  let count = 0;
  for (const { rec } of lines) if (typeOf(rec) === '') count++;
  return count;
}

/** A block already in a reply (Claude Code has written some blocks twice: the same id or text). */
function holds(blocks: readonly AssistantBlock[], block: AssistantBlock): boolean {
  if (!isObject(block)) return false;
  if (block.type === 'tool_use') return blocks.some((b) => b.type === 'tool_use' && b.id === block.id);
  if (block.type === 'text') return blocks.some((b) => b.type === 'text' && b.text === block.text);
  if (block.type === 'thinking')
    return blocks.some(
      (b) => b.type === 'thinking' && b.signature === block.signature && b.thinking === block.thinking,
    );
  return false;
}

/**
 * A transcript's records as messages and calls, counted as the API saw them: the lines of one
 * `message.id` are one call wherever they are (Claude Code writes a reply a block a line, with
 * tool results and progress records between them), and each tool result joins the one user
 * message that answers its call, matched by `tool_use_id`, however many records brought them.
 */
export function itemsOf(lines: readonly Line[]): Item[] {
  const items: Item[] = [];
  const callOf = new Map<string, CallItem>();
  /** The call that asked for each tool, by its tool_use id. */
  const askedBy = new Map<string, CallItem>();
  /** The user message that answers each call. */
  const answerOf = new Map<CallItem, UserItem>();
  /** The latest message of the array (notes aside). */
  let lastMessage: UserItem | CallItem | null = null;
  let lastT = lines[0]?.t ?? 0;
  const ask = (call: CallItem, blocks: readonly AssistantBlock[]) => {
    for (const block of blocks)
      if (isObject(block) && block.type === 'tool_use') askedBy.set(str(block.id), call);
  };
  for (const { rec, t } of lines) {
    const before = lastT;
    lastT = t;
    const type = typeOf(rec);
    if (type === 'assistant' && isObject(rec.message)) {
      const message = rec.message;
      const blocks = (Array.isArray(message.content) ? message.content : []).map(
        lightBlock,
      ) as AssistantBlock[];
      if (rec.isApiErrorMessage === true || message.model === '<synthetic>') {
        items.push({ kind: 'note', t, text: `[api error] ${resultText(message.content).slice(0, 200)}` });
        continue;
      }
      const id = str(message.id);
      const known = id ? callOf.get(id) : undefined;
      if (known) {
        // Another line of a reply already begun: its blocks join it, its usage is the latest.
        const added = blocks.filter((b) => !holds(known.blocks, b));
        if (added.length) known.blocks = [...known.blocks, ...added];
        ask(known, added);
        known.t = Math.max(known.t, t);
        known.usage = usageOf(message.usage) ?? known.usage;
        known.stop = str(message.stop_reason) || known.stop;
        continue;
      }
      const call: CallItem = {
        kind: 'call',
        start: before,
        t,
        id,
        model: str(message.model),
        blocks,
        usage: usageOf(message.usage),
        stop: str(message.stop_reason) || null,
      };
      if (id) callOf.set(id, call);
      ask(call, blocks);
      items.push(call);
      lastMessage = call;
    } else if (type === 'user' && isObject(rec.message)) {
      const blocks = userBlocks(rec);
      const results: Result[] = [];
      let answers: CallItem | undefined;
      const outcome = isObject(rec.toolUseResult) ? rec.toolUseResult : {};
      const launched = outcome.status === 'async_launched' || outcome.isAsync === true;
      for (const b of blocks) {
        if (!isObject(b) || b.type !== 'tool_result') continue;
        const id = str(b.tool_use_id);
        results.push({ id, t, text: resultText(b.content), error: b.is_error === true, launched });
        answers ??= askedBy.get(id);
      }
      // The results of a call join the one message that answers it, wherever they come.
      let into = answers ? answerOf.get(answers) : undefined;
      if (!into && lastMessage?.kind === 'user') into = lastMessage;
      if (into) {
        into.blocks = [...into.blocks, ...blocks];
        into.results.push(...results);
        into.t = Math.max(into.t, t);
      } else {
        into = { kind: 'user', t, blocks, results };
        items.push(into);
        lastMessage = into;
      }
      if (answers) answerOf.set(answers, into);
    } else if (isCompaction(rec)) {
      const meta = isObject(rec.compactMetadata) ? rec.compactMetadata : {};
      const tokens = meta.preTokens ?? rec.preTokens;
      items.push({
        kind: 'compact',
        t,
        trigger: str(meta.trigger) || (str(rec.subtype).startsWith('micro') ? 'micro' : ''),
        tokensBefore: typeof tokens === 'number' && Number.isFinite(tokens) ? tokens : null,
      });
      lastMessage = null;
    } else if (type === '' || QUIET.has(type)) {
      // Progress and queue records are not the array; a record of no kind is counted apart.
      continue;
    } else {
      items.push({ kind: 'note', t, text: noteOf(rec) });
    }
  }
  return items;
}

/** A user message as the record keeps it: tool results only where the reply before asked for them. */
export function userMessage(blocks: unknown[], asked: ReadonlySet<string>): Message {
  const content = blocks.map((b) =>
    isObject(b) && b.type === 'tool_result' && !asked.has(str(b.tool_use_id))
      ? // An answer to a call this array does not hold (cut by a compaction): shown folded.
        { ...b, type: 'unmatched_tool_result' }
      : b,
  );
  if (content.length === 1 && isObject(content[0]) && content[0].type === 'text') {
    return { role: 'user', content: str(content[0].text) };
  }
  return { role: 'user', content: content as Extract<Message, { role: 'user' }>['content'] };
}

/** The first prompt of a transcript that a person typed (not a command's output or a note). */
export function firstPrompt(items: readonly Item[]): string {
  for (const item of items) {
    if (item.kind !== 'user') continue;
    const text = item.blocks
      .filter((b): b is Json => isObject(b) && b.type === 'text')
      .map((b) => str(b.text))
      .join('\n')
      .trim();
    if (text && !text.startsWith('<')) return text;
  }
  return '';
}
