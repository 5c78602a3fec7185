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

describe('what an opened Claude Code session touched', () => {
  it('lists its tools’ files with what the transcript holds of them', async () => {
    const { interleavedSession } = await import('../../scripts/claude-sessions.mjs');
    const { sessionRecord } = await import('./claude-code');
    const files = Object.entries(interleavedSession()).map(([path, text]) => ({ path, text }));
    const touched = touchedFiles(sessionRecord(files).record, { content: true });
    const root = '/home/learner/tests-tour';
    expect(touched).toEqual([
      {
        path: `${root}/tests/test_a.py`,
        how: 'read',
        agent: 'parent',
        content: '     1\tdef test_a():\n     2\t    assert add(1, 2) == 3\n',
      },
      { path: `${root}/notes.md`, how: 'write', agent: 'parent', content: '# Tests\n- tests/test_a.py\n' },
      {
        path: `${root}/tests/test_b.py`,
        how: 'read',
        agent: 'subagent-1',
        content: '     1\tdef test_b():\n     2\t    assert b(1, 0) == 0\n',
      },
    ]);
  });
});
