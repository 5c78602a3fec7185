/**
 * The tools of s04 as data: schemas the model sees (exactly the reference's) and handlers that
 * run them on a Sandbox with the reference's semantics.
 *
 *   CHILD_TOOLS  = bash, read_file, write_file, edit_file      (the subagent's)
 *   PARENT_TOOLS = CHILD_TOOLS + task                          (the parent's)
 *
 * The subagent has no `task` tool, so it cannot spawn subagents of its own: recursion is
 * impossible at the tool layer. `task` itself is handled by the loop (src/core/loop.ts), which
 * hands it to an injected subagent runner.
 */
import type { AgentId } from './messages';
import { REFERENCE_LIMITS } from './variants';

export interface ExecOptions {
  /** The command is stopped after this long and reported as timed out. */
  timeoutMs: number;
  /** Stops the command early (the user pressed Stop). */
  signal?: AbortSignal;
  /** Which agent runs it: files it changes are attributed to that agent. */
  agent?: AgentId;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  timedOut: boolean;
}

/**
 * What the tools need of a sandbox (src/sandbox/ implements it). Paths given to it are absolute:
 * the tools resolve the model's relative paths against `workdir` and refuse the ones that escape.
 */
export interface ToolSandbox {
  /** The project directory: WORKDIR in the system prompts. */
  readonly workdir: string;
  exec(command: string, options: ExecOptions): Promise<ExecResult>;
  /** Reads a text file; rejects with a message naming the path when it is missing. */
  readFile(path: string): Promise<string>;
  /** Writes a text file, creating parent directories. */
  writeFile(path: string, content: string, agent?: AgentId): Promise<void>;
}

export interface ToolSchema {
  name: string;
  description: string;
  input_schema: {
    type: 'object';
    properties: Record<string, { type: string; description?: string }>;
    required: string[];
  };
}

export const CHILD_TOOLS: ToolSchema[] = [
  {
    name: 'bash',
    description: 'Run a shell command.',
    input_schema: {
      type: 'object',
      properties: { command: { type: 'string' } },
      required: ['command'],
    },
  },
  {
    name: 'read_file',
    description: 'Read file contents.',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string' }, limit: { type: 'integer' } },
      required: ['path'],
    },
  },
  {
    name: 'write_file',
    description: 'Write content to file.',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
  },
  {
    name: 'edit_file',
    description: 'Replace exact text in file.',
    input_schema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        old_text: { type: 'string' },
        new_text: { type: 'string' },
      },
      required: ['path', 'old_text', 'new_text'],
    },
  },
];

export const TASK_TOOL: ToolSchema = {
  name: 'task',
  description: 'Spawn a subagent with fresh context. It shares the filesystem but not conversation history.',
  input_schema: {
    type: 'object',
    properties: {
      prompt: { type: 'string' },
      description: { type: 'string', description: 'Short description of the task' },
    },
    required: ['prompt'],
  },
};

export const PARENT_TOOLS: ToolSchema[] = [...CHILD_TOOLS, TASK_TOOL];

export function parentSystem(workdir: string): string {
  return `You are a coding agent at ${workdir}. Use the task tool to delegate exploration or subtasks.`;
}

export function subagentSystem(workdir: string): string {
  return `You are a coding subagent at ${workdir}. Complete the given task, then summarize your findings.`;
}

/** Reference limits (docs/protocol.md); every one is a parameter of the loop or the tools. */
export const LIMITS = {
  maxTokens: REFERENCE_LIMITS.maxTokens,
  subagentMaxCalls: REFERENCE_LIMITS.subagentMaxCalls,
  outputChars: REFERENCE_LIMITS.outputChars,
  bashTimeoutMs: 120_000,
} as const;

export const DANGEROUS_COMMANDS = ['rm -rf /', 'sudo', 'shutdown', 'reboot', '> /dev/'];

/** A tool input the model got wrong; becomes an `Error: ...` result naming the field. */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
}

type FieldType = 'string' | 'integer';

