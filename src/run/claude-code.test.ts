import { describe, expect, it } from 'vitest';
import { claudeSession, SESSION_ID, sidechainSession } from '../../scripts/claude-sessions.mjs';
import { parseRecord } from './check';
import { sessionRecord, SessionError, type SessionFile } from './claude-code';
import { agentFigures, modelCalls, runSaving, runTotals } from './measures';
import { workersTimeline } from './timeline';
import { reduceAll } from './reduce-range';

const asFiles = (files: Record<string, string>): SessionFile[] =>
  Object.entries(files).map(([path, text]) => ({ path, text }));

describe('a Claude Code session as a run record', () => {
  const all = sessionRecord(asFiles(claudeSession({ withThird: true })));
  const view = reduceAll(all.record.events);

  it('shows the parent and one column per subagent, linked to the call that started it', () => {
    expect(all.problems).toEqual([]);
    expect(view.subagents.map((a) => [a.id, a.taskId, a.description, a.state])).toEqual([
      ['subagent-1', 'toolu_agent_a', 'Read module one', 'discarded'],
      ['subagent-2', 'toolu_agent_b', 'Read module two', 'discarded'],
      ['subagent-3', 'toolu_agent_c', 'Read module three', 'discarded'],
    ]);
    // The subagent's own array: its prompt, two reads (a call and a result each), its summary.
    expect(view.subagents[0].messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(view.subagents[0].summary).toContain('Summary of one.py, two.py');
    // The parent: the prompt, one reply of four blocks (written a block a line), the three results
    // in one message, the MCP call and its result, the final reply.
    expect(view.parent.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    const reply = view.parent.messages[1];
    expect(reply.role === 'assistant' && reply.content.map((b) => b.type)).toEqual([
      'text',
      'tool_use',
      'tool_use',
      'tool_use',
    ]);
    const results = view.parent.messages[2];
    expect(Array.isArray(results.content) && results.content.map((b) => b.type)).toEqual([
      'tool_result',
      'tool_result',
      'tool_result',
    ]);
    expect(all.record.settings).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(all.record.id).toBe(`claude-code-${SESSION_ID}`);
    expect(all.record.title).toBe('Look at the three modules and tell me what each does.');
  });

  it('keeps the real usage of every call, one call per reply however many lines it took', () => {
    const { calls } = modelCalls(all.record);
    expect(
      calls.filter((c) => c.agent === 'parent').map((c) => [c.sent, c.received, c.sent + c.received]),
    ).toEqual([
      [9003, 300, 9303],
      [9503, 50, 9553],
      [9903, 80, 9983],
    ]);
    expect(calls.every((c) => c.counted)).toBe(true);
    const parent = agentFigures(view.parent);
    expect(parent.input).toEqual({ uncached: 9, cacheRead: 18500, cacheWrite: 9900 });
    expect(parent.received).toBe(430);
    expect(runTotals(all.record)).toMatchObject({ calls: 3 + 3 * 3, parentContext: 9983, counted: true });
  });

  it("draws the workers timeline from the records' timestamps", () => {
    const { rows } = workersTimeline(all.record);
    expect(rows.map((r) => [r.id, r.from])).toEqual([
      ['parent', null],
      ['subagent-1', 'parent'],
      ['subagent-2', 'parent'],
      ['subagent-3', 'parent'],
    ]);
    const sub = rows[1];
    // Spawned when the parent's reply asked for it (1 s in), ended when its result came back.
    expect(sub.start).toBeCloseTo(1030, 0);
    expect(sub.end).toBeCloseTo(5900, 0);
    // Its first call: from its prompt (1.2 s) to its reply (2.2 s).
    expect(sub.segments.find((s) => s.kind === 'model')).toMatchObject({ start: 1200, end: 2200 });
    expect(sub.segments.filter((s) => s.kind === 'tool').map((s) => s.label)).toEqual(['Read', 'Read']);
  });

  it('computes the saving as Compare does: the parent as it ran against it doing the work itself', () => {
    const saving = runSaving(all.record)!;
    // The parent's context after its final reply: what it sent, and the reply.
    expect(saving.isolated).toBe(9903 + 80);
    // Each subagent grew from what its first call sent (3,004) to its context after its last call.
    const { calls } = modelCalls(all.record);
    const grown = ['subagent-1', 'subagent-2', 'subagent-3'].map((agent) => {
      const own = calls.filter((c) => c.agent === agent);
      return own.at(-1)!.sent + own.at(-1)!.received - own[0].sent;
    });
    expect(grown.every((g) => g > 0)).toBe(true);
    expect(saving.none).toBe(9983 + grown.reduce((a, b) => a + b, 0));
    expect(saving.saving).toBe(Math.round((1 - saving.isolated / saving.none) * 100));
    expect(saving.saving).toBeGreaterThan(0);
  });

  it('is a record like any other: it exports and opens again through every check', () => {
    const again = parseRecord(JSON.stringify(all.record));
    expect(reduceAll(again.events).subagents).toHaveLength(3);
  });

  it('keeps unknown records and blocks folded: in the log, or as blocks of their own kind', () => {
    // (The log's other lines are the reference's console lines: see the next test.)
    expect(view.log.map((l) => l.text).filter((line) => line.startsWith('['))).toEqual([
      '[file-history-snapshot]',
      '[system informational]: A scheduled wake-up is set for later.',
      '[summary]: Reading the modules',
    ]);
    const mcp = view.parent.messages[4];
    const result = Array.isArray(mcp.content) ? mcp.content[0] : null;
    expect(result?.type).toBe('tool_result');
    const content = (
      result as unknown as { content: Array<{ type: string; source?: Record<string, string> }> }
    ).content;
    // The image's data is not kept; the remote image stays a URL in the text, never fetched.
    expect(content[1].source).toEqual({ type: 'base64', media_type: 'image/png', data: '[0 KB not kept]' });
    expect(content[2].source).toEqual({ type: 'url', url: 'http://127.0.0.1:9/remote.png' });
    // The MCP tool is a tool call like any other, never run.
    const call = view.parent.messages[3];
    expect(call.role === 'assistant' && call.content[0]).toMatchObject({ name: 'mcp__shots__screenshot' });
  });
});

describe("the reference's console lines", () => {
  it('logs each task as it starts and every tool call’s output, as the reference prints them', () => {
    const { record } = sessionRecord(asFiles(claudeSession({ withThird: true })));
    const log = reduceAll(record.events).log.filter((l) => !l.text.startsWith('['));
    const tasks = log.filter((l) => l.text.startsWith('> task'));
    expect(tasks.map((l) => [l.agent, l.text])).toEqual([
      ['subagent-1', '> task (Read module one): Read one.py and two.py; say what they do.'],
      ['subagent-2', '> task (Read module two): Read three.py and four.py; say what they do.'],
      ['subagent-3', '> task (Read module three): Read five.py and more-0.py; say what they do.'],
    ]);
    // One line per tool call: each subagent's two reads, the parent's three tasks and its MCP call.
    const outputs = log.filter((l) => l.text.startsWith('  '));
    expect(outputs).toHaveLength(3 * 2 + 3 + 1);
    expect(outputs.filter((l) => l.agent === 'parent').map((l) => l.text)).toEqual([
      '  Summary of one.py, two.py: each defines one function.\nagentId: a1b2c3 (for resuming)',
      '  Summary of three.py, four.py: each defines one function.\nagentId: b4c5d6 (for resuming)',
      '  Summary of five.py, more-0.py: each defines one function.\nagentId: c7d8e9 (for resuming)',
      '  Screenshot taken.\n[image]\n[image]',
    ]);
  });
});

describe('sessions that lack something', () => {
  it('a missing subagent file becomes a column that says so, with what the parent got back', () => {
    const { record, problems } = sessionRecord(asFiles(claudeSession()));
    expect(problems).toEqual([
      { code: 'missingSubagent', params: { agent: 'subagent-3', description: 'Read module three' } },
    ]);
    const view = reduceAll(record.events);
    const missing = view.subagents[2];
    expect(missing.state).toBe('missing');
    expect(missing.messages).toEqual([
      { role: 'user', content: 'Read five.py and more-0.py; say what they do.' },
    ]);
    expect(missing.summary).toContain('Summary of five.py, more-0.py');
    expect(view.subagents.slice(0, 2).map((a) => a.state)).toEqual(['discarded', 'discarded']);
    expect(parseRecord(JSON.stringify(record)).events).toHaveLength(record.events.length);
  });

  it('subagent files without their parent are shown, and the sentence names the file', () => {
    const files = asFiles(claudeSession()).filter((f) => f.path.includes('/subagents/'));
    const { record, problems } = sessionRecord(files);
    expect(problems.map((p) => p.code)).toEqual(['noParent', 'noParent']);
    expect(problems[0].params).toEqual({ name: 'agent-a1b2c3.jsonl' });
    const view = reduceAll(record.events);
    expect(view.parent.messages).toEqual([]);
    expect(view.subagents.map((a) => a.messages.length)).toEqual([6, 6]);
    expect(parseRecord(JSON.stringify(record)).events).toHaveLength(record.events.length);
  });

  it('broken lines are left out and counted; the rest is shown', () => {
    const files = claudeSession({ withThird: true });
    const name = `${SESSION_ID}.jsonl`;
    const lines = files[name].split('\n');
    lines.splice(3, 0, '{"type":"user","message":{"role":"user","cont');
    lines.splice(6, 0, 'not json at all');
    const { record, problems } = sessionRecord(asFiles({ ...files, [name]: lines.join('\n') }));
    expect(problems).toEqual([{ code: 'brokenLines', params: { name, count: 2, line: 4 } }]);
    expect(reduceAll(record.events).subagents).toHaveLength(3);
  });

  it('a session whose times cannot be read opens in the order of its lines, and says so', () => {
    const files = claudeSession({ withThird: true });
    const parent = `${SESSION_ID}.jsonl`;
    const untimed = (text: string) => text.replace(/"timestamp":"[^"]*"/g, '"timestamp":"not a time"');
    const timed = reduceAll(sessionRecord(asFiles(files)).record.events);
    // The parent's times unreadable, its subagents' fine; then every file's.
    for (const broken of [
      { ...files, [parent]: untimed(files[parent]) },
      Object.fromEntries(Object.entries(files).map(([name, text]) => [name, untimed(text)])),
    ]) {
      const { record, problems } = sessionRecord(asFiles(broken));
      const said = problems.filter((p) => p.code === 'untimed');
      expect(said).toHaveLength(1);
      expect((said[0].params as { name: string }).name.split(', ')[0]).toBe(parent);
      const view = reduceAll(parseRecord(JSON.stringify(record)).events);
      expect(view.subagents.map((a) => a.messages)).toEqual(timed.subagents.map((a) => a.messages));
      expect(view.parent.messages).toEqual(timed.parent.messages);
    }
  });

  it('files that hold no transcript are refused with a sentence', () => {
    expect(() => sessionRecord([{ path: 'notes.txt', text: 'hello' }])).toThrow(SessionError);
    expect(() => sessionRecord([{ path: 'a.jsonl', text: 'nope\n' }])).toThrow(SessionError);
  });
});

describe('the older layout', () => {
  it("finds the subagents among the parent file's sidechain records, linked by their prompt", () => {
    const { record, problems } = sessionRecord(asFiles(sidechainSession()));
    expect(problems).toEqual([]);
    const view = reduceAll(record.events);
    expect(view.parent.messages).toHaveLength(6);
    expect(view.subagents.map((a) => [a.taskId, a.state, a.messages.length])).toEqual([
      ['toolu_agent_a', 'discarded', 6],
      ['toolu_agent_b', 'discarded', 6],
      ['toolu_agent_c', 'discarded', 6],
    ]);
  });
});
