import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ModelRequest, ModelResponse } from '../core/model';
import type { Trace } from '../models/replay';
import { demoRecord } from '../../test/demo-run';
import { traceRecord } from './example';
import { runFigures } from './figures';
import { callEnded, callStarted, contextNow, contextReset, newAgentLedger, replyAppended } from './ledger';
import { agentFigures, callOf, ledgerOf, runSaving, runTotals, viewTotals } from './measures';
import { modelCallView } from './model-call';
import type { RunRecord } from './record';
import { reduceAll } from './reduce-range';
import { Replay } from './replay';
import { messageTokens } from './size';
import { jsonTokens, textTokens } from './tokens';
import type { RunView } from './view';

const trace: Trace = JSON.parse(
  readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
);

const PROMPT_1 = 'Use a subtask to find what testing framework this project uses';

/** A usage as a real API reports it: the request's size, a third of it read from the cache. */
function apiUsage(request: ModelRequest, response: ModelResponse) {
  const sent = jsonTokens(request);
  return {
    input_tokens: sent - Math.floor(sent / 3) - 5,
    cache_read_input_tokens: Math.floor(sent / 3),
    cache_creation_input_tokens: 5,
    output_tokens: jsonTokens(response.content),
  };
}

function agents(view: RunView) {
  return [view.parent, ...view.subagents];
}

/**
 * Every view's figures of a record at its end, each read the way its component reads it: the
 * header and the columns (agentFigures of the view), the chart and its table (ledgerOf), Model
 * call (callOf, with modelCallView for the messages it lists), Compare (runTotals), History
 * (runFigures).
 */
function checkEveryView(record: RunRecord): RunView {
  const view = reduceAll(record.events);
  const { calls } = ledgerOf(view);
  expect(calls.length).toBeGreaterThan(0);
  // The chart numbers calls in the order they started; each agent's calls from 1, in order.
  expect(calls.map((c) => c.seq)).toEqual(calls.map((_, i) => i + 1));
  for (const agent of agents(view)) {
    const own = calls.filter((c) => c.agent === agent.id);
    expect(own.map((c) => c.n)).toEqual(own.map((_, i) => i + 1));
    const figures = agentFigures(agent);
    // The column's sums are the sums of its calls as the chart's table lists them.
    expect(figures.calls).toBe(own.length);
    expect(figures.sent).toBe(own.reduce((sum, c) => sum + c.sent, 0));
    expect(figures.received).toBe(own.reduce((sum, c) => sum + c.received, 0));
    for (const entry of own) {
      // The inspector shows this very entry for "Model call N" of the agent.
      expect(callOf(view, agent.id, entry.n)).toBe(entry);
      // What it lists as sent is what the ledger counted as the messages part.
      const inspected = modelCallView(record, agent.id, entry.n)!;
      expect(inspected.messages.reduce((sum, m) => sum + messageTokens(m.message), 0)).toBe(
        entry.parts.messages,
      );
      if (!entry.counted) {
        expect(entry.sent).toBe(entry.parts.system + entry.parts.tools + entry.parts.messages);
        // The system prompt and tools are the ones the request carried.
        expect(entry.parts.system).toBe(jsonTokens(inspected.system));
      }
    }
    // Once its last reply is in (nothing added since), its context is that call's sent + received.
    const last = own.at(-1)!;
    if (last.replied && agent.id !== 'parent' && figures.counted === last.counted) {
      expect(figures.context).toBe(last.sent + last.received);
      expect(figures.atReturn).toBe(figures.context);
    }
  }
  // Header, Compare and History: the parent's context at the end, one number.
  const parent = agentFigures(view.parent);
  const totals = runTotals(record);
  expect(totals.parentContext).toBe(parent.context);
  expect(runFigures(view).parentTokens).toBe(parent.context);
  expect(totals.cost).toBe(calls.reduce((sum, c) => sum + c.sent + c.received, 0));
  expect(totals.calls).toBe(calls.length);
  return view;
}

