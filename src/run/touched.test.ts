import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Trace } from '../models/replay';
import { traceRecord } from './example';
import { touchedFiles } from './touched';

const trace: Trace = JSON.parse(
  readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
);

describe('what a run touched', () => {
  it('lists the recorded example’s files from its own tool calls, in the learn-claude-code repository', async () => {
    const { record } = await traceRecord(trace);
    const touched = touchedFiles(record);
    const root = '/home/user/learn-claude-code';
    expect(touched.filter((t) => t.how === 'read')).toEqual([
      { path: `${root}/requirements.txt`, how: 'read', agent: 'subagent-1' },
      { path: `${root}/test_calc.py`, how: 'read', agent: 'subagent-1' },
    ]);
    expect(touched).toContainEqual({ path: `${root}/test_output`, how: 'ls', agent: 'subagent-1' });
    expect(touched).toContainEqual({ path: `${root}/web`, how: 'ls', agent: 'subagent-1' });
    // Never the sample project's files, never a glob or a redirect.
    expect(touched.every((t) => t.path.startsWith(root))).toBe(true);
    expect(touched.some((t) => t.path.includes('*') || t.path.startsWith('/dev/'))).toBe(false);
  });
});
