/**
 * The tool layer's own checks: inputs the model got wrong become `Error: ...` results naming the
 * field. What the tools do on a sandbox (docs/protocol.md, "The tools") is the sandbox contract,
 * test/sandbox-contract.ts, which every backend runs (local.contract.test.ts,
 * webcontainer.contract.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { create, type LocalSandbox } from '../sandbox/local';
import { loadSample } from '../sandbox/samples';
import { runTool } from './loop';
import { baseToolHandlers, CHILD_TOOLS, type ToolHandler } from './tools';

let sandbox: LocalSandbox;
let handlers: Record<string, ToolHandler>;
let ids = 0;

/** One tool call as the loop makes it: the result string the model sees. */
function call(name: string, input: unknown): Promise<string> {
  return runTool(handlers, { type: 'tool_use', id: `toolu_${++ids}`, name, input }, 'parent');
}

beforeEach(async () => {
  sandbox = await create(loadSample('python'));
  handlers = baseToolHandlers(sandbox);
});
afterEach(() => sandbox.dispose());

describe('malformed input', () => {
  it.each([
    ['bash', {}, 'command'],
    ['bash', { command: 42 }, 'command'],
    ['read_file', { path: ['a'] }, 'path'],
    ['read_file', { path: 'README.md', limit: '3' }, 'limit'],
    ['read_file', { path: 'README.md', limit: 1.5 }, 'limit'],
    ['write_file', { path: 'a.txt' }, 'content'],
    ['edit_file', { path: 'a.txt', old_text: 'x' }, 'new_text'],
  ])('%s %j -> an error naming %s', async (name, input, field) => {
    const result = await call(name, input);
    expect(result).toMatch(/^Error: /);
    expect(result).toContain(`'${field}'`);
  });

  it.each([null, 'ls', ['ls'], 7])('rejects a non-object input %j', async (input) => {
    for (const tool of CHILD_TOOLS) {
      const result = await call(tool.name, input);
      expect(result).toMatch(new RegExp(`^Error: ${tool.name} expects an object input`));
    }
  });
});
