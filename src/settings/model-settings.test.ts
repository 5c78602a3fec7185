import { describe, expect, it } from 'vitest';
import {
  API_KEY_KEY,
  DEFAULTS,
  loadSettings,
  modelConfig,
  SETTINGS_KEY,
  saveSettings,
  scrub,
  settingsProblem,
} from './model-settings';
import { readUrlSettings } from './url-settings';

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

const anthropic = {
  ...DEFAULTS,
  provider: 'anthropic' as const,
  apiKey: 'sk-ant-secret-123',
  model: 'claude-x',
};

describe('model settings', () => {
  it('keeps the key in memory only unless the learner asks to remember it', () => {
    const storage = new MemoryStorage();
    saveSettings(storage, anthropic);
    expect(storage.items.get(API_KEY_KEY)).toBeUndefined();
    expect(storage.items.get(SETTINGS_KEY)).not.toContain('sk-ant-secret-123');
    saveSettings(storage, { ...anthropic, rememberKey: true });
    expect(storage.items.get(API_KEY_KEY)).toBe('sk-ant-secret-123');
    saveSettings(storage, { ...anthropic, rememberKey: false });
    expect(storage.items.has(API_KEY_KEY)).toBe(false);
  });

  it('reads stored settings and lets URL parameters override them', () => {
    const storage = new MemoryStorage();
    saveSettings(storage, { ...anthropic, rememberKey: true, baseURL: 'https://stored.example' });
    const loaded = loadSettings(storage, readUrlSettings('?model=from-url'));
    expect(loaded).toMatchObject({ provider: 'anthropic', apiKey: 'sk-ant-secret-123', rememberKey: true });
    expect(loaded.baseURL).toBe('https://stored.example');
    expect(loaded.model).toBe('from-url');
    expect(loadSettings(storage, readUrlSettings('?provider=demo')).provider).toBe('demo');
  });

  it('survives unreadable storage', () => {
    const storage = new MemoryStorage();
    storage.setItem(SETTINGS_KEY, '{not json');
    expect(loadSettings(storage, readUrlSettings(''))).toEqual(DEFAULTS);
  });

  it('explains what is missing before a run', () => {
    expect(settingsProblem(DEFAULTS)).toBeNull();
    expect(settingsProblem({ ...anthropic, apiKey: ' ' })).toMatch(/API key/);
    expect(settingsProblem({ ...anthropic, baseURL: 'api.anthropic.com' })).toMatch(/base URL/);
    expect(settingsProblem({ ...anthropic, thinking: true, thinkingBudget: 100 })).toMatch(/thinking budget/);
    expect(settingsProblem(anthropic)).toBeNull();
  });

  it("builds the workers' model config, with thinking only when switched on", () => {
    expect(modelConfig(DEFAULTS, 'instant')).toEqual({ provider: 'demo', speed: 'instant' });
    expect(modelConfig(anthropic, 'normal')).toEqual({
      provider: 'anthropic',
      apiKey: 'sk-ant-secret-123',
      baseURL: DEFAULTS.baseURL,
      model: 'claude-x',
    });
    expect(modelConfig({ ...anthropic, thinking: true, thinkingBudget: 2048 }, 'normal')).toMatchObject({
      thinking: { budgetTokens: 2048 },
    });
  });

  it('scrubs the key out of text', () => {
    expect(scrub('failed with sk-ant-secret-123 in it', 'sk-ant-secret-123')).toBe(
      'failed with [api key] in it',
    );
  });
});
