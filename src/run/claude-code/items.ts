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

/** What a transcript turns into before it becomes events: its messages and calls, in order. */
export type Item =
  | { kind: 'user'; t: number; blocks: unknown[]; results: { id: string; t: number; text: string }[] }
  | {
      kind: 'call';
      start: number;
      t: number;
      id: string;
      model: string;
      blocks: AssistantBlock[];
      usage?: Usage;
      stop: string | null;
    }
  | { kind: 'note'; t: number; text: string }
  | { kind: 'compact'; t: number };

/** A note for the log about a record that is not part of the array. */
export function noteOf(rec: Json): string {
  const type = str(rec.type) || '?';
  const sub = str(rec.subtype);
  const content = typeof rec.content === 'string' ? rec.content : str(rec.summary);
  const said = content ? `: ${content.replace(/\s+/g, ' ').slice(0, 120)}` : '';
  return `[${type}${sub ? ` ${sub}` : ''}]${said}`;
}

/** A transcript's records as messages and calls. */
export function itemsOf(lines: readonly Line[]): Item[] {
  const items: Item[] = [];
  let lastT = lines[0]?.t ?? 0;
  for (const { rec, t } of lines) {
    const before = lastT;
    lastT = t;
    const last = items.at(-1);
    if (rec.type === 'assistant' && isObject(rec.message)) {
      const message = rec.message;
      const blocks = (Array.isArray(message.content) ? message.content : []).map(
        lightBlock,
      ) as AssistantBlock[];
      if (rec.isApiErrorMessage === true || message.model === '<synthetic>') {
        items.push({ kind: 'note', t, text: `[api error] ${resultText(message.content).slice(0, 200)}` });
        continue;
      }
      const id = str(message.id);
      if (last?.kind === 'call' && id && last.id === id) {
        // The same reply, written a block a line: its usage is the last line's.
        last.blocks = [...last.blocks, ...blocks];
        last.t = t;
        last.usage = usageOf(message.usage) ?? last.usage;
        last.stop = str(message.stop_reason) || last.stop;
        continue;
      }
      items.push({
        kind: 'call',
        start: before,
        t,
        id,
        model: str(message.model),
        blocks,
        usage: usageOf(message.usage),
        stop: str(message.stop_reason) || null,
      });
    } else if (rec.type === 'user' && isObject(rec.message)) {
      const blocks = userBlocks(rec);
      const results = blocks
        .filter((b): b is Json => isObject(b) && b.type === 'tool_result')
        .map((b) => ({ id: str(b.tool_use_id), t, text: resultText(b.content) }));
      if (last?.kind === 'user') {
        last.blocks = [...last.blocks, ...blocks];
        last.results.push(...results);
        last.t = t;
      } else items.push({ kind: 'user', t, blocks, results });
    } else if (rec.type === 'system' && rec.subtype === 'compact_boundary') {
      items.push({ kind: 'compact', t });
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
