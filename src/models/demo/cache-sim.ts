/**
 * The demo model's prompt cache: what Anthropic's API would report for a run's requests with
 * prompt caching on, by the rules its prompt caching docs give, so that the demo can teach what a
 * cache read costs without an API. The figures are simulated and the screen says so.
 *
 * A request is its blocks in the order the API reads them (tools, system, then the messages),
 * some followed by a breakpoint (`cache_control`). The rules:
 *   - a prefix is cached at a breakpoint only if it holds at least the model's minimum cacheable
 *     length (MIN_CACHEABLE); shorter, the request is all uncached input;
 *   - a later request reads the longest cached prefix that is exactly its own, found at a block
 *     boundary from a breakpoint back up to LOOKBACK blocks;
 *   - the rest up to its last breakpoint is written (cache creation), the blocks after it are
 *     uncached input;
 *   - an entry lives 5 minutes (LIFETIME_MS) from its last use, a read renewing it; caches are
 *     per model.
 * Pure and deterministic: the same requests, at the same times, give the same usage.
 */

/** One block of a request: its identity (equal keys mean identical bytes) and its tokens. */
export interface SimBlock {
  key: string;
  tokens: number;
  /** A `cache_control` breakpoint follows this block. */
  breakpoint: boolean;
}

export interface SimRequest {
  /** When it was sent, in ms (any origin, the same for every request of the sequence). */
  t: number;
  model: string;
  blocks: SimBlock[];
  /** Its reply's tokens (reported as output_tokens). */
  output: number;
}

/** The usage the API reports, as the demo simulates it. */
export interface SimUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
}

/** A 5-minute cache entry lives this long after its last use. */
export const LIFETIME_MS = 5 * 60_000;

/** How many blocks before a breakpoint the API looks for an earlier cached prefix. */
export const LOOKBACK = 20;

/**
 * The minimum cacheable prompt per model, in tokens. The documented figure of the model's family
 * where one is published for it (Opus 5: 512; Sonnet 5: 1,024; Haiku 4.5: 4,096), else 1,024.
 */
export const MIN_CACHEABLE: Readonly<Record<string, number>> = {
  'claude-opus-5-5': 512,
  'claude-sonnet-5-5': 1024,
  'claude-haiku-5-5': 4096,
};
const DEFAULT_MIN = 1024;

export function minCacheable(model: string): number {
  return MIN_CACHEABLE[model] ?? DEFAULT_MIN;
}

/** FNV-1a over a string, continuing from `seed`: a prefix's key grows one block at a time. */
function hash(seed: number, text: string): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h;
}

/** The cache of one page: prefix key → when it expires. Feed it requests in the order they were sent. */
export class PromptCache {
  readonly #entries = new Map<string, number>();

  /** The usage the API would report for `request`; the cache is updated as the API would update it. */
  send(request: SimRequest): SimUsage {
    const { blocks, t } = request;
    const total = blocks.reduce((sum, b) => sum + b.tokens, 0);
    const usage = (read: number, write: number): SimUsage => ({
      input_tokens: total - read - write,
      cache_creation_input_tokens: write,
      cache_read_input_tokens: read,
      output_tokens: request.output,
    });
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    if (breakpoints.length === 0) return usage(0, 0);

    // Each prefix's key and its tokens, block by block (the model is part of the key).
    const keys: string[] = [];
    const upTo: number[] = [];
    let h = hash(2166136261, request.model);
    let tokens = 0;
    for (const block of blocks) {
      h = hash(h, `\u0000${block.key.length}:${block.key}`);
      tokens += block.tokens;
      keys.push(`${request.model}#${h.toString(36)}#${tokens}`);
      upTo.push(tokens);
    }

    // The longest live prefix at a boundary from a breakpoint back LOOKBACK blocks.
    let readAt = -1;
    for (const bp of breakpoints) {
      for (let i = bp; i >= Math.max(0, bp - LOOKBACK) && i > readAt; i--) {
        const expires = this.#entries.get(keys[i]);
        if (expires !== undefined && expires > t) {
          readAt = i;
          break;
        }
      }
    }
    const read = readAt >= 0 ? upTo[readAt] : 0;
    if (readAt >= 0) this.#entries.set(keys[readAt], t + LIFETIME_MS);

    const last = breakpoints[breakpoints.length - 1];
    const min = minCacheable(request.model);
    let write = 0;
    if (last > readAt && upTo[last] >= min) {
      write = upTo[last] - read;
      for (const bp of breakpoints) {
        if (bp > readAt && upTo[bp] >= min) this.#entries.set(keys[bp], t + LIFETIME_MS);
      }
    }
    return usage(read, write);
  }
}

/** The usage of each request of a sequence, the cache empty before the first. */
export function simulateCache(requests: readonly SimRequest[]): SimUsage[] {
  const cache = new PromptCache();
  return requests.map((request) => cache.send(request));
}
