/**
 * The model settings: which provider, key, endpoint and model drive the loops.
 *
 * Where each value lives:
 *   - provider, base URL, model, thinking: localStorage (`s04.settings`), overridden for one
 *     page load by the URL (docs/automation-contract.md);
 *   - the API key: memory only, unless the learner ticks "remember" (then `s04.apiKey` in
 *     localStorage, and nowhere else). It never goes into a URL, the log, an export or an error.
 *   - the key's endpoint: a key belongs to the origin of the base URL it was saved with
 *     (`s04.apiKeyOrigin` beside a remembered key). A link may name another base URL, so before
 *     the key goes anywhere else the learner is asked (`keyGoesElsewhere`).
 */
import type { ModelConfig, Speed } from '../models/config';
import { relayTargetProblem } from '../models/relay';
import { defaultPriceTable, readPriceTable, type PriceRow } from '../run/price';
import { DEFAULT_BASE_URL, DEFAULT_MODEL, type Provider, type UrlSettings } from './url-settings';

export interface ModelSettings {
  provider: Provider;
  apiKey: string;
  baseURL: string;
  model: string;
  /** Whether the learner allowed keeping the key on this device. */
  rememberKey: boolean;
  /** The origin of the base URL the key was saved for ('' while there is no key). */
  keyOrigin: string;
  /** Extended thinking: off, or on with a token budget. */
  thinking: boolean;
  thinkingBudget: number;
  /**
   * "Send through the local server": calls go to this page's server, which relays them to the base
   * URL (for endpoints without CORS). The key still goes to the base URL's host, so it stays bound
   * to that host's origin as in a direct call.
   */
  relay: boolean;
  /** Prompt caching: cache breakpoints in every request (src/models/cache-breakpoints.ts); off is the reference. */
  cache: boolean;
  /** The price table, per model (src/run/price.ts): the published prices, edited, and a custom row. */
  prices: PriceRow[];
}

export const SETTINGS_KEY = 's04.settings';
export const API_KEY_KEY = 's04.apiKey';
export const API_KEY_ORIGIN_KEY = 's04.apiKeyOrigin';

/** Model ids offered as suggestions; any id the endpoint knows works. */
export const MODEL_SUGGESTIONS = [
  DEFAULT_MODEL,
  'claude-opus-5-5',
  'claude-haiku-5-5',
  'qwen3.5-plus',
  'deepseek-v4-flash',
  'kimi-k2-turbo-preview',
  'MiniMax-M2.7',
];

export const DEFAULTS: ModelSettings = {
  provider: 'demo',
  apiKey: '',
  baseURL: DEFAULT_BASE_URL,
  model: DEFAULT_MODEL,
  rememberKey: false,
  keyOrigin: '',
  thinking: false,
  thinkingBudget: 2048,
  relay: false,
  cache: false,
  prices: defaultPriceTable(),
};

/** The least the API accepts for `budget_tokens`; it must also stay below max_tokens (8000). */
export const THINKING_BUDGET = { min: 1024, max: 7999 };

type Stored = Partial<Omit<ModelSettings, 'apiKey' | 'keyOrigin'>>;

/** The origin (scheme, host, port) of a base URL: where a request made with it goes. */
export function originOf(baseURL: string): string {
  const trimmed = baseURL.trim();
  return URL.canParse(trimmed) ? new URL(trimmed).origin : trimmed;
}

/** The host (with its port) a base URL or origin names, as people read it. */
export function hostOf(baseURL: string): string {
  const trimmed = baseURL.trim();
  return URL.canParse(trimmed) ? new URL(trimmed).host : trimmed;
}

/**
 * When the key would go to another endpoint than the one it was saved for (a link named another
 * base URL): the host it belongs to and the host that would receive it. Null when it belongs there.
 */
export function keyGoesElsewhere(settings: ModelSettings): { savedFor: string; sendTo: string } | null {
  if (settings.provider !== 'anthropic' || !settings.apiKey.trim() || !settings.keyOrigin) return null;
  if (originOf(settings.baseURL) === settings.keyOrigin) return null;
  return { savedFor: hostOf(settings.keyOrigin), sendTo: hostOf(settings.baseURL) };
}

/** Reads stored settings, then lets the URL override them for this page load. */
export function loadSettings(storage: Pick<Storage, 'getItem'> | undefined, url: UrlSettings): ModelSettings {
  let stored: Stored = {};
  try {
    stored = JSON.parse(storage?.getItem(SETTINGS_KEY) ?? '{}') as Stored;
  } catch {
    // Unreadable settings are ignored; the defaults apply.
  }
  const apiKey = storage?.getItem(API_KEY_KEY) ?? '';
  const known = pickKnown(stored);
  // A key remembered before keys were bound to an endpoint was saved with the stored base URL.
  const keyOrigin = apiKey
    ? (storage?.getItem(API_KEY_ORIGIN_KEY) ?? originOf(known.baseURL ?? DEFAULTS.baseURL))
    : '';
  const settings: ModelSettings = {
    ...DEFAULTS,
    ...known,
    apiKey,
    rememberKey: apiKey !== '',
    keyOrigin,
  };
  if (url.provider) settings.provider = url.provider;
  if (url.baseURL) settings.baseURL = url.baseURL;
  if (url.model) settings.model = url.model;
  if (url.cache !== undefined) settings.cache = url.cache;
  return settings;
}

