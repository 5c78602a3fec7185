/**
 * What the page does ahead of time, in one place: work that changes no outcome, only when a
 * learner's click finds things ready.
 *
 * - the offline sandbox's worker, started before the app's screen is built (the built page's
 *   first script may have started it already: vite-plugins/early-sandbox.ts);
 * - the agents' worker script, fetched into the cache while the screen is built;
 * - the parent's worker and the first task's spare, started once the first screen is drawn;
 * - a spare subagent worker kept for the next task (`spare`, asked by the conversation), to which
 *   a run's first task goes straight from the parent's worker (src/page/conversation.ts, #offer);
 * - what the screen loads for later (`loads`): python3's runtime in idle time, the Markdown
 *   renderer and its first parse, the other languages' strings, the dialogs' code, the canvases'
 *   fonts (./warmup.svelte.ts schedules them; the screen says what they are: src/ui/loads-ahead.ts).
 *
 * One switch turns all of it off: `ahead=off` in the page's URL (docs/automation-contract.md).
 * The app then behaves the same, only later: the sandbox starts when the runtime asks for it,
 * an agent's worker when a run or a task needs it, python3 and the Markdown renderer on first use.
 * `npm run bench -- ahead` measures what the switch is worth (docs/benchmarks.md).
 *
 * The owners never look for what was started early: the page's wiring hands it to them (the early
 * sandbox to SandboxSession, the early agent workers to AgentWorkers).
 */
import type { AgentId } from '../core/messages';
import type { SampleName } from '../sandbox/samples';
import type { UrlSettings } from '../settings/url-settings';
import type { EarlyAgentWorker } from './agent-workers';
import type { LocalSandboxHost } from './local-sandbox';

/** What the built page's first script started, as it left it on the page's global object. */
export interface EarlyGlobals {
  __s04EarlySandbox?: Worker;
  __s04EarlyAgentScript?: Promise<void>;
}

/** A sandbox host as the seam holds it until the runtime takes it over. */
export interface EarlySandbox {
  readonly sample: SampleName;
  dispose(): void;
}

/** How the seam starts what it starts (the page's real workers; fakes in tests). */
export interface AheadStarters<Sandbox extends EarlySandbox, Agent> {
  /** The offline sandbox's host, over the worker the built page started if there is one. */
  sandbox(sample: SampleName, started?: Worker): Sandbox;
  /** An agent's worker, named `id`. */
  agent(id: AgentId): Agent;
  /** Fetches the agents' worker script into the cache; resolves once it is in (or could not be). */
  fetchAgentScript(): Promise<void>;
}

export class Ahead<Sandbox extends EarlySandbox = EarlySandbox, Agent = unknown> {
  /** The switch: false with `ahead=off`, and then nothing is done ahead. */
  readonly on: boolean;
  readonly #url: Pick<UrlSettings, 'sandbox' | 'embed' | 'sample' | 'context'>;
  readonly #start: AheadStarters<Sandbox, Agent>;
  readonly #globals: EarlyGlobals;
  #sandbox: Sandbox | undefined;
  #agentScript: Promise<void> | undefined;
  readonly #agents = new Map<AgentId, Agent>();
  /** The runtime has asked for an agent's worker: from then on it starts its own. */
  #agentsTaken = false;

  constructor(
    url: Pick<UrlSettings, 'sandbox' | 'embed' | 'sample' | 'context' | 'ahead'>,
    start: AheadStarters<Sandbox, Agent>,
    globals: EarlyGlobals = {},
  ) {
    this.on = url.ahead;
    this.#url = url;
    this.#start = start;
    this.#globals = globals;
  }

  /**
   * The offline sandbox is this page's (not WebContainer chosen, not an embedded run, which is a
   * record only and starts no worker).
   */
  get #offline(): boolean {
    return this.#url.sandbox !== 'webcontainer' && !this.#url.embed;
  }

  /** At once, before the screen is built (src/boot.ts): the sandbox, and the agents' script's fetch. */
  start(): void {
    if (!this.on || !this.#offline) return;
    this.#sandbox ??= this.#start.sandbox(this.#url.sample, this.#globals.__s04EarlySandbox);
    // The built page's first script may have started this fetch already, beside the page's own
    // script: a second one would download it again beside it.
    this.#agentScript ??= this.#globals.__s04EarlyAgentScript ?? this.#start.fetchAgentScript();
  }

  /**
   * Once the first screen is drawn and the agents' script is in: the parent's worker, and the first
   * task's spare (not in context mode `none`, which calls no task). Any earlier, on two cores, they
   * delay the first screen; started while the script still downloads, each fetches it again.
   */
  afterFirstScreen(): void {
    if (!this.on || !this.#offline) return;
    void this.agentScriptIn().then(() => {
      // Asked for already: those workers are running, more would only compete with them.
      if (this.#agentsTaken) return;
      const ids: AgentId[] = this.#url.context === 'none' ? ['parent'] : ['parent', 'subagent-1'];
      for (const id of ids) if (!this.#agents.has(id)) this.#agents.set(id, this.#start.agent(id));
    });
  }

  /**
   * Resolves once the agents' script fetched ahead is in; at once when none is fetched. What a
   * first run can do without (the Markdown renderer, the chart library) waits for it: on a slow
   * link, fetched side by side, they share the bandwidth.
   */
  agentScriptIn(): Promise<void> {
    return this.#agentScript ?? Promise.resolve();
  }

  /** The sandbox started ahead if it holds `sample` (it is the caller's now), else none. */
  takeSandbox(sample: SampleName): Sandbox | undefined {
    const early = this.#sandbox;
    this.#sandbox = undefined;
    if (early?.sample === sample) return early;
    early?.dispose();
    return undefined;
  }

  /** The agent's worker started ahead under the name `id` (it is the caller's now), if there is one. */
  takeAgent(id: AgentId): Agent | undefined {
    this.#agentsTaken = true;
    const early = this.#agents.get(id);
    this.#agents.delete(id);
    return early;
  }

  /** Whether a spare subagent worker is kept for the next task. */
  get spare(): boolean {
    return this.on;
  }

  /** Whether the screen loads what it will need later (python3, Markdown, languages, dialogs, fonts). */
  get loads(): boolean {
    return this.on;
  }
}

/** The seam of this page, once src/boot.ts has made it. */
let page: Ahead<LocalSandboxHost, EarlyAgentWorker> | undefined;

/**
 * Makes this page's seam from its URL and what the built page's first script started, and starts
 * what it does at once (src/boot.ts, before the screen is built).
 */
export function startPageAhead(
  url: UrlSettings,
  start: AheadStarters<LocalSandboxHost, EarlyAgentWorker>,
  globals: EarlyGlobals,
): Ahead<LocalSandboxHost, EarlyAgentWorker> {
  page = new Ahead(url, start, globals);
  page.start();
  return page;
}

/** This page's seam; one that does nothing where none was made (an embedded run, a test). */
export function pageAhead(): Ahead<LocalSandboxHost, EarlyAgentWorker> {
  page ??= new Ahead(
    { sandbox: 'auto', embed: false, sample: 'python', context: 'isolated', ahead: false },
    {
      sandbox: () => {
        throw new Error('nothing is started ahead on this page');
      },
      agent: () => {
        throw new Error('nothing is started ahead on this page');
      },
      fetchAgentScript: () => Promise.resolve(),
    },
  );
  return page;
}

/** Resolves once this page's agents' script fetched ahead is in; at once when none is. */
export function agentScriptFetched(): Promise<void> {
  return pageAhead().agentScriptIn();
}
