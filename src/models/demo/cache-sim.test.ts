import { describe, expect, it } from 'vitest';
import {
  LIFETIME_MS,
  minCacheable,
  PromptCache,
  simulateCache,
  type SimBlock,
  type SimRequest,
} from './cache-sim';

const MODEL = 'claude-sonnet-5-5'; // minimum 1,024 tokens

function block(key: string, tokens: number, breakpoint = false): SimBlock {
  return { key, tokens, breakpoint };
}

/** tools (600) + system (600), both marked, then the messages, the last one marked. */
function request(t: number, messages: Array<[string, number]>, model = MODEL): SimRequest {
  return {
    t,
    model,
    output: 50,
    blocks: [
      block('tools', 600, true),
      block('system', 600, true),
      ...messages.map(([key, tokens], i) => block(key, tokens, i === messages.length - 1)),
    ],
  };
}

describe('the simulated prompt cache', () => {
  it('does not cache a prefix below the minimum cacheable length', () => {
    const short: SimRequest = {
      t: 0,
      model: MODEL,
      output: 5,
      blocks: [block('system', 900, true), block('hi', 10, true)],
    };
    expect(minCacheable(MODEL)).toBe(1024);
    const [first, second] = simulateCache([short, { ...short, t: 1000 }]);
    expect(first).toEqual({
      input_tokens: 910,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 5,
    });
    expect(second).toEqual(first);
  });

  it('writes a prefix the first time, and reads it when the same prefix comes again within 5 minutes', () => {
    const [first, second] = simulateCache([request(0, [['u1', 100]]), request(60_000, [['u1', 100]])]);
    expect(first).toEqual({
      input_tokens: 0,
      cache_creation_input_tokens: 1300,
      cache_read_input_tokens: 0,
      output_tokens: 50,
    });
    expect(second).toEqual({
      input_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 1300,
      output_tokens: 50,
    });
  });

  it('reads the conversation so far and writes only what was added since', () => {
    const [, next] = simulateCache([
      request(0, [['u1', 100]]),
      request(1000, [
        ['u1', 100],
        ['a1', 40],
        ['r1', 200],
      ]),
    ]);
    expect(next).toMatchObject({
      cache_read_input_tokens: 1300,
      cache_creation_input_tokens: 240,
      input_tokens: 0,
    });
  });

  it('writes anew when the prefix changed, reading only the part that is still the same', () => {
    const [, changed] = simulateCache([request(0, [['u1', 100]]), request(1000, [['u1 edited', 100]])]);
    // tools + system (1,200 tokens) were cached at the system breakpoint: read; the changed message is written.
    expect(changed).toMatchObject({ cache_read_input_tokens: 1200, cache_creation_input_tokens: 100 });
    const [, otherTools] = simulateCache([
      request(0, [['u1', 100]]),
      {
        ...request(1000, [['u1', 100]]),
        blocks: [block('other tools', 600, true), ...request(0, [['u1', 100]]).blocks.slice(1)],
      },
    ]);
    expect(otherTools).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 1300 });
  });

  it('forgets an entry 5 minutes after its last use; a read renews it', () => {
    const cache = new PromptCache();
    cache.send(request(0, [['u1', 100]]));
    expect(cache.send(request(LIFETIME_MS - 1, [['u1', 100]])).cache_read_input_tokens).toBe(1300);
    // Renewed by that read: still there 5 minutes after it, not after the write.
    expect(cache.send(request(2 * LIFETIME_MS - 2, [['u1', 100]])).cache_read_input_tokens).toBe(1300);
    const late = cache.send(request(4 * LIFETIME_MS, [['u1', 100]]));
    expect(late).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 1300 });
  });

  it('keeps one cache per model', () => {
    const [, other] = simulateCache([
      request(0, [['u1', 100]]),
      request(1000, [['u1', 100]], 'claude-opus-5-5'),
    ]);
    expect(other).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 1300 });
  });

  it('reports a request without breakpoints as uncached input', () => {
    const plain: SimRequest = { t: 0, model: MODEL, output: 1, blocks: [block('a', 2000), block('b', 10)] };
    expect(simulateCache([plain, plain])[1]).toMatchObject({
      input_tokens: 2010,
      cache_read_input_tokens: 0,
    });
  });
});
