/**
 * Every end-to-end spec takes `test` from e2e/fixtures.ts, whose automatic `watch` fails a test on
 * a console error it did not allow and on a request leaving the machine. A spec importing `test`
 * from '@playwright/test' would run unwatched. (e2e-webcontainer/ is apart: it needs the internet.)
 *
 * And none reads the page's internals (`window.__s04`, the page's first script's handoffs) or
 * sleeps: they drive the page through docs/automation-contract.md and wait on what it marks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const E2E = resolve(import.meta.dirname, '../e2e');
const specs = readdirSync(E2E).filter((name) => name.endsWith('.spec.ts'));

/** The names a source imports as values (not `import type`) from a module. */
function valueImports(source: string, from: string): string[] {
  const names: string[] = [];
  for (const m of source.matchAll(/^import\s+(?!type\b)\{([^}]*)\}\s+from\s+['"]([^'"]+)['"]/gm)) {
    if (m[2] !== from) continue;
    for (const part of m[1].split(',')) {
      const name = part.trim();
      if (name && !name.startsWith('type ')) names.push(name.split(/\s+as\s+/)[0]);
    }
  }
  return names;
}

describe('the end-to-end specs', () => {
  it('are found', () => {
    expect(specs.length).toBeGreaterThan(10);
  });

  it.each(specs)('%s takes test from ./fixtures, watched', (spec) => {
    const source = readFileSync(join(E2E, spec), 'utf8');
    expect(valueImports(source, '@playwright/test')).not.toContain('test');
    expect(valueImports(source, './fixtures')).toContain('test');
  });

  const sources = [...specs, 'fixtures.ts'].map((name) => [name, readFileSync(join(E2E, name), 'utf8')]);

  it.each(sources)('%s reads no internals of the page and never sleeps', (_, source) => {
    // The test build's record= timeouts are in the contract (a URL parameter's companion).
    expect(source.match(/__s04(?!RecordTimeouts\b)\w*/g) ?? []).toEqual([]);
    expect(source).not.toMatch(/waitForTimeout\(/);
  });

  it('reads value and type imports apart', () => {
    const source =
      "import { expect, test } from '@playwright/test';\nimport type { Page } from '@playwright/test';\n";
    expect(valueImports(source, '@playwright/test')).toEqual(['expect', 'test']);
  });

  it('the watch is automatic', () => {
    const fixtures = readFileSync(join(E2E, 'fixtures.ts'), 'utf8');
    expect(fixtures).toMatch(/\{ auto: true \}/);
  });
});
