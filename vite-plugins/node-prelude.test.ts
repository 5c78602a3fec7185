import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { bundlePrelude } from './node-prelude';

const ENTRY = fileURLToPath(new URL('../src/sandbox/runtimes/node-prelude/index.js', import.meta.url));

describe('the node prelude bundle', () => {
  it('has a chunk per lazy module, loaded apart from the main one', async () => {
    const { prelude } = await bundlePrelude(ENTRY);
    for (const name of ['index', 'inspect', 'util', 'assert', 'buffer', 'string_decoder'])
      expect(prelude.chunks, name).toHaveProperty(`${name}.js`);
    // What every run compiles: index.js and the chunks it requires, none of the lazy packages.
    const eager = new Set<string>();
    const visit = (name: string) => {
      if (eager.has(name)) return;
      eager.add(name);
      for (const [, file] of prelude.chunks[name].matchAll(/require\("\.\/([^"]+)"\)/g)) visit(file);
    };
    visit('index.js');
    const size = [...eager].reduce((sum, name) => sum + prelude.chunks[name].length, 0);
    expect(size).toBeLessThan(50_000);
  }, 30_000);
});
