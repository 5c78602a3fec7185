/**
 * What a run touched, derived from its tool calls alone: the files it read, wrote or edited, and
 * the paths its shell commands named. For a record whose files are not the sandbox's (the recorded
 * example ran on the learn-claude-code repository; an opened Claude Code session on its own
 * project), this is what its Files panel can honestly show: with `content`, also what the
 * transcript holds of each file (what was written, what a read returned, what an edit replaced).
 */
import type { AgentId } from '../core/messages';
import type { RunRecord } from './record';

export interface Touch {
  path: string;
  /** `read`, `write`, `edit`, or the command that named the path (`ls`, `find`, `Grep`, ...). */
  how: string;
  agent: AgentId;
  /** What the transcript holds of the file at this touch (the latest), when asked for. */
  content?: string;
}

/** The playground's file tools and Claude Code's, by what they do to a file. */
const FILE_TOOLS: Record<string, string> = {
  read_file: 'read',
  write_file: 'write',
  edit_file: 'edit',
  Read: 'read',
  Write: 'write',
  Edit: 'edit',
  MultiEdit: 'edit',
  NotebookEdit: 'edit',
};

/** Claude Code's tools that search under a path (their pattern is not a path). */
const SEARCH_TOOLS = new Set(['Glob', 'Grep', 'LS']);

type Input = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The path a file tool names: `path` (the playground's), `file_path` or `notebook_path` (Claude Code's). */
function pathOf(input: Input): string | undefined {
  return str(input.path) ?? str(input.file_path) ?? str(input.notebook_path);
}

/** An edit's replacement as lines taken out (`- `) and put in (`+ `). */
function editText(oldText: string, newText: string): string {
  const mark = (prefix: string, text: string) =>
    text
      .split('\n')
      .map((line) => `${prefix}${line}`)
      .join('\n');
  return `${mark('- ', oldText)}\n${mark('+ ', newText)}`;
}

/** What a file tool's input holds of the file: what it wrote, or what it replaced. */
function inputContent(input: Input): string | undefined {
  const written = str(input.content) ?? str(input.new_source);
  if (written !== undefined) return written;
  const oldText = str(input.old_text) ?? str(input.old_string);
  const newText = str(input.new_text) ?? str(input.new_string);
  if (oldText !== undefined && newText !== undefined) return editText(oldText, newText);
  if (Array.isArray(input.edits)) {
    return input.edits
      .map((edit) => {
        const e = (edit ?? {}) as Input;
        return editText(str(e.old_string) ?? '', str(e.new_string) ?? '');
      })
      .join('\n…\n');
  }
  return undefined;
}

/** The text of the tool results of a record whose tool_use ids are `ids` (what those reads returned). */
function resultsById(record: RunRecord, ids: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const event of record.events) {
    if (event.type !== 'message' || event.message.role !== 'user' || !Array.isArray(event.message.content))
      continue;
    for (const block of event.message.content) {
      if (block.type !== 'tool_result' || !ids.has(block.tool_use_id)) continue;
      const content = block.content as unknown;
      out.set(
        block.tool_use_id,
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? content
                .map((b: { type?: unknown; text?: unknown }) => (b?.type === 'text' ? str(b.text) : ''))
                .join('\n')
            : '',
      );
    }
  }
  return out;
}

/**
 * Every path a record's tool calls touched, once per path, how and agent, in the order of the
 * calls; with `content`, each with what the transcript holds of the file there (the latest).
 */
export function touchedFiles(record: RunRecord, { content = false } = {}): Touch[] {
  const seen = new Map<string, Touch>();
  const out: Touch[] = [];
  // Each file tool's touch and the call that last touched it so: its content is read after, once.
  const latest = new Map<Touch, { id: string; how: string; input: Input }>();
  const add = (touch: Touch, call?: { id: string; how: string; input: Input }) => {
    const key = `${touch.path}\n${touch.how}\n${touch.agent}`;
    const known = seen.get(key) ?? touch;
    if (known === touch) {
      seen.set(key, touch);
      out.push(touch);
    }
    if (call) latest.set(known, call);
  };
  for (const event of record.events) {
    if (event.type !== 'tool_start') continue;
    const how = FILE_TOOLS[event.name];
    const input = (event.input ?? {}) as Input;
    const path = pathOf(input);
    const command = str(input.command);
    if (how && path !== undefined) {
      add({ path, how, agent: event.agent }, { id: event.id, how, input });
    } else if (SEARCH_TOOLS.has(event.name) && path !== undefined) {
      add({ path, how: event.name, agent: event.agent });
    } else if ((event.name === 'bash' || event.name === 'Bash') && command !== undefined) {
      for (const part of command.split(/\s*(?:&&|\|\||;|\|)\s*/)) {
        const [name, ...args] = part.trim().split(/\s+/);
        // The paths a command names: absolute or relative, never an option, a glob or a redirect.
        for (const arg of args) {
          const named = arg.replace(/^["']|["']$/g, '');
          if (/^(\/|\.\.?\/|\w[\w.-]*\/)[^*?<>|&;$`"']*$/.test(named) && !/^\/dev\//.test(named)) {
            add({ path: named, how: name, agent: event.agent });
          }
        }
      }
    }
  }
  if (content) {
    const reads = new Set([...latest.values()].filter((call) => call.how === 'read').map((call) => call.id));
    const results = resultsById(record, reads);
    for (const [touch, call] of latest) {
      const held = call.how === 'read' ? results.get(call.id) : inputContent(call.input);
      if (held !== undefined) touch.content = held;
    }
  }
  return out;
}
