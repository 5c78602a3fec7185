/**
 * A Claude Code session as a run record, so that History, the step-through, the charts and the
 * export read it like any run of the playground.
 *
 *   <session>.jsonl                          the parent: one JSON record a line
 *   <session>/subagents/agent-<id>.jsonl     each subagent (every record `isSidechain: true`)
 *   <session>/subagents/agent-<id>.meta.json its type, description, and the call that started it
 *   (older sessions: the sidechain records sit in the parent file, one chain per subagent)
 *
 * Each agent's records become its messages array, counted as the API counted them: the lines of
 * one `message.id` are one message and one model call wherever they are in the file (Claude Code
 * writes a reply a block a line, with tool results and progress records between), with the usage
 * of its last line; each tool result joins the user message that answers its call, matched by
 * `tool_use_id`. A call starts at the agent's record before it and ends at its reply's last line,
 * so the workers timeline follows the session's own clock. A compaction (`compact_boundary`) and
 * a switch of model are `context_reset` events: the agent's own doing, never a faulty count.
 *
 * A subagent is linked to the `Agent`/`Task` call that started it by the meta file's `toolUseId`,
 * the result's `toolUseResult.agentId`, a progress record naming it, a top-level `agentId` on the
 * result record, or its prompt; one launched in the background ends with its transcript; a call the
 * tool refused is a failed column with its error; a call whose transcript is not among the files
 * becomes a column that says so; an agent's warm-up and the call that wrote a compaction's summary
 * are told in the log. Records of other kinds (snapshots, system notes) go to the log, progress
 * records nowhere; images and documents stay in the array with their data left out; nothing is
 * run and nothing is fetched. Pure: the worker of src/workers/session/ runs it off the page's thread.
 *
 * Reading the files is `claude-code/transcript.ts`, a transcript's records as messages and calls
 * `claude-code/items.ts`; here the agents are linked and their events made.
 */
import type { AgentId } from '../core/messages';
import { REFERENCE_LIMITS } from '../core/variants';
import {
  RECORD_FORMAT,
  RECORD_VERSION,
  TOOL_END_PREVIEW,
  type RecordEvent,
  type RunEvent,
  type RunRecord,
} from './record';
import { contextOf } from './ledger';
import {
  firstPrompt,
  itemsOf,
  resultText,
  untypedRecords,
  userMessage,
  type Item,
} from './claude-code/items';
import {
  agentIdOf,
  baseName,
  isObject,
  readLines,
  sidechains,
  str,
  type Json,
  type SessionFile,
  type SessionProblem,
  type Transcript,
} from './claude-code/transcript';
import { CodedError } from './coded-error';

export {
  isSessionFile,
  MAX_SESSION_BYTES,
  readLines,
  type SessionFile,
  type SessionProblem,
} from './claude-code/transcript';

export interface OpenedSession {
  record: RunRecord;
  problems: SessionProblem[];
}

/** Why nothing of the files can be shown (the screen says it from the code). */
export class SessionError extends CodedError<'noSession' | 'empty'> {
  override name = 'SessionError';
  constructor(code: 'noSession' | 'empty', params: Record<string, string | number> = {}) {
    super(
      code,
      params,
      code === 'noSession'
        ? 'no Claude Code transcript (.jsonl) among the files'
        : 'no message in the session',
    );
  }
}

/** The tools of Claude Code that start a subagent (renamed from Task to Agent in 2.1). */
const AGENT_TOOLS = new Set(['Agent', 'Task']);

/** An event with its place: sorted by time, subagents' before the parent's at the same moment. */
interface Timed {
  t: number;
  order: number;
  event: RunEvent;
}

/** How one subagent was started and ended, as the parent's transcript tells it. */
interface Link {
  agent: AgentId;
  toolUseId: string;
  description: string;
  prompt: string;
  /** When the parent's call asked for it, and when its result came back (null: never). */
  start: number;
  end: number | null;
  summary: string | null;
  transcript: Transcript | null;
  /** Started in the background: its result only said it was launched; it ends with its transcript. */
  background?: boolean;
}

