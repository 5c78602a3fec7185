import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ModelRequest, ModelResponse } from '../core/model';
import { CHILD_TOOLS, PARENT_TOOLS, parentSystem, subagentSystem } from '../core/tools';
import { soloSystem } from '../core/variants';
import type { Trace } from '../models/replay';
import { demoRecord } from '../../test/demo-run';
import {
  contextReset,
  contextTokens,
  counted,
  estimateTokens,
  newMeter,
  overheadChars,
  replied,
} from './context';
import { traceRecord } from './example';
import { agentFigures, runFigures } from './figures';
import { modelCalls, runTotals } from './measures';
import { type RunRecord, type RunSettings } from './record';
import { reduceAll } from './reduce-range';
import { Replay } from './replay';
import { DEMO_SETTINGS } from '../../test/settings';

const trace: Trace = JSON.parse(
  readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
);

const PROMPT_1 = 'Use a subtask to find what testing framework this project uses';

/** A usage as a real API reports it: the request's size, a third of it read from the cache. */
function apiUsage(request: ModelRequest, response: ModelResponse) {
  const sent = estimateTokens(JSON.stringify(request).length);
  return {
    input_tokens: sent - Math.floor(sent / 3) - 5,
    cache_read_input_tokens: Math.floor(sent / 3),
    cache_creation_input_tokens: 5,
    output_tokens: estimateTokens(JSON.stringify(response.content).length),
  };
}

/** Every place a figure of `agent`'s context reaches the screen, at a record's end. */
function everyFigure(record: RunRecord) {
  const view = reduceAll(record.events);
  const { calls } = modelCalls(record);
  const lastPoint = (agent: string) => calls.findLast((c) => c.agent === agent)!;
  return {
    // The header's "Parent keeps" and the parent's column both read agentFigures of the view.
    header: agentFigures(view.parent),
    chart: lastPoint('parent'),
    comparison: runTotals(record),
    history: runFigures(view),
    subagents: view.subagents.map((a) => ({ column: agentFigures(a), chart: lastPoint(a.id) })),
  };
}

