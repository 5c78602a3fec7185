import { describe, expect, it } from 'vitest';
import { relayTargetProblem } from '../models/relay';
import { CUSTOM_PRESET, needsRelay, PRESETS, presetFor } from './presets';

describe('provider presets', () => {
  it('give every provider a base URL that parses, https or loopback, that the relay would take', () => {
    for (const preset of PRESETS.filter((p) => p !== CUSTOM_PRESET)) {
      expect(URL.canParse(preset.baseURL), preset.id).toBe(true);
      const url = new URL(preset.baseURL);
      const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
      expect(url.protocol === 'https:' || (url.protocol === 'http:' && loopback), preset.id).toBe(true);
      expect(relayTargetProblem(preset.baseURL), preset.id).toBeNull();
      // The SDK appends /v1/messages itself.
      expect(preset.baseURL, preset.id).not.toMatch(/\/v1(\/|$)|\/$/);
      expect(preset.models.length, preset.id).toBeGreaterThan(0);
    }
  });

  it('have unique ids and base URLs, and end with Custom, which fills nothing', () => {
    expect(new Set(PRESETS.map((p) => p.id)).size).toBe(PRESETS.length);
    const urls = PRESETS.map((p) => p.baseURL).filter(Boolean);
    expect(new Set(urls).size).toBe(urls.length);
    expect(PRESETS.map((p) => p.name)).toEqual([
      'Anthropic',
      'DeepSeek',
      'Moonshot (Kimi)',
      'MiniMax',
      'DashScope (Qwen)',
      'Ollama (local)',
      'OpenRouter',
      'Custom',
    ]);
    expect(CUSTOM_PRESET).toMatchObject({ id: 'custom', baseURL: '', models: [] });
  });

  it('say that DashScope needs the relay and Anthropic does not', () => {
    expect(needsRelay(presetFor('https://dashscope.aliyuncs.com/apps/anthropic'))).toBe(true);
    expect(needsRelay(presetFor('https://api.anthropic.com'))).toBe(false);
    expect(PRESETS.filter(needsRelay).map((p) => p.id)).toEqual(['dashscope']);
  });

  it('find the preset of a base URL, trailing slash and spaces aside; anything else is Custom', () => {
    expect(presetFor(' https://api.deepseek.com/anthropic/ ').id).toBe('deepseek');
    expect(presetFor('http://localhost:11434').id).toBe('ollama');
    expect(presetFor('http://127.0.0.1:41800').id).toBe('custom');
    expect(presetFor('').id).toBe('custom');
  });
});
