import { describe, expect, it } from 'vitest';
import {
  checkEvent,
  checkParentRun,
  checkReady,
  checkSettings,
  checkSubagentRun,
  checkHandedSummary,
  checkHandedTask,
  checkTask,
  ProtocolError,
} from './protocol';

const settings = {
  model: { provider: 'demo', speed: 'instant' },
  modelName: 'claude-sonnet-4-5',
  workdir: '/home/user/project',
  bashTimeoutMs: 120_000,
  context: 'isolated',
  limits: { subagentMaxCalls: 30, outputChars: 50_000, maxTokens: 8000, delegationDepth: 0 },
};

describe('checks where worker messages arrive', () => {
  it('accepts a well-formed parent run', () => {
    const run = checkParentRun({ prompt: 'hi', history: [{ role: 'user', content: 'x' }], settings });
    expect(run.prompt).toBe('hi');
    expect(run.history).toHaveLength(1);
  });

  it('refuses an empty prompt and a malformed history', () => {
    expect(() => checkParentRun({ prompt: '   ', history: [], settings })).toThrow('the prompt is empty');
    expect(() =>
      checkParentRun({ prompt: 'x', history: [{ role: 'system', content: 'x' }], settings }),
    ).toThrow('history[0] must be a user or assistant message');
    expect(() => checkParentRun({ prompt: 'x', history: 'nope', settings })).toThrow(ProtocolError);
  });

  it('refuses unknown providers and incomplete Anthropic settings', () => {
    expect(() => checkSettings({ ...settings, model: { provider: 'openai' } })).toThrow(
      'unknown model provider "openai"',
    );
    expect(() =>
      checkSettings({ ...settings, model: { provider: 'anthropic', apiKey: 'k', baseURL: 'https://x' } }),
    ).toThrow("'model' must be a string");
    expect(() => checkSettings({ ...settings, bashTimeoutMs: 0 })).toThrow('bashTimeoutMs');
    expect(() => checkSettings({ ...settings, model: { provider: 'demo', speed: 'fast' } })).toThrow(
      "'speed'",
    );
  });

  it("takes the demo's slow pace and the presenter's gate, a shared cell, and nothing else for it", () => {
    const cell = new Int32Array(new SharedArrayBuffer(4));
    const slow = checkSettings({ ...settings, model: { provider: 'demo', speed: 'slow', gate: cell } });
    expect(slow.model).toEqual({ provider: 'demo', speed: 'slow', gate: cell });
    for (const gate of [new Int32Array(1), new Int32Array(new SharedArrayBuffer(8)), [0], 'held']) {
      expect(() => checkSettings({ ...settings, model: { provider: 'demo', speed: 'slow', gate } })).toThrow(
        "'gate'",
      );
    }
  });

  it('accepts only subagent names for subagent runs', () => {
    expect(checkSubagentRun({ agent: 'subagent-3', prompt: 'p', depth: 1, settings }).agent).toBe(
      'subagent-3',
    );
    expect(() => checkSubagentRun({ agent: 'parent', prompt: 'p', depth: 1, settings })).toThrow(
      'not a subagent name',
    );
  });

  it('refuses a context mode it does not know and limits out of their ranges', () => {
    expect(checkSettings({ ...settings, context: 'fork' }).context).toBe('fork');
    expect(() => checkSettings({ ...settings, context: 'shared' })).toThrow('unknown context mode "shared"');
    expect(() => checkSettings({ ...settings, context: undefined })).toThrow('unknown context mode');
    expect(() => checkSettings({ ...settings, limits: undefined })).toThrow("'limits' must be an object");
    const limits = settings.limits;
    const accepted = { subagentMaxCalls: 100, outputChars: 1000, maxTokens: 64_000, delegationDepth: 3 };
    expect(checkSettings({ ...settings, limits: accepted }).limits).toEqual(accepted);
    for (const [key, bad, range] of [
      ['subagentMaxCalls', 0, '1 to 100'],
      ['subagentMaxCalls', 101, '1 to 100'],
      ['outputChars', 999, '1,000 to 200,000'],
      ['outputChars', 200_001, '1,000 to 200,000'],
      ['maxTokens', 0, '1 to 64,000'],
      ['maxTokens', 64_001, '1 to 64,000'],
      ['maxTokens', 8000.5, '1 to 64,000'],
      ['delegationDepth', 4, '0 to 3'],
      ['delegationDepth', -1, '0 to 3'],
      ['delegationDepth', '2', '0 to 3'],
    ] as const) {
      expect(() => checkSettings({ ...settings, limits: { ...limits, [key]: bad } })).toThrow(
        `settings.limits: ${key} must be an integer from ${range}`,
      );
    }
    const { maxTokens: _, ...missing } = limits;
    expect(() => checkSettings({ ...settings, limits: missing })).toThrow('maxTokens must be an integer');
  });

  it("checks a subagent run's depth against the delegation limit", () => {
    const delegating = { ...settings, limits: { ...settings.limits, delegationDepth: 2 } };
    expect(checkSubagentRun({ agent: 'subagent-2', prompt: 'p', depth: 3, settings: delegating }).depth).toBe(
      3,
    );
    expect(() =>
      checkSubagentRun({ agent: 'subagent-2', prompt: 'p', depth: 4, settings: delegating }),
    ).toThrow("'depth' must be an integer from 1 to 3");
    // Without delegation every subagent is the parent's own.
    expect(() => checkSubagentRun({ agent: 'subagent-2', prompt: 'p', depth: 2, settings })).toThrow(
      "'depth' must be an integer from 1 to 1",
    );
    for (const depth of [0, 1.5, '1', undefined]) {
      expect(() => checkSubagentRun({ agent: 'subagent-1', prompt: 'p', depth, settings })).toThrow(
        "'depth'",
      );
    }
  });

  it('takes the caller history of a forked subagent, and only in fork mode', () => {
    const fork = { ...settings, context: 'fork' };
    const forkFrom = [{ role: 'user', content: 'the user asked' }];
    expect(
      checkSubagentRun({ agent: 'subagent-1', prompt: 'p', depth: 1, forkFrom, settings: fork }).forkFrom,
    ).toEqual(forkFrom);
    expect(() => checkSubagentRun({ agent: 'subagent-1', prompt: 'p', depth: 1, settings: fork })).toThrow(
      "a forked subagent needs 'forkFrom'",
    );
    expect(() =>
      checkSubagentRun({ agent: 'subagent-1', prompt: 'p', depth: 1, forkFrom, settings }),
    ).toThrow("'forkFrom' is given only in fork mode");
    expect(() =>
      checkSubagentRun({
        agent: 'subagent-1',
        prompt: 'p',
        depth: 1,
        forkFrom: [{ role: 'system', content: 'x' }],
        settings: fork,
      }),
    ).toThrow('run: forkFrom[0] must be a user or assistant message');
  });

  it("checks a forked task's history as it arrives on the page", () => {
    const forkFrom = [{ role: 'user', content: 'the user asked' }];
    expect(checkTask({ id: 't', prompt: 'p', description: 'd', forkFrom })).toEqual({
      id: 't',
      prompt: 'p',
      description: 'd',
      forkFrom,
    });
    expect(() => checkTask({ id: 't', prompt: 'p', description: 'd', forkFrom: 'all of it' })).toThrow(
      "task: 'forkFrom' must be an array",
    );
    expect(() =>
      checkTask({ id: 't', prompt: 'p', description: 'd', forkFrom: [{ role: 'user', content: 5 }] }),
    ).toThrow('task: forkFrom[0].content must be a string or an array of blocks');
  });

  it('checks events and tasks arriving on the page', () => {
    expect(checkEvent({ type: 'log', agent: 'parent', line: 'x' }).type).toBe('log');
    expect(() => checkEvent({ type: 'explode', agent: 'parent' })).toThrow('unknown event "explode"');
    expect(() => checkEvent({ type: 'message', agent: 'parent' })).toThrow("needs 'index' and 'message'");
    expect(() => checkEvent(null)).toThrow(ProtocolError);
    expect(checkTask({ id: 't', prompt: 'p', description: 'd' })).toEqual({
      id: 't',
      prompt: 'p',
      description: 'd',
    });
    expect(() => checkTask({ id: 't', prompt: 5, description: 'd' })).toThrow("'prompt' must be a string");
  });

  it('checks a subagent worker’s ready answer', () => {
    expect(checkReady({ name: 'subagent-1', readyAtEpoch: 1.5e12 })).toEqual({
      name: 'subagent-1',
      readyAtEpoch: 1.5e12,
    });
    expect(() => checkReady({ name: 'subagent-1', readyAtEpoch: Number.NaN })).toThrow(
      "'readyAtEpoch' must be a finite number",
    );
    expect(() => checkReady('subagent-1')).toThrow(ProtocolError);
  });

  it('a task down a hand, and its summary up it, are checked where they arrive', () => {
    const task = { id: 't', prompt: 'p', description: 'd' };
    expect(checkHandedTask({ task })).toEqual(task);
    expect(() => checkHandedTask('p')).toThrow('handed task: expected an object');
    expect(() => checkHandedTask({ task: { ...task, id: 1 } })).toThrow("'id' must be a string");
    expect(checkHandedSummary({ summary: 'It uses pytest.' })).toBe('It uses pytest.');
    expect(() => checkHandedSummary(null)).toThrow('handed summary: expected an object');
    expect(() => checkHandedSummary({ summary: 1 })).toThrow('summary: expected a string');
  });
});