/** Checks an input against a schema's fields the way the model was told to fill them. */
export function checkInput(schema: ToolSchema, input: unknown): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ToolInputError(`${schema.name} expects an object input, got ${describe(input)}`);
  }
  const record = input as Record<string, unknown>;
  for (const field of schema.input_schema.required) {
    if (!(field in record) || record[field] === undefined) {
      throw new ToolInputError(`${schema.name} is missing required field '${field}'`);
    }
  }
  for (const [field, spec] of Object.entries(schema.input_schema.properties)) {
    const value = record[field];
    if (value === undefined || value === null) continue;
    const type = spec.type as FieldType;
    const ok =
      type === 'integer' ? typeof value === 'number' && Number.isInteger(value) : typeof value === type;
    if (!ok) {
      throw new ToolInputError(
        `${schema.name} field '${field}' must be ${type === 'integer' ? 'an integer' : 'a string'}, got ${describe(value)}`,
      );
    }
  }
  return record;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

export interface ToolContext {
  agent: AgentId;
  /** The id of the tool_use block being answered. */
  toolUseId: string;
  signal?: AbortSignal;
}

export type ToolHandler = (input: Record<string, unknown>, context: ToolContext) => Promise<string>;

export interface ToolOptions {
  bashTimeoutMs?: number;
  outputChars?: number;
}

/** Resolves a model-given path inside the workdir, or refuses it as the reference does. */
export function safePath(workdir: string, path: string): string {
  const base = workdir.replace(/\/+$/, '') || '/';
  const joined = path.startsWith('/') ? path : `${base}/${path}`;
  const parts: string[] = [];
  for (const part of joined.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  const resolved = '/' + parts.join('/');
  if (resolved !== base && !resolved.startsWith(base === '/' ? '/' : `${base}/`)) {
    throw new Error(`Path escapes workspace: ${path}`);
  }
  return resolved;
}

/** Python's str.splitlines(): no empty last line for a trailing newline. */
export function splitLines(text: string): string[] {
  // The same separators as Python, file/group/record separators included.
  // eslint-disable-next-line no-control-regex
  const lines = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Python's len() of a str: code points, not UTF-16 units. */
function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The four base tools' handlers over one sandbox, with the reference's result strings. */
export function baseToolHandlers(
  sandbox: ToolSandbox,
  options: ToolOptions = {},
): Record<string, ToolHandler> {
  const cap = options.outputChars ?? LIMITS.outputChars;
  const timeoutMs = options.bashTimeoutMs ?? LIMITS.bashTimeoutMs;
  const workdir = sandbox.workdir;
  const schema = (name: string) => CHILD_TOOLS.find((t) => t.name === name)!;

  return {
    async bash(input, { agent, signal }) {
      const { command } = checkInput(schema('bash'), input) as { command: string };
      if (DANGEROUS_COMMANDS.some((d) => command.includes(d))) return 'Error: Dangerous command blocked';
      const result = await sandbox.exec(command, { timeoutMs, signal, agent });
      if (result.timedOut) return `Error: Timeout (${Math.round(timeoutMs / 1000)}s)`;
      const out = (result.stdout + result.stderr).trim();
      return out ? out.slice(0, cap) : '(no output)';
    },

    async read_file(input) {
      const { path, limit } = checkInput(schema('read_file'), input) as { path: string; limit?: number };
      const text = await sandbox.readFile(safePath(workdir, path));
      let lines = splitLines(text);
      if (limit && limit < lines.length) {
        lines = [...lines.slice(0, limit), `... (${lines.length - limit} more)`];
      }
      return lines.join('\n').slice(0, cap);
    },

    async write_file(input, { agent }) {
      const { path, content } = checkInput(schema('write_file'), input) as { path: string; content: string };
      await sandbox.writeFile(safePath(workdir, path), content, agent);
      return `Wrote ${codePoints(content)} bytes`;
    },

    async edit_file(input, { agent }) {
      const { path, old_text, new_text } = checkInput(schema('edit_file'), input) as {
        path: string;
        old_text: string;
        new_text: string;
      };
      const full = safePath(workdir, path);
      const content = await sandbox.readFile(full);
      const at = content.indexOf(old_text);
      if (at < 0) return `Error: Text not found in ${path}`;
      await sandbox.writeFile(
        full,
        content.slice(0, at) + new_text + content.slice(at + old_text.length),
        agent,
      );
      return `Edited ${path}`;
    },
  };
}
