/** Checking a module against its test: the parent's own verification, read from the two files' text. */
import { basename, PY } from './project';

export interface StaticCheck {
  /** Names the test imports from the module. */
  imported: string[];
  /** Names the module defines. */
  defined: string[];
  missing: string[];
  /** The import as written in the test, e.g. `textstats` or `../src/textstats`. */
  from?: string;
  tests: string[];
  framework: string;
}

/** Does the test import only what the module defines? Read from the two files' text. */
export function checkModuleAgainstTest(
  modulePath: string,
  moduleText: string,
  testText: string,
): StaticCheck {
  const stem = basename(modulePath).replace(/\.[^.]+$/, '');
  const python = PY.test(modulePath);
  const defined = python
    ? [...moduleText.matchAll(/^(?:async\s+)?def\s+(\w+)|^class\s+(\w+)/gm)].map((m) => m[1] ?? m[2])
    : [
        ...moduleText.matchAll(
          /^export\s+(?:default\s+)?(?:async\s+)?(?:function\*?|class|const|let|var|interface|type|enum)\s+(\w+)/gm,
        ),
      ].map((m) => m[1]);
  let imported: string[] = [];
  let from: string | undefined;
  if (python) {
    const m = new RegExp(
      `^[ \\t]*from[ \\t]+([\\w.]*\\b${stem})[ \\t]+import[ \\t]+(?:\\(([^)]*)\\)|([\\w, \\t]+))`,
      'm',
    ).exec(testText);
    if (m) {
      from = m[1];
      imported = (m[2] ?? m[3])
        .split(',')
        .map((s) => s.trim().split(/\s+as\s+/)[0])
        .filter(Boolean);
    }
  } else {
    const m = new RegExp(
      `import\\s*\\{([^}]*)\\}\\s*from\\s*['"]([^'"]*\\b${stem}(?:\\.[cm]?[jt]s)?)['"]`,
    ).exec(testText);
    if (m) {
      from = m[2];
      imported = m[1]
        .split(',')
        .map(
          (s) =>
            s
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0],
        )
        .filter(Boolean);
    }
  }
  const tests = python
    ? [...testText.matchAll(/^\s*(?:async\s+)?def\s+(test\w*)/gm)].map((m) => m[1])
    : [...testText.matchAll(/^\s*(?:it|test)(?:\.\w+)?\(\s*(['"`])(.*?)\1/gm)].map((m) => m[2]);
  const framework = python
    ? /^\s*import\s+unittest|unittest\.TestCase/m.test(testText)
      ? 'unittest'
      : 'pytest'
    : /from\s+['"]vitest['"]/.test(testText)
      ? 'vitest'
      : /from\s+['"]node:test['"]/.test(testText)
        ? 'node:test'
        : /from\s+['"]@jest\/globals['"]/.test(testText)
          ? 'jest'
          : 'jest';
  return { imported, defined, missing: imported.filter((n) => !defined.includes(n)), from, tests, framework };
}
