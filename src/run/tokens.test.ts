import { readFileSync } from 'node:fs';
import { getTokenizer } from '@anthropic-ai/tokenizer';
import { afterAll, describe, expect, it } from 'vitest';
import { textTokens } from './tokens';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

// One encoder for the file: `countTokens` makes a new one for every text.
const tokenizer = getTokenizer();
afterAll(() => tokenizer.free());
/** Anthropic's published tokenizer's count, as its `countTokens` makes it. */
const counted = (text: string) => tokenizer.encode(text.normalize('NFKC'), 'all').length;

/** Every string of a JSON value (the demo model's words). */
function strings(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) strings(item, into);
  return into;
}

/** The estimate against the tokenizer over many texts: their sums' ratio. */
function ratio(texts: string[]): number {
  const estimated = texts.reduce((sum, text) => sum + textTokens(text), 0);
  return estimated / texts.reduce((sum, text) => sum + counted(text), 0);
}

describe('the token estimator against Anthropic’s tokenizer', () => {
  it('is within 10% on what a request carries: the recorded reference run’s messages as JSON', () => {
    const trace = JSON.parse(read('../../public/traces/s04.json')) as {
      cycles: Array<{ request: { messages: unknown[] } }>;
    };
    const messages = trace.cycles.flatMap((cycle) => cycle.request.messages.map((m) => JSON.stringify(m)));
    expect(ratio(messages)).toBeGreaterThan(0.9);
    expect(ratio(messages)).toBeLessThan(1.1);
  });

  // English prose is overestimated (about 3.9 characters a token, not 3): what a request carries
  // is mostly JSON and code, where 3 holds; the bound says how far prose is off.
  it.each([
    ['en', 1.35],
    ['zh', 1.25],
    ['ja', 1.25],
  ])('is within bounds on the demo model’s words in %s, sent as messages', (lang, most) => {
    const words = strings(JSON.parse(read(`../models/demo/words/${lang}.json`)));
    const messages = words.map((text) =>
      JSON.stringify({ role: 'assistant', content: [{ type: 'text', text }] }),
    );
    expect(ratio(messages)).toBeGreaterThan(0.8);
    expect(ratio(messages)).toBeLessThan(most);
  });
});