/** A Task call's result as the parent got it: its text, and whether the tool refused it. */
interface TaskResult {
  /** The call only launched the subagent in the background (`async_launched`). */
  launched?: boolean;
  text: string;
  error: boolean;
}

/** Whether a transcript is Claude Code's warm-up of an agent type: its first prompt is "Warmup". */
function isWarmup(items: readonly Item[]): boolean {
  const first = items.find((i) => i.kind === 'user');
  if (first?.kind !== 'user') return false;
  const texts = first.blocks
    .filter((b): b is Json => isObject(b) && b.type === 'text')
    .map((b) => str(b.text).trim());
  return texts.at(-1)?.toLowerCase() === 'warmup';
}

/** A tool's refusal as the model read it, without Claude Code's `<tool_use_error>` wrapping. */
function toolError(text: string): string {
  return text.replace(/<\/?tool_use_error>/g, '').trim();
}

/**
 * A transcript's events: its messages, model calls and tool calls, at the session's times. A
 * compaction and a switch of model are `context_reset` events (never the provider's doing).
 */
function agentEvents(
  agent: AgentId,
  items: readonly Item[],
  place: (t: number) => number,
  order: number,
  out: Timed[],
  onAgentCall?: (id: string, t: number) => Timed[],
  onAgentResult?: (id: string, t: number, result: TaskResult) => Timed[],
): void {
  const push = (t: number, event: RunEvent) => out.push({ t: place(t), order, event });
  let index = 0;
  let calls = 0;
  let model = '';
  /** The tools the latest reply asked for: the results that answer them are matched to them. */
  let asked = new Set<string>();
  let replied = 0;
  const tools = new Map<string, { name: string; t: number }>();
  for (const item of items) {
    switch (item.kind) {
      case 'note':
        push(item.t, { type: 'log', agent, line: item.text });
        break;
      case 'compact':
        // A compaction: the array starts again from its summary, and so does its count.
        index = 0;
        asked = new Set();
        push(item.t, {
          type: 'context_reset',
          agent,
          reason: 'compaction',
          ...(model ? { model } : {}),
          ...(item.trigger ? { trigger: item.trigger } : {}),
          ...(item.tokensBefore !== null ? { tokensBefore: Math.max(0, Math.round(item.tokensBefore)) } : {}),
        });
        break;
      case 'call': {
        if (item.model && model && item.model !== model) {
          push(item.start, { type: 'context_reset', agent, reason: 'model', model: item.model });
        }
        if (item.model) model = item.model;
        const call = ++calls;
        push(item.start, { type: 'model_start', agent, call });
        push(item.t, {
          type: 'model_end',
          agent,
          call,
          durationMs: Math.max(0, item.t - item.start),
          ...(item.usage ? { usage: item.usage } : {}),
          stopReason: item.stop,
          ...(item.model ? { model: item.model } : {}),
        });
        push(item.t, {
          type: 'message',
          agent,
          index: index++,
          message: { role: 'assistant', content: item.blocks },
        });
        replied = item.t;
        asked = new Set();
        for (const block of item.blocks) {
          if (!isObject(block) || block.type !== 'tool_use') continue;
          asked.add(block.id);
          tools.set(block.id, { name: block.name, t: item.t });
          push(item.t, { type: 'tool_start', agent, id: block.id, name: block.name, input: block.input });
          if (AGENT_TOOLS.has(block.name))
            for (const timed of onAgentCall?.(block.id, item.t) ?? []) out.push(timed);
        }
        break;
      }
      case 'user':
        for (const result of item.results) {
          const tool = tools.get(result.id);
          if (!tool || !asked.has(result.id)) continue;
          tools.delete(result.id);
          // A result written before its reply's last line (tools run while the reply streams)
          // ends once the reply did.
          const t = Math.max(result.t, replied);
          if (AGENT_TOOLS.has(tool.name)) {
            for (const timed of onAgentResult?.(result.id, t, result) ?? []) out.push(timed);
          }
          push(t, {
            type: 'tool_end',
            agent,
            id: result.id,
            name: tool.name,
            output: result.text.slice(0, TOOL_END_PREVIEW),
            durationMs: Math.max(0, t - tool.t),
          });
          // The reference's console line after every tool call.
          push(t, { type: 'log', agent, line: `  ${result.text.slice(0, 200)}` });
        }
        push(Math.max(item.t, replied), {
          type: 'message',
          agent,
          index: index++,
          message: userMessage(item.blocks, asked),
        });
        break;
    }
  }
}

