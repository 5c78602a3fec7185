/**
 * Provider presets: Anthropic-compatible endpoints learners bring keys for (the table of
 * docs/real-model.md).
 * A preset fills the base URL and suggests model ids; it also says whether the endpoint lets a
 * browser call it (CORS), or needs the relay of this page's server (src/models/relay.ts).
 */
/**
 * What the endpoint answers a browser:
 *   allowed     browser calls work (it sends CORS headers);
 *   configured  they work once the endpoint is told this page's origin (Ollama's OLLAMA_ORIGINS);
 *   refused     no CORS: only the relay reaches it;
 *   unknown     not checked: try it; a CORS failure then offers the relay.
 */
export type BrowserCalls = 'allowed' | 'configured' | 'refused' | 'unknown';

export interface ProviderPreset {
  id: string;
  /** The provider's own name (not translated). */
  name: string;
  /** '' for Custom: the base URL stays as typed. */
  baseURL: string;
  /** Example model ids; any id the endpoint knows works. */
  models: string[];
  browserCalls: BrowserCalls;
}

export const PRESETS: readonly ProviderPreset[] = [
  {
    id: 'anthropic',
    name: 'Anthropic',
    baseURL: 'https://api.anthropic.com',
    models: ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5'],
    browserCalls: 'allowed',
  },
  {
    id: 'deepseek',
    name: 'DeepSeek',
    baseURL: 'https://api.deepseek.com/anthropic',
    models: ['deepseek-v4-flash'],
    browserCalls: 'unknown',
  },
  {
    id: 'moonshot',
    name: 'Moonshot (Kimi)',
    baseURL: 'https://api.moonshot.ai/anthropic',
    models: ['kimi-k2-turbo-preview'],
    browserCalls: 'unknown',
  },
  {
    id: 'minimax',
    name: 'MiniMax',
    baseURL: 'https://api.minimax.io/anthropic',
    models: ['MiniMax-M2.7'],
    browserCalls: 'unknown',
  },
  {
    id: 'dashscope',
    name: 'DashScope (Qwen)',
    baseURL: 'https://dashscope.aliyuncs.com/apps/anthropic',
    models: ['qwen3.5-plus'],
    browserCalls: 'refused',
  },
  {
    id: 'ollama',
    name: 'Ollama (local)',
    baseURL: 'http://localhost:11434',
    models: ['qwen3-coder', 'gpt-oss:20b'],
    browserCalls: 'configured',
  },
  {
    id: 'openrouter',
    name: 'OpenRouter',
    baseURL: 'https://openrouter.ai/api',
    models: ['anthropic/claude-sonnet-4.5', 'qwen/qwen3-coder'],
    browserCalls: 'unknown',
  },
  { id: 'custom', name: 'Custom', baseURL: '', models: [], browserCalls: 'unknown' },
];

export const CUSTOM_PRESET = PRESETS[PRESETS.length - 1];

/** The preset whose base URL this is (trailing slashes aside), else Custom. */
export function presetFor(baseURL: string): ProviderPreset {
  const url = baseURL.trim().replace(/\/+$/, '');
  return PRESETS.find((preset) => preset.baseURL && preset.baseURL === url) ?? CUSTOM_PRESET;
}

/** Whether an endpoint is reachable from a browser only through the relay. */
export function needsRelay(preset: ProviderPreset): boolean {
  return preset.browserCalls === 'refused';
}
