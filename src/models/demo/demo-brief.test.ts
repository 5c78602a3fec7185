/**
 * The prompt that explores more (src/ui/sample-prompts.ts): in every language the demo reads every
 * file of the sample with real tool calls and returns one line, so the parent keeps little while a
 * single agent keeps every file.
 */
import { describe, expect, it } from 'vitest';
import { demoRecord } from '../../../test/demo-run';
import { runTotals } from '../../run/measures';
import { loadSample } from '../../sandbox/samples';
import { exploresMore } from '../../ui/sample-prompts';

describe('the prompt that explores more', () => {
  for (const language of ['en', 'zh', 'ja'] as const) {
    for (const sample of ['python', 'typescript'] as const) {
      it(`reads every file and saves most of the parent's context (${language}, ${sample})`, async () => {
        const prompt = exploresMore(language);
        const isolated = await demoRecord(prompt, { sample });
        const none = await demoRecord(prompt, { sample, context: 'none' });
        const files = Object.keys(loadSample(sample)).sort();
        const read = (record: typeof isolated, agent: string) =>
          record.events
            .flatMap((e) =>
              e.type === 'tool_start' && e.name === 'read_file' && e.agent === agent
                ? [String((e.input as { path?: unknown }).path)]
                : [],
            )
            .sort();
        expect(read(isolated, 'subagent-1')).toEqual(files);
        expect(read(isolated, 'parent')).toEqual([]);
        expect(read(none, 'parent')).toEqual(files);
        const saving = 1 - runTotals(isolated).parentContext / runTotals(none).parentContext;
        expect(saving).toBeGreaterThan(0.7);
      });
    }
  }
});