function pickKnown(stored: Stored): Stored {
  const out: Stored = {};
  if (stored.provider === 'demo' || stored.provider === 'anthropic') out.provider = stored.provider;
  if (typeof stored.baseURL === 'string' && stored.baseURL) out.baseURL = stored.baseURL;
  if (typeof stored.model === 'string' && stored.model) out.model = stored.model;
  if (typeof stored.thinking === 'boolean') out.thinking = stored.thinking;
  if (typeof stored.thinkingBudget === 'number') out.thinkingBudget = stored.thinkingBudget;
  if (typeof stored.relay === 'boolean') out.relay = stored.relay;
  if (typeof stored.cache === 'boolean') out.cache = stored.cache;
  const prices = readPriceTable(stored.prices);
  if (prices) out.prices = prices;
  return out;
}

/** Stores the settings: the key only when the learner asked for it, and removes it otherwise. */
export function saveSettings(
  storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined,
  settings: ModelSettings,
): void {
  if (!storage) return;
  const { apiKey, rememberKey, keyOrigin, ...rest } = settings;
  storage.setItem(SETTINGS_KEY, JSON.stringify(rest));
  if (rememberKey && apiKey) {
    storage.setItem(API_KEY_KEY, apiKey);
    storage.setItem(API_KEY_ORIGIN_KEY, keyOrigin || originOf(settings.baseURL));
  } else {
    storage.removeItem(API_KEY_KEY);
    storage.removeItem(API_KEY_ORIGIN_KEY);
  }
}

/**
 * What is wrong with settings a user entered: `code` and `params` for the screen to say it in its
 * language (the `settingsProblem.*` keys of src/ui/locales), `message` in English.
 */
export interface SettingsProblem {
  code: 'noKey' | 'badBaseURL' | 'noModel' | 'noRelay' | 'relayTarget' | 'thinkingBudget';
  params: Record<string, string | number>;
  message: string;
}

/**
 * Checks settings a user entered; returns the problem to show, or null when they can be used.
 * `relayAvailable`: whether this page's server answered as a relay (false on a static host).
 */
export function settingsProblem(settings: ModelSettings, relayAvailable = true): SettingsProblem | null {
  if (settings.provider === 'demo') return null;
  if (!settings.apiKey.trim()) {
    return { code: 'noKey', params: {}, message: 'The Anthropic API needs an API key: add one in Settings.' };
  }
  if (!/^https?:\/\/[^\s/]+/.test(settings.baseURL.trim())) {
    return {
      code: 'badBaseURL',
      params: {},
      message: 'The base URL must start with http:// or https://, e.g. https://api.anthropic.com.',
    };
  }
  if (!settings.model.trim())
    return { code: 'noModel', params: {}, message: 'Choose a model id in Settings.' };
  if (settings.relay && !relayAvailable) {
    return {
      code: 'noRelay',
      params: {},
      message:
        'This page\'s server has no relay (a static deployment): untick "Send through the local server" in Settings, or run the playground with npm start.',
    };
  }
  const relayProblem = settings.relay ? relayTargetProblem(settings.baseURL.trim()) : null;
  if (relayProblem) return { code: 'relayTarget', params: { reason: relayProblem }, message: relayProblem };
  if (
    settings.thinking &&
    !(settings.thinkingBudget >= THINKING_BUDGET.min && settings.thinkingBudget <= THINKING_BUDGET.max)
  ) {
    return {
      code: 'thinkingBudget',
      params: { ...THINKING_BUDGET },
      message: `The thinking budget must be between ${THINKING_BUDGET.min} and ${THINKING_BUDGET.max} tokens.`,
    };
  }
  return null;
}

/**
 * What the workers receive. `relayURL`: where this page's relay answers, when it does (then a
 * ticked relay is used, and an unticked one offered when a call fails as CORS refusals do).
 */
export function modelConfig(
  settings: ModelSettings,
  speed: Speed,
  relayURL: string | null = null,
): ModelConfig {
  if (settings.provider === 'demo') return { provider: 'demo', speed };
  return {
    provider: 'anthropic',
    apiKey: settings.apiKey.trim(),
    baseURL: settings.baseURL.trim(),
    model: settings.model.trim(),
    ...(settings.thinking ? { thinking: { budgetTokens: settings.thinkingBudget } } : {}),
    ...(settings.cache ? { cache: true } : {}),
    ...(relayURL && (settings.relay ? { relayURL } : { offerRelay: true })),
  };
}

/** Removes a secret from text that may be shown, logged or exported. */
export function scrub(text: string, secret: string): string {
  return secret.length >= 4 ? text.split(secret).join('[api key]') : text;
}
