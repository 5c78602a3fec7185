/**
 * A Claude Code session's files read: each JSONL transcript as timed records, broken lines counted,
 * and an older session's sidechains (subagents inside the parent file) told apart.
 */
/** One file of a session, with its path inside what was opened (a folder's relative path). */
export interface SessionFile {
  path: string;
  text: string;
  /** Why its bytes could not be read (it is left out, and the screen says why). */
  unreadable?: string;
}

/** Something the session lacks or holds that cannot be shown as it was; said in one sentence. */
export type SessionProblem =
  | { code: 'missingSubagent'; params: { agent: string; description: string } }
  | { code: 'noParent'; params: { name: string } }
  | { code: 'unlinked'; params: { name: string } }
  | { code: 'brokenLines'; params: { name: string; count: number; line: number } }
  | { code: 'severalSessions'; params: { name: string; count: number } }
  /** A Task call the tool refused (its input did not validate): no subagent ever ran. */
  | { code: 'failedSubagent'; params: { agent: string; description: string; error: string } }
  /** Records that say nothing of their kind (no `type`, no message role): left out. */
  | { code: 'untyped'; params: { name: string; count: number } }
  /** A file whose bytes could not be read (moved, changed or removed as it was opened). */
  | { code: 'unreadable'; params: { name: string; reason: string } }
  /** Lines over the budget of one line (./lines.ts), left out unread. */
  | { code: 'longLines'; params: { name: string; count: number; line: number; max: string } }
  /** No line of the file holds a time that can be read: the session is shown in the lines' order. */
  | { code: 'untimed'; params: { name: string } };

export type Json = Record<string, unknown>;

export interface Line {
  rec: Json;
  t: number;
}

/** One transcript: the parent's, or one subagent's. */
export interface Transcript {
  name: string;
  lines: Line[];
  agentId: string | null;
  meta: Json | null;
}

/** The largest session opened, all its files together. */
export const MAX_SESSION_BYTES = 200 * 1024 * 1024;

/** Whether a file name is a Claude Code transcript (what the import sends here rather than the run reader). */
export function isSessionFile(name: string): boolean {
  return /\.jsonl$/i.test(name) || /\.meta\.json$/i.test(name);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Reads a JSONL text: one record a line. Broken lines are counted (and the first one named);
 * `progress` hears how many characters are read.
 */
export function readLines(
  file: SessionFile,
  problems: SessionProblem[],
  progress?: (chars: number) => void,
): Line[] {
  const { text } = file;
  const lines: Line[] = [];
  let broken = 0;
  let firstBroken = 0;
  let last = Number.NaN;
  let start = 0;
  let lineNo = 0;
  let reported = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNo++;
    const raw = text.slice(start, end).trim();
    start = end + 1;
    if (start - reported > 1 << 20) {
      progress?.(start - reported);
      reported = start;
    }
    if (!raw) continue;
    let rec: unknown;
    try {
      rec = JSON.parse(raw);
    } catch {
      rec = undefined;
    }
    if (!isObject(rec)) {
      if (broken++ === 0) firstBroken = lineNo;
      continue;
    }
    const parsed = Date.parse(str(rec.timestamp));
    // A record without a time happened with the one before it.
    const t = Number.isNaN(parsed) ? last : Number.isNaN(last) ? parsed : Math.max(parsed, last);
    if (!Number.isNaN(t)) last = t;
    lines.push({ rec, t });
  }
  progress?.(Math.max(0, text.length - reported));
  if (lines.length && Number.isNaN(last))
    problems.push({ code: 'untimed', params: { name: baseName(file.path) } });
  // Lines before the first time take it.
  const first = lines.find((l) => !Number.isNaN(l.t))?.t ?? 0;
  for (const line of lines) {
    if (!Number.isNaN(line.t)) break;
    line.t = first;
  }
  if (broken) {
    problems.push({
      code: 'brokenLines',
      params: { name: baseName(file.path), count: broken, line: firstBroken },
    });
  }
  return lines;
}

/** The agent id of a subagent file `agent-<id>.jsonl`, else null. */
export function agentIdOf(name: string): string | null {
  return /^agent-(.+)\.jsonl$/i.exec(name)?.[1] ?? null;
}

/** The sidechains of an older session, in its parent file: one chain per subagent. */
export function sidechains(lines: readonly Line[]): Transcript[] {
  const chains: Transcript[] = [];
  const chainOf = new Map<string, Transcript>();
  const byAgent = new Map<string, Transcript>();
  for (const line of lines) {
    const { rec } = line;
    if (rec.isSidechain !== true) continue;
    const agentId = str(rec.agentId);
    let chain = (agentId && byAgent.get(agentId)) || chainOf.get(str(rec.parentUuid));
    if (!chain) {
      chain = {
        name: agentId ? `agent-${agentId}` : 'sidechain',
        lines: [],
        agentId: agentId || null,
        meta: null,
      };
      chains.push(chain);
      if (agentId) byAgent.set(agentId, chain);
    }
    chain.lines.push(line);
    if (typeof rec.uuid === 'string') chainOf.set(rec.uuid, chain);
  }
  return chains;
}
