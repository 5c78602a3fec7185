import { describe, expect, it } from 'vitest';
import {
  API_KEY_KEY,
  API_KEY_ORIGIN_KEY,
  DEFAULTS,
  keyGoesElsewhere,
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

  it('remembers a key with the endpoint it was saved for, and forgets both together', () => {
    const storage = new MemoryStorage();
    const saved = { ...anthropic, rememberKey: true, baseURL: 'https://api.anthropic.com' };
    saveSettings(storage, { ...saved, keyOrigin: 'https://api.anthropic.com' });
    expect(storage.items.get(API_KEY_ORIGIN_KEY)).toBe('https://api.anthropic.com');
    expect(storage.items.get(SETTINGS_KEY)).not.toContain('keyOrigin');
    saveSettings(storage, { ...saved, rememberKey: false });
    expect(storage.items.has(API_KEY_ORIGIN_KEY)).toBe(false);
  });

  it('knows when a link points a remembered key at another host', () => {
    const storage = new MemoryStorage();
    saveSettings(storage, {
      ...anthropic,
      rememberKey: true,
      baseURL: 'https://api.anthropic.com',
      keyOrigin: 'https://api.anthropic.com',
    });
    const own = loadSettings(storage, readUrlSettings(''));
    expect(own.keyOrigin).toBe('https://api.anthropic.com');
    expect(keyGoesElsewhere(own)).toBeNull();
    // Another path on the same origin is the same endpoint.
    const samePlace = readUrlSettings('?baseURL=https://api.anthropic.com/v1');
    expect(keyGoesElsewhere(loadSettings(storage, samePlace))).toBeNull();

    const link = readUrlSettings('?provider=anthropic&baseURL=http://other-host:8080/anthropic&model=x');
    const loaded = loadSettings(storage, link);
    expect(loaded.apiKey).toBe('sk-ant-secret-123');
    expect(keyGoesElsewhere(loaded)).toEqual({ savedFor: 'api.anthropic.com', sendTo: 'other-host:8080' });
    // The demo model sends no key anywhere.
    expect(keyGoesElsewhere({ ...loaded, provider: 'demo' })).toBeNull();
  });

  it('binds a key remembered before keys had an endpoint to the stored base URL', () => {
    const storage = new MemoryStorage();
    storage.setItem(
      SETTINGS_KEY,
      JSON.stringify({ provider: 'anthropic', baseURL: 'https://stored.example' }),
    );
    storage.setItem(API_KEY_KEY, 'sk-ant-old-key');
    const loaded = loadSettings(storage, readUrlSettings('?baseURL=https://elsewhere.example'));
    expect(keyGoesElsewhere(loaded)).toEqual({ savedFor: 'stored.example', sendTo: 'elsewhere.example' });
  });

  it('never reads a key from the URL', () => {
    const loaded = loadSettings(new MemoryStorage(), readUrlSettings('?apiKey=sk-ant-x&key=sk-ant-y'));
    expect(loaded.apiKey).toBe('');
    expect(keyGoesElsewhere({ ...loaded, provider: 'anthropic' })).toBeNull();
  });

  it('survives unreadable storage', () => {
    const storage = new MemoryStorage();
    storage.setItem(SETTINGS_KEY, '{not json');
    expect(loadSettings(storage, readUrlSettings(''))).toEqual(DEFAULTS);
  });

  it('explains what is missing before a run', () => {
    expect(settingsProblem(DEFAULTS)).toBeNull();
    expect(settingsProblem({ ...anthropic, apiKey: ' ' })).toMatchObject({
      code: 'noKey',
      message: expect.stringMatching(/API key/),
    });
    expect(settingsProblem({ ...anthropic, baseURL: 'api.anthropic.com' })).toMatchObject({
      code: 'badBaseURL',
      message: expect.stringMatching(/base URL/),
    });
    expect(settingsProblem({ ...anthropic, model: ' ' })).toMatchObject({ code: 'noModel' });
    expect(settingsProblem({ ...anthropic, thinking: true, thinkingBudget: 100 })).toMatchObject({
      code: 'thinkingBudget',
      params: { min: 1024, max: 7999 },
      message: expect.stringMatching(/thinking budget/),
    });
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

  it("relays through the page's server only when ticked and there is a relay; offers it otherwise", () => {
    const relayURL = 'http://localhost:41730/relay';
    const target = 'https://dashscope.aliyuncs.com/apps/anthropic';
    const relayed = modelConfig({ ...anthropic, baseURL: target, relay: true }, 'normal', relayURL);
    // The base URL (and so the host the key goes to) stays the endpoint's.
    expect(relayed).toMatchObject({ baseURL: target, relayURL });
    expect(relayed).not.toHaveProperty('offerRelay');
    expect(modelConfig({ ...anthropic, relay: false }, 'normal', relayURL)).toMatchObject({
      offerRelay: true,
    });
    expect(modelConfig({ ...anthropic, relay: false }, 'normal', relayURL)).not.toHaveProperty('relayURL');
    // No relay answered (a static host): nothing to use or offer.
    const none = modelConfig({ ...anthropic, relay: true }, 'normal', null);
    expect(none).not.toHaveProperty('relayURL');
    expect(none).not.toHaveProperty('offerRelay');
  });

  it('refuses a ticked relay where there is none, and targets the relay would refuse', () => {
    expect(settingsProblem({ ...anthropic, relay: true }, false)?.message).toMatch(
      /no relay \(a static deployment\)/,
    );
    expect(settingsProblem({ ...anthropic, relay: false }, false)).toBeNull();
    expect(
      settingsProblem({ ...anthropic, relay: true, baseURL: 'http://192.168.0.2:8000?' })?.message,
    ).toMatch(/without a query or fragment/);
    expect(settingsProblem({ ...anthropic, relay: true, baseURL: 'http://localhost:11434' })).toBeNull();
  });

  it('remembers the relay checkbox with the other settings, and keeps the key bound to the endpoint', () => {
    const storage = new MemoryStorage();
    const target = 'https://dashscope.aliyuncs.com/apps/anthropic';
    saveSettings(storage, { ...anthropic, baseURL: target, relay: true, rememberKey: true });
    const loaded = loadSettings(storage, readUrlSettings(''));
    expect(loaded.relay).toBe(true);
    // Relayed or not, the key goes to the endpoint's host: it is bound to that origin.
    expect(loaded.keyOrigin).toBe('https://dashscope.aliyuncs.com');
    expect(keyGoesElsewhere(loaded)).toBeNull();
  });

  it('remembers prompt caching and the price table, lets cache=on|off override it, and sends it to the API only', () => {
    const storage = new MemoryStorage();
    const prices = [{ model: 'my-model', input: 1.5, output: 6, cacheWrite: 2, cacheRead: 0.15 }];
    saveSettings(storage, { ...anthropic, cache: true, prices });
    const loaded = loadSettings(storage, readUrlSettings(''));
    expect(loaded.cache).toBe(true);
    expect(loaded.prices).toEqual(prices);
    expect(loadSettings(storage, readUrlSettings('?cache=off')).cache).toBe(false);
    expect(loadSettings(new MemoryStorage(), readUrlSettings('?cache=on')).cache).toBe(true);
    expect(modelConfig(loaded, 'normal')).toMatchObject({ cache: true });
    expect(modelConfig(anthropic, 'normal')).not.toHaveProperty('cache');
    expect(modelConfig({ ...DEFAULTS, cache: true }, 'normal')).toEqual({
      provider: 'demo',
      speed: 'normal',
    });
  });

  it('keeps the default price table when the stored one holds something that is not a price', () => {
    const storage = new MemoryStorage();
    for (const prices of [[{ model: 'x', input: 'abc', output: 1, cacheWrite: 1, cacheRead: 1 }], [], 'no']) {
      storage.setItem(SETTINGS_KEY, JSON.stringify({ prices }));
      expect(loadSettings(storage, readUrlSettings('')).prices).toEqual(DEFAULTS.prices);
    }
  });

  it('scrubs the key out of text', () => {
    expect(scrub('failed with sk-ant-secret-123 in it', 'sk-ant-secret-123')).toBe(
      'failed with [api key] in it',
    );
  });
});
