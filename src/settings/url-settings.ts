/**
 * Page settings from the URL (docs/automation-contract.md). They override stored settings for one page load.
 * An API key is never read from, or written to, a URL.
 */
import {
  CONTEXT_MODES,
  LIMIT_RANGES,
  limitProblem,
  SUBAGENTS_AT_ONCE,
  subagentsAtOnceProblem,
  type ContextMode,
  type LoopLimits,
} from '../core/variants';
import { SPEEDS, type DemoSpeed } from './demo-speed';
import type { SampleName } from '../sandbox/samples';
import { LANGUAGES, type Language } from './language';

export type Provider = 'demo' | 'anthropic';
export type SandboxChoice = 'auto' | 'local' | 'webcontainer';

export interface UrlSettings {
  provider?: Provider;
  baseURL?: string;
  model?: string;
  sandbox: SandboxChoice;
  sample: SampleName;
  speed: DemoSpeed;
  /** Whether the URL named a valid `speed` (it then overrides the stored `Demo speed`). */
  speedGiven: boolean;
  /** `wcTimeout`: how long to wait for WebContainer to boot, in ms (tests shorten it). */
  webContainerTimeoutMs?: number;
  /** `context`: how the parent's work is split (docs/protocol.md, teaching variants). */
  context: ContextMode;
  /** The loop limits the URL sets (`cap`, `cut`, `maxTokens`, `depth`); the rest stay as they are. */
  limits: Partial<LoopLimits>;
  /** `parallel`: how many subagents of a run may work at once (SUBAGENTS_AT_ONCE). */
  subagentsAtOnce?: number;
  /** `lang`: the screen's language for this page load (see language.ts for the rest of the choice). */
  lang?: Language;
  /** `embed=1`: a run for an iframe, read-only, with no sandbox and no worker (src/ui/Embed.svelte). */
  embed: boolean;
  /** `record`: the address of an exported run to open (checked and fetched by src/run/fetch-record.ts). */
  record?: string;
  /** `cache=on|off`: prompt caching for this page load (overrides the stored choice). */
  cache?: boolean;
  /** `step`: the step of the opened run to show (a `record`, or a run in the URL's fragment). */
  step?: number;
  /** `ahead=off`: the page does nothing ahead of time, only later (src/page/ahead.ts); on by default. */
  ahead: boolean;
  /** Values that were given but not understood, to tell the user. */
  ignored: string[];
}

export const DEFAULT_MODEL = 'claude-sonnet-5-5';
export const DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** The URL parameter of each loop limit. */
export const LIMIT_PARAMS: Record<keyof LoopLimits, string> = {
  subagentMaxCalls: 'cap',
  outputChars: 'cut',
  maxTokens: 'maxTokens',
  delegationDepth: 'depth',
};

function oneOf<T extends string>(value: string | null, options: readonly T[]): T | undefined {
  return options.find((option) => option === value);
}

export function readUrlSettings(search: string): UrlSettings {
  const params = new URLSearchParams(search);
  const ignored: string[] = [];
  const pick = <T extends string>(name: string, options: readonly T[]): T | undefined => {
    const raw = params.get(name);
    if (raw === null) return undefined;
    const value = oneOf(raw, options);
    if (!value) ignored.push(`${name}=${raw}`);
    return value;
  };
  const baseURL = params.get('baseURL') ?? undefined;
  if (baseURL !== undefined && !/^https?:\/\/\S+$/.test(baseURL)) ignored.push(`baseURL=${baseURL}`);
  const wcTimeout = params.get('wcTimeout');
  const webContainerTimeoutMs = wcTimeout === null ? undefined : Number(wcTimeout);
  const timeoutOk =
    webContainerTimeoutMs !== undefined &&
    Number.isInteger(webContainerTimeoutMs) &&
    webContainerTimeoutMs > 0 &&
    webContainerTimeoutMs <= 300_000;
  if (wcTimeout !== null && !timeoutOk) ignored.push(`wcTimeout=${wcTimeout}`);
  const limits: Partial<LoopLimits> = {};
  for (const key of Object.keys(LIMIT_PARAMS) as Array<keyof LoopLimits>) {
    const raw = params.get(LIMIT_PARAMS[key]);
    if (raw === null) continue;
    const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (limitProblem(key, value)) {
      const { min, max } = LIMIT_RANGES[key];
      ignored.push(`${LIMIT_PARAMS[key]}=${raw} (${min} to ${max})`);
    } else limits[key] = value;
  }
  const parallel = params.get('parallel');
  const subagentsAtOnce = parallel !== null && /^\d+$/.test(parallel) ? Number(parallel) : undefined;
  if (parallel !== null && subagentsAtOnceProblem(subagentsAtOnce)) {
    ignored.push(`parallel=${parallel} (${SUBAGENTS_AT_ONCE.min} to ${SUBAGENTS_AT_ONCE.max})`);
  }
  const embed = pick('embed', ['1'] as const) === '1';
  const cache = pick('cache', ['on', 'off'] as const);
  const step = params.get('step');
  const stepOk = step !== null && /^\d{1,9}$/.test(step);
  if (step !== null && !stepOk) ignored.push(`step=${step}`);
  return {
    provider: pick('provider', ['demo', 'anthropic'] as const),
    baseURL: baseURL && /^https?:\/\/\S+$/.test(baseURL) ? baseURL : undefined,
    model: params.get('model')?.trim() || undefined,
    sandbox: pick('sandbox', ['auto', 'local', 'webcontainer'] as const) ?? 'auto',
    sample: pick('sample', ['python', 'typescript'] as const) ?? 'python',
    speed: pick('speed', SPEEDS) ?? 'normal',
    speedGiven: oneOf(params.get('speed'), SPEEDS) !== undefined,
    webContainerTimeoutMs: timeoutOk ? webContainerTimeoutMs : undefined,
    context: pick('context', CONTEXT_MODES) ?? 'isolated',
    limits,
    subagentsAtOnce: subagentsAtOnceProblem(subagentsAtOnce) ? undefined : subagentsAtOnce,
    lang: pick('lang', LANGUAGES),
    embed,
    record: params.get('record') || undefined,
    step: stepOk ? Number(step) : undefined,
    ahead: pick('ahead', ['on', 'off'] as const) !== 'off',
    ...(cache && { cache: cache === 'on' }),
    ignored,
  };
}