describe('the one measure of context', () => {
  it('counts the latest call, its reply and what was added since, when a real model counted', () => {
    const usage = {
      input_tokens: 100,
      cache_read_input_tokens: 50,
      cache_creation_input_tokens: 10,
      output_tokens: 20,
    };
    let meter = counted(newMeter(400), usage);
    // While the reply is not appended yet: what the call sent, plus its output.
    expect(contextTokens(meter, 1000)).toEqual({ tokens: 180, counted: true });
    meter = replied(meter, 1200);
    expect(contextTokens(meter, 1200)).toEqual({ tokens: 180, counted: true });
    // Tool results added since: estimated, four characters a token.
    expect(contextTokens(meter, 1600)).toEqual({ tokens: 280, counted: true });
  });

  it('estimates the system prompt, the tools and the array, four characters a token, without usage', () => {
    expect(contextTokens(newMeter(400), 1000)).toEqual({ tokens: 350, counted: false });
    const settings: RunSettings = { ...DEMO_SETTINGS, sandbox: 'offline shell' };
    expect(overheadChars(settings, 0)).toBe(parentSystem('').length + JSON.stringify(PARENT_TOOLS).length);
    expect(overheadChars({ ...settings, context: 'none' }, 0)).toBe(
      soloSystem('').length + JSON.stringify(CHILD_TOOLS).length,
    );
    expect(overheadChars(settings, 1)).toBe(subagentSystem('').length + JSON.stringify(CHILD_TOOLS).length);
  });

  it('treats a count smaller than one before it as incomplete: that agent is estimated from then on', () => {
    let meter = counted(newMeter(0), { input_tokens: 500, output_tokens: 10 });
    meter = counted(replied(meter, 100), { input_tokens: 120, output_tokens: 10 });
    expect(contextTokens(meter, 4000)).toEqual({ tokens: 1000, counted: false });
    meter = counted(meter, { input_tokens: 900, output_tokens: 10 });
    expect(contextTokens(meter, 4000).counted).toBe(false);
  });

  it('every figure on screen is the same number: header, column, chart, comparison, History (API usage)', async () => {
    const record = await demoRecord(PROMPT_1, { usage: apiUsage });
    const figures = everyFigure(record);
    expect(figures.header.counted).toBe(true);
    const parent = figures.header.contextTokens;
    expect(figures.chart.context).toBe(parent);
    expect(figures.chart.counted).toBe(true);
    expect(figures.comparison.parentContext).toBe(parent);
    expect(figures.comparison.counted).toBe(true);
    expect(figures.history.parentTokens).toBe(parent);
    // The parent's final context: its last call's count, cache included, plus its reply.
    const last = record.events.findLast((e) => e.type === 'model_end' && e.agent === 'parent');
    const usage = last?.type === 'model_end' ? last.usage! : null;
    expect(parent).toBe(
      usage!.input_tokens +
        usage!.cache_read_input_tokens! +
        usage!.cache_creation_input_tokens! +
        usage!.output_tokens,
    );
    expect(figures.subagents.length).toBeGreaterThan(0);
    for (const s of figures.subagents) expect(s.chart.context).toBe(s.column.contextTokens);
  });

  it('every figure on screen is the same number with the demo model (estimated, marked ~)', async () => {
    for (const context of ['isolated', 'none', 'fork'] as const) {
      const record = await demoRecord(PROMPT_1, { context });
      const figures = everyFigure(record);
      const parent = figures.header.contextTokens;
      expect(figures.header.counted).toBe(false);
      expect([figures.chart.context, figures.comparison.parentContext, figures.history.parentTokens]).toEqual(
        [parent, parent, parent],
      );
      expect(figures.comparison.counted).toBe(false);
      for (const s of figures.subagents) expect(s.chart.context).toBe(s.column.contextTokens);
    }
  });

  it('at every step of a run, each agent column and its latest chart point agree once a call replied', async () => {
    const record = await demoRecord(PROMPT_1, { usage: apiUsage });
    const replay = new Replay(record.events);
    const { calls } = modelCalls(record);
    for (let step = 1; step <= replay.steps; step++) {
      const view = replay.at(step);
      const event = record.events[view.applied - 1];
      // Right after a reply is appended the chart's point for that call is the agent's context.
      if (event.type !== 'message' || event.message.role !== 'assistant') continue;
      const agent = [view.parent, ...view.subagents].find((a) => a.id === event.agent)!;
      const point = calls.findLast((c) => c.agent === event.agent && c.event < view.applied)!;
      expect(point.context).toBe(agentFigures(agent).contextTokens);
    }
  });

  it('the recorded example: its parent small, its subagent large (the model left cached tokens out)', async () => {
    const { record } = await traceRecord(trace);
    const figures = everyFigure(record);
    const usage = trace.cycles.map((c) => c.response.usage!);
    // The parent's counts are whole (482, then 912): its last call's input plus its reply.
    expect(figures.header.contextTokens).toBe(usage[7].input_tokens + usage[7].output_tokens);
    expect(figures.header.counted).toBe(true);
    // The subagent's count fell from 1,394 to 149 while its array grew: estimated from its array.
    const [child] = figures.subagents;
    expect(child.column.counted).toBe(false);
    expect(child.column.contextTokens).toBeGreaterThan(3 * figures.header.contextTokens);
    expect(child.chart.context).toBe(child.column.contextTokens);
    expect(figures.comparison.parentContext).toBe(figures.header.contextTokens);
    expect(figures.history.parentTokens).toBe(figures.header.contextTokens);
  });
});

describe('a context reset (a compaction, a switch of model)', () => {
  const usage = (input: number) => ({ input_tokens: input, output_tokens: 10 });

  it('makes a smaller count after it a full count, where without it the agent is partial', () => {
    const before = counted(newMeter(100), usage(5000));
    // Without a reset, a smaller count cannot be complete: the agent is estimated from then on.
    expect(counted(before, usage(1200))).toMatchObject({ partial: true, count: null });
    const after = counted(contextReset(before), usage(1200));
    expect(after).toMatchObject({ partial: false, sent: 1200, count: { tokens: 1210 } });
  });

  it('estimates the context from the array until the next call reports', () => {
    const reset = contextReset(replied(counted(newMeter(400), usage(5000)), 2000));
    expect(contextTokens(reset, 800)).toEqual({ tokens: estimateTokens(400 + 800), counted: false });
  });
});
