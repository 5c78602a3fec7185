import { describe, expect, it } from 'vitest';
import { demoRecord } from '../../../test/demo-run';
import type { Message } from '../../core/messages';
import { isolationCheck } from '../../run/isolation';
import { reduceAll } from '../../run/reduce-range';
import { CODEWORD_PROMPTS } from './codeword';

/** The text of the parent's last reply. */
function lastWords(messages: readonly Message[]): string {
  const last = messages.at(-1)!;
  return typeof last.content === 'string'
    ? last.content
    : last.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

describe('the planted code word', () => {
  it.each(['en', 'zh', 'ja'] as const)(
    'in %s: an isolated subagent cannot tell it, a forked one can',
    async (lang) => {
      const prompt = CODEWORD_PROMPTS[lang];
      const isolated = await demoRecord(prompt);
      const forked = await demoRecord(prompt, { context: 'fork' });
      const [isolatedChild] = reduceAll(isolated.events).subagents;
      const [forkedChild] = reduceAll(forked.events).subagents;
      // The task prompt the parent wrote does not hold the word: only a fork child's array does.
      expect(isolatedChild.summary).not.toContain('PELICAN-42');
      expect(forkedChild.summary).toContain('PELICAN-42');
      expect(lastWords(reduceAll(isolated.events).parent.messages)).not.toMatch(
        /is PELICAN-42|是 PELICAN-42|は PELICAN-42/,
      );
      // The isolation check says why: nothing of the parent carried, against the parent's prompt carried.
      expect(isolationCheck(isolated).agents[0].carriedMessages).toBe(0);
      expect(isolationCheck(forked).agents[0].carriedMessages).toBe(1);
    },
  );

  it('answered alone (no subagent), the parent reads the word from its own array', async () => {
    const record = await demoRecord(CODEWORD_PROMPTS.en, { context: 'none' });
    expect(lastWords(reduceAll(record.events).parent.messages)).toBe('The code word is PELICAN-42.');
  });
});