describe('the call ledger', () => {
  it('gives every view the same figures for the same call (demo model, estimated), in each mode', async () => {
    for (const context of ['isolated', 'none', 'fork'] as const) {
      const record = await demoRecord(PROMPT_1, { context });
      const view = checkEveryView(record);
      expect(agentFigures(view.parent).counted).toBe(false);
      expect(ledgerOf(view).calls.every((c) => !c.counted)).toBe(true);
      if (context !== 'none') expect(view.subagents.length).toBeGreaterThan(0);
    }
  });

  it('takes a real model count as it is: input, cache read and cache write apart, output received', async () => {
    const record = await demoRecord(PROMPT_1, { usage: apiUsage });
    const view = checkEveryView(record);
    const ends = record.events.filter((e) => e.type === 'model_end');
    const { calls } = ledgerOf(view);
    expect(calls.every((c) => c.counted)).toBe(true);
    calls.forEach((call, i) => {
      const usage = (ends[i] as Extract<(typeof ends)[number], { type: 'model_end' }>).usage!;
      expect(call.input).toEqual({
        uncached: usage.input_tokens,
        cacheRead: usage.cache_read_input_tokens,
        cacheWrite: usage.cache_creation_input_tokens,
      });
      expect(call.sent).toBe(usage.input_tokens + usage.cache_read_input_tokens! + 5);
      expect(call.received).toBe(usage.output_tokens);
    });
    const parent = agentFigures(view.parent);
    const last = calls.findLast((c) => c.agent === 'parent')!;
    expect(parent.counted).toBe(true);
    expect(parent.context).toBe(last.sent + last.received);
    const totals = viewTotals(view);
    expect(totals.input.cacheRead).toBe(calls.reduce((sum, c) => sum + c.input!.cacheRead, 0));
    expect(totals.counted).toBe(true);
  });

  it('at every step, each call of the ledger is the same as at the end once it has ended and replied', async () => {
    const record = await demoRecord(PROMPT_1, { usage: apiUsage });
    const replay = new Replay(record.events);
    const end = ledgerOf(replay.at(replay.steps)).calls;
    for (let step = 1; step <= replay.steps; step++) {
      const view = replay.at(step);
      for (const call of ledgerOf(view).calls) {
        const final = end[call.seq - 1];
        expect([call.agent, call.n, call.event]).toEqual([final.agent, final.n, final.event]);
        if (call.replied && call.end !== null) expect(call).toEqual(final);
        // Before the API counted it, the call is the request's estimate.
        if (!call.counted) expect(call.sent).toBe(call.parts.system + call.parts.tools + call.parts.messages);
      }
      // While a call is at work, its agent's context is what that call sent.
      for (const agent of agents(view)) {
        const current = agent.ledger.current;
        if (current && !current.replied && current.end === null) {
          expect(agent.context.tokens).toBe(current.sent);
        }
      }
    }
  });

  it('the recorded example: its parent counted, its subagent estimated once its count fell', async () => {
    const { record } = await traceRecord(trace);
    const view = reduceAll(record.events);
    const usage = trace.cycles.map((c) => c.response.usage!);
    const { calls } = ledgerOf(view);
    expect(calls.map((c) => c.agent)).toEqual(['parent', ...Array(6).fill('subagent-1'), 'parent']);
    expect(calls.map((c) => `${c.agent === 'parent' ? 'P' : 'S'}${c.n}`)).toEqual([
      'P1',
      'S1',
      'S2',
      'S3',
      'S4',
      'S5',
      'S6',
      'P2',
    ]);
    // Each call as the trace's usage counted it.
    calls.forEach((call, i) => {
      expect(call.counted).toBe(true);
      expect(call.sent).toBe(usage[i].input_tokens);
      expect(call.received).toBe(usage[i].output_tokens);
    });
    const parent = agentFigures(view.parent);
    expect(parent.context).toBe(usage[7].input_tokens + usage[7].output_tokens);
    expect(parent.counted).toBe(true);
    // The subagent's count fell from 1,394 to 149 while its array grew: its context is estimated.
    const [child] = view.subagents;
    expect(child.ledger.partial).toBe(true);
    const figures = agentFigures(child);
    expect(figures.counted).toBe(false);
    expect(figures.atReturn).toBe(figures.context);
    expect(figures.context).toBeGreaterThan(3 * parent.context);
    expect(ledgerOf(view).tasks).toEqual([
      { agent: 'subagent-1', from: 'parent', startAfter: 1, endAfter: 7, state: 'discarded' },
    ]);
  });

  it('counts the saving of one run from the ledger: the parent against the parent plus what its subagents grew by', async () => {
    const record = await demoRecord(PROMPT_1);
    const view = reduceAll(record.events);
    const saving = runSaving(record)!;
    expect(saving.isolated).toBe(agentFigures(view.parent).context);
    const grew = view.subagents.reduce(
      (sum, a) => sum + agentFigures(a).atReturn! - callOf(view, a.id, 1)!.sent,
      0,
    );
    expect(saving.none).toBe(saving.isolated + grew);
  });
});

describe('the token estimator', () => {
  it('counts Latin text and JSON at three characters a token, and a CJK character as one token', () => {
    expect(textTokens('')).toBe(0);
    expect(textTokens('x'.repeat(300))).toBe(100);
    expect(textTokens('测试框架')).toBe(4);
    expect(textTokens('テスト')).toBe(3);
    expect(textTokens('pytest 测试')).toBe(Math.ceil(7 / 3 + 2));
  });

  it('estimates one prompt alike in every language (not four characters a token everywhere)', () => {
    const en = textTokens('Use a subtask to find what testing framework this project uses');
    const zh = textTokens('使用子任务找出这个项目使用的测试框架');
    const ja = textTokens('サブタスクを使って、このプロジェクトが使っているテストフレームワークを調べて');
    // At four characters a token these were 16, 5 and 10: a third of the English in Chinese.
    expect(zh / en).toBeGreaterThan(0.75);
    expect(ja / en).toBeGreaterThan(0.75);
  });
});

describe('a context reset (a compaction, a switch of model)', () => {
  const overhead = { system: 10, tools: 20, messages: 0 };
  const usage = (input: number) => ({ input_tokens: input, output_tokens: 10 });
  /** An agent's ledger after one call that sent `input`, replied. */
  const afterCall = (ledger: ReturnType<typeof newAgentLedger>, input: number, seq: number) =>
    replyAppended(
      callEnded(
        callStarted(ledger, { agent: 'parent', seq, event: seq, t: seq }, undefined, 1, () => 100),
        { t: seq + 1, stopReason: 'end_turn' },
        usage(input),
      ),
      110,
      10,
    );

  it('makes a smaller count after it a full count, where without it the agent is partial', () => {
    const before = afterCall(newAgentLedger(overhead), 5000, 1);
    // Without a reset, a smaller count cannot be complete: the agent's context is then estimated.
    const falling = afterCall(before, 1200, 2);
    expect(falling.partial).toBe(true);
    expect(contextNow(falling, 110).counted).toBe(false);
    const reset = afterCall(contextReset(before), 1200, 2);
    expect(reset.partial).toBe(false);
    expect(contextNow(reset, 110)).toEqual({ tokens: 1210, counted: true });
  });

  it('ends a partial agent’s estimate: counts after it are compared only with each other', () => {
    const falling = afterCall(afterCall(newAgentLedger(overhead), 5000, 1), 1200, 2);
    expect(contextReset(falling)).toMatchObject({ partial: false, lastCounted: 0 });
  });
});
