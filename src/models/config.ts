/** Which model drives the loops, as the page hands it to each agent worker. */
export type Speed = 'instant' | 'normal' | 'slow';

/** Which model drives the loops. An API key travels only inside this, never in a URL. */
export type ModelConfig =
  /** `gate`: the presenter's hold on a live demo run (src/models/demo/gate.ts), when presented. */
  | { provider: 'demo'; speed: Speed; gate?: Int32Array }
  | {
      provider: 'anthropic';
      apiKey: string;
      baseURL: string;
      model: string;
      /** Extended thinking with this token budget; off when absent. */
      thinking?: { budgetTokens: number };
      /** Calls go through this relay (this page's server, src/models/relay.ts) to `baseURL`. */
      relayURL?: string;
      /** A relay is there but not used: a failure that looks like CORS says to tick it. */
      offerRelay?: boolean;
      /** Prompt caching: cache breakpoints in every request (src/models/cache-breakpoints.ts). */
      cache?: boolean;
    };