/**
 * A Claude Code session as a run record. `files` are what was opened (several files, or a folder's);
 * `progress` hears how many characters were read, of `total`.
 */
export function sessionRecord(
  files: readonly SessionFile[],
  progress?: (chars: number) => void,
): OpenedSession {
  const problems: SessionProblem[] = [];
  const metas = new Map<string, Json>();
  const subagentFiles: Transcript[] = [];
  const compactions: Transcript[] = [];
  const parents: SessionFile[] = [];
  for (const file of files) {
    const name = baseName(file.path);
    if (file.unreadable !== undefined) {
      problems.push({ code: 'unreadable', params: { name, reason: file.unreadable } });
      continue;
    }
    const meta = /^agent-(.+)\.meta\.json$/i.exec(name);
    if (meta) {
      try {
        const value: unknown = JSON.parse(file.text);
        if (isObject(value)) metas.set(meta[1], value);
      } catch {
        problems.push({ code: 'brokenLines', params: { name, count: 1, line: 1 } });
      }
      progress?.(file.text.length);
      continue;
    }
    if (!/\.jsonl$/i.test(name)) {
      progress?.(file.text.length);
      continue;
    }
    const agentId = agentIdOf(name);
    if (agentId === null) parents.push(file);
    else if (agentId.startsWith('acompact')) {
      // A compaction's own call (the one that wrote the summary): not a subagent the session
      // started; the parent's log tells of it.
      compactions.push({ name, lines: readLines(file, problems, progress), agentId, meta: null });
    } else subagentFiles.push({ name, lines: [], agentId, meta: null });
  }
  if (!parents.length && !subagentFiles.length) throw new SessionError('noSession');

  for (const sub of subagentFiles) {
    const file = files.find((f) => baseName(f.path) === sub.name)!;
    sub.lines = readLines(file, problems, progress);
    sub.meta = metas.get(sub.agentId!) ?? null;
  }
  // Several sessions: the one the subagents belong to, else the first.
  const sessionOfSubs = subagentFiles.map((s) => str(s.lines[0]?.rec.sessionId)).find(Boolean);
  const parentFile =
    parents.find((p) => baseName(p.path) === `${sessionOfSubs}.jsonl`) ??
    [...parents].sort((a, b) => a.path.localeCompare(b.path))[0];
  if (parents.length > 1) {
    problems.push({
      code: 'severalSessions',
      params: { name: baseName(parentFile.path), count: parents.length },
    });
  }
  const allParentLines = parentFile ? readLines(parentFile, problems, progress) : [];
  const parentLines = allParentLines.filter((l) => l.rec.isSidechain !== true);
  const transcripts = [...subagentFiles, ...sidechains(allParentLines)];
  if (!parentFile) {
    for (const sub of subagentFiles) problems.push({ code: 'noParent', params: { name: sub.name } });
  }

  // A file whose times cannot be read puts its records at no time the others can be set against:
  // then every record takes a time made of its place in its file, a second apart. A subagent's
  // records still fall between the call that started it and its result (`place` below), in order.
  const untimed = problems.filter(
    (p): p is Extract<SessionProblem, { code: 'untimed' }> => p.code === 'untimed',
  );
  if (untimed.length) {
    // One sentence for them all, the parent's file first.
    const names = untimed.map((p) => p.params.name);
    const parentName = parentFile ? baseName(parentFile.path) : '';
    names.sort((a, b) => Number(b === parentName) - Number(a === parentName));
    problems.splice(0, problems.length, ...problems.filter((p) => p.code !== 'untimed'));
    problems.unshift({ code: 'untimed', params: { name: names.join(', ') } });
    allParentLines.forEach((line, i) => (line.t = i * 1000));
    for (const sub of subagentFiles) sub.lines.forEach((line, i) => (line.t = i * 1000));
  }

  const parentItems = itemsOf(parentLines);
  const subItems = new Map(transcripts.map((s) => [s, itemsOf(s.lines)]));

  // The parent's calls that start a subagent, and what answered them.
  const calls = new Map<string, { input: Json; t: number }>();
  const agentIdOfCall = new Map<string, string>();
  for (const { rec } of parentLines) {
    if (rec.type === 'progress') {
      // A subagent's step, reported to the parent while its Task call runs (2.1): names both.
      const data = isObject(rec.data) ? rec.data : {};
      const call = str(rec.parentToolUseID) || str(rec.toolUseID);
      if (call && str(data.agentId) && !agentIdOfCall.has(call)) agentIdOfCall.set(call, str(data.agentId));
      continue;
    }
    const content = isObject(rec.message) ? rec.message.content : undefined;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === 'tool_use' && AGENT_TOOLS.has(str(block.name))) {
        calls.set(str(block.id), { input: isObject(block.input) ? block.input : {}, t: 0 });
      }
      if (block.type === 'tool_result' && calls.has(str(block.tool_use_id))) {
        // The subagent's id: in the result's toolUseResult (2.x), on the record itself (older
        // sessions), or in the result's text ("agentId: ...").
        const result = isObject(rec.toolUseResult) ? rec.toolUseResult : {};
        const named =
          str(result.agentId) ||
          str(rec.agentId) ||
          /agentId: *([\w@.-]+)/.exec(resultText(block.content))?.[1] ||
          '';
        if (named) agentIdOfCall.set(str(block.tool_use_id), named);
      }
    }
  }
  const transcriptOfCall = new Map<string, Transcript>();
  const taken = new Set<Transcript>();
  const take = (id: string, transcript: Transcript | undefined) => {
    if (!calls.has(id) || !transcript || taken.has(transcript) || transcriptOfCall.has(id)) return;
    transcriptOfCall.set(id, transcript);
    taken.add(transcript);
  };
  for (const transcript of transcripts) take(str(transcript.meta?.toolUseId), transcript);
  for (const [id, agentId] of agentIdOfCall)
    take(
      id,
      transcripts.find((s) => s.agentId === agentId),
    );
  // Else by the prompt the call gave (older sessions).
  for (const [id, call] of calls) {
    const prompt = str(call.input.prompt).trim();
    if (prompt)
      take(
        id,
        transcripts.find((s) => !taken.has(s) && firstPrompt(subItems.get(s)!) === prompt),
      );
  }

  const start = Math.min(
    ...[parentLines[0]?.t, ...transcripts.map((s) => s.lines[0]?.t)].filter(
      (t): t is number => typeof t === 'number' && Number.isFinite(t),
    ),
  );
  if (!Number.isFinite(start)) throw new SessionError('empty');
  const rel = (t: number) => Math.max(0, t - start);
  const out: Timed[] = [];
  const links = new Map<string, Link>();
  let spawned = 0;

  const subagentEvents = (link: Link, order: number) => {
    const items = link.transcript ? subItems.get(link.transcript)! : [];
    const lo = rel(link.start);
    const hi = link.end === null || link.background ? Infinity : rel(link.end);
    // A subagent's records fall between the call that started it and its result (clocks agree
    // to the millisecond at best), just after the parent's own events of that moment.
    const place = (t: number) => Math.min(hi, Math.max(lo + 0.001, rel(t)));
    if (link.transcript) {
      out.push({
        t: place(link.transcript.lines[0]?.t ?? link.start),
        order,
        event: { type: 'worker', worker: link.agent, phase: 'ready' },
      });
      agentEvents(link.agent, items, place, order, out);
      if (link.background) {
        // Launched in the background: it ends with its transcript's last record, after its own
        // events of that moment.
        const at = place(link.transcript.lines.at(-1)?.t ?? link.start);
        out.push(
          {
            t: at,
            order: parentOrder,
            event: {
              type: 'agent_state',
              agent: link.agent,
              state: 'discarded',
              summary: link.summary ?? '',
            },
          },
          { t: at, order: parentOrder, event: { type: 'worker', worker: link.agent, phase: 'terminated' } },
        );
      }
    }
  };

  // The parent: its calls that start subagents spawn them, their results end them.
  const parentOrder = transcripts.length + 1;
  const opening = (id: string, t: number): Timed[] => {
    const call = calls.get(id)!;
    const transcript = transcriptOfCall.get(id) ?? null;
    const agent = `subagent-${++spawned}`;
    const description =
      str(call.input.description) || str(transcript?.meta?.description) || str(call.input.subagent_type);
    const prompt = str(call.input.prompt);
    const link: Link = {
      agent,
      toolUseId: id,
      description,
      prompt,
      start: t,
      end: null,
      summary: null,
      transcript,
    };
    links.set(id, link);
    const at = rel(t);
    return [
      { t: at, order: parentOrder, event: { type: 'task_start', agent: 'parent', id, description, prompt } },
      {
        t: at,
        order: parentOrder,
        event: {
          type: 'spawn',
          agent,
          from: 'parent',
          taskId: id,
          description,
          messages: [{ role: 'user', content: prompt }],
        },
      },
      { t: at, order: parentOrder, event: { type: 'worker', worker: agent, phase: 'created' } },
      // The reference's console line when a task starts.
      {
        t: at,
        order: parentOrder,
        event: { type: 'log', agent, line: `> task (${description || 'subtask'}): ${prompt.slice(0, 80)}` },
      },
    ];
  };
  const closing = (id: string, t: number, result: TaskResult): Timed[] => {
    const link = links.get(id);
    if (!link) return [];
    const text = result.error ? toolError(result.text) : result.text;
    link.end = t;
    link.summary = text;
    const at = rel(t);
    if (result.launched && link.transcript) {
      // The call returned at once; the subagent works on (its end: see subagentEvents).
      link.background = true;
      return [{ t: at, order: parentOrder, event: { type: 'task_end', agent: 'parent', id, summary: text } }];
    }
    // A call the tool refused (its input did not validate) never started a subagent: it failed.
    const failed = result.error && !link.transcript;
    if (failed) {
      problems.push({
        code: 'failedSubagent',
        params: { agent: link.agent, description: link.description, error: text.slice(0, 200) },
      });
    } else if (!link.transcript) {
      problems.push({
        code: 'missingSubagent',
        params: { agent: link.agent, description: link.description },
      });
    }
    return [
      {
        t: at,
        order: parentOrder,
        event: {
          type: 'agent_state',
          agent: link.agent,
          state: failed ? 'failed' : link.transcript ? 'discarded' : 'missing',
          summary: text,
        },
      },
      { t: at, order: parentOrder, event: { type: 'worker', worker: link.agent, phase: 'terminated' } },
      { t: at, order: parentOrder, event: { type: 'task_end', agent: 'parent', id, summary: text } },
    ];
  };
  agentEvents('parent', parentItems, rel, parentOrder, out, opening, closing);
  // A call still going when the session ends: its subagent has no result yet.
  for (const link of links.values()) {
    if (!link.transcript && link.end === null) {
      problems.push({
        code: 'missingSubagent',
        params: { agent: link.agent, description: link.description },
      });
    }
  }
  // The calls that wrote a compaction's summary: told in the parent's log, with what they sent.
  for (const compaction of compactions) {
    const made = itemsOf(compaction.lines).filter((i) => i.kind === 'call');
    if (!made.length) continue;
    const sent = made.reduce((sum, c) => sum + (c.usage ? contextOf(c.usage) : 0), 0);
    out.push({
      t: rel(made[0].start),
      order: parentOrder,
      event: {
        type: 'log',
        agent: 'parent',
        line: `[compaction] ${compaction.name}: ${made.length} model call(s) to ${made[0].model || 'its model'} wrote the summary (${sent} tokens sent)`,
      },
    });
  }
  for (const transcript of [
    { name: baseName(parentFile?.path ?? ''), lines: allParentLines },
    ...subagentFiles,
  ]) {
    const count = untypedRecords(transcript.lines);
    if (count) problems.push({ code: 'untyped', params: { name: transcript.name, count } });
  }
  let order = 0;
  for (const link of links.values()) subagentEvents(link, order++);
  // Subagents no call of the parent started (or whose parent is missing): shown all the same.
  for (const transcript of transcripts) {
    if (taken.has(transcript)) continue;
    const items = subItems.get(transcript)!;
    if (isWarmup(items)) {
      // Claude Code's warm-up of an agent type (its prompt is "Warmup"): no call of the parent
      // started it, and it did no work; the parent's log tells of it.
      const made = items.filter((i) => i.kind === 'call');
      const sent = made.reduce((sum, c) => sum + (c.usage ? contextOf(c.usage) : 0), 0);
      out.push({
        t: rel(transcript.lines[0]?.t ?? start),
        order: parentOrder,
        event: {
          type: 'log',
          agent: 'parent',
          line: `[warmup] ${transcript.name}: ${made.length} model call(s) warmed an agent up (${sent} tokens sent)`,
        },
      });
      continue;
    }
    if (parentFile) problems.push({ code: 'unlinked', params: { name: transcript.name } });
    const first = transcript.lines[0]?.t ?? start;
    const agent = `subagent-${++spawned}`;
    const prompt = firstPrompt(subItems.get(transcript)!);
    const description =
      str(transcript.meta?.description) || str(transcript.meta?.agentType) || transcript.name;
    out.push(
      {
        t: rel(first),
        order: parentOrder,
        event: {
          type: 'spawn',
          agent,
          from: 'parent',
          taskId: transcript.agentId ?? agent,
          description,
          messages: [],
        },
      },
      { t: rel(first), order: parentOrder, event: { type: 'worker', worker: agent, phase: 'created' } },
    );
    subagentEvents(
      { agent, toolUseId: '', description, prompt, start: first, end: null, summary: null, transcript },
      order++,
    );
  }
  out.sort((a, b) => a.t - b.t || a.order - b.order);

  const firstCall =
    parentItems.find((i) => i.kind === 'call') ??
    [...subItems.values()].flat().find((i) => i.kind === 'call');
  const model = firstCall?.kind === 'call' ? firstCall.model : 'claude-code';
  const title = firstPrompt(parentItems) || str(transcripts[0] && firstPrompt(subItems.get(transcripts[0])!));
  const settings = {
    provider: 'anthropic' as const,
    model: model || 'claude-code',
    sample: 'python' as const,
    sandbox: 'claude-code',
    context: 'isolated' as const,
    limits: REFERENCE_LIMITS,
  };
  const sessionId = str(parentLines[0]?.rec.sessionId) || str(transcripts[0]?.lines[0]?.rec.sessionId);
  const end = out.at(-1)?.t ?? 0;
  const events: RecordEvent[] = [
    { t: 0, type: 'run', prompt: title, settings },
    { t: 0, type: 'status', status: { kind: 'running' } },
    { t: 0, type: 'worker', worker: 'parent', phase: 'ready' },
    ...out.map(({ t, event }) => ({ ...event, t }) as RecordEvent),
    { t: end, type: 'status', status: { kind: 'finished' } },
  ];
  return {
    record: {
      format: RECORD_FORMAT,
      version: RECORD_VERSION,
      id: `claude-code-${sessionId || 'session'}`,
      startedAt: start,
      title,
      settings,
      events,
    },
    problems,
  };
}
