import { describe, expect, it } from 'vitest';
import {
  checkEvent,
  checkParentRun,
  checkReady,
  checkSettings,
  checkSubagentRun,
  checkTask,
  ProtocolError,
} from './protocol';

const settings = {
  model: { provider: 'demo', speed: 'instant' },
  modelName: 'claude-sonnet-4-5',
  workdir: '/home/user/project',
  bashTimeoutMs: 120_000,
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

  it('accepts only subagent names for subagent runs', () => {
    expect(checkSubagentRun({ agent: 'subagent-3', prompt: 'p', settings }).agent).toBe('subagent-3');
    expect(() => checkSubagentRun({ agent: 'parent', prompt: 'p', settings })).toThrow('not a subagent name');
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
});
