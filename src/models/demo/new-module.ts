/**
 * A new module that fits the project: where it and its test go, and their text, written in the
 * project's language and test style from the templates in templates/.
 */
import { fill } from './fill';
import { basename, dirname, isTestFile, join, JS, PY, TS, type Language, type Reads } from './project';
import PYTHON_MODULE from './templates/readability.py.tmpl?raw';
import SCRIPT_MODULE from './templates/readability.ts.tmpl?raw';
import SCRIPT_ASSERT_TEST from './templates/readability.assert.test.ts.tmpl?raw';
import SCRIPT_EXPECT_TEST from './templates/readability.expect.test.ts.tmpl?raw';
import PYTHON_PYTEST from './templates/test_readability.pytest.py.tmpl?raw';
import PYTHON_UNITTEST from './templates/test_readability.unittest.py.tmpl?raw';

export interface ModulePlan {
  language: Language;
  framework: string;
  modulePath: string;
  testPath: string;
  /** The existing test whose style was copied, if any. */
  styleFrom?: string;
  moduleText: string;
  testText: string;
}

/** A module name not taken yet: `readability`, else `readability2`, ... */
export function freeModuleName(files: string[], base = 'readability'): string {
  const taken = new Set(
    files.map((f) =>
      basename(f)
        .replace(/\.[^.]*$/, '')
        .replace(/^test_|\.(test|spec)$/, ''),
    ),
  );
  for (let i = 1; ; i++) {
    const name = i === 1 ? base : `${base}${i}`;
    if (!taken.has(name)) return name;
  }
}

/** Chooses where the new module and its test go, and writes them in the project's style. */
export function planModule(files: string[], reads: Reads, language: Language, framework: string): ModulePlan {
  const name = freeModuleName(files);
  return language === 'python'
    ? planPython(files, reads, name, framework)
    : planScript(files, reads, name, framework);
}

function planPython(files: string[], reads: Reads, name: string, framework: string): ModulePlan {
  const sources = files.filter(
    (f) => PY.test(f) && !isTestFile(f, 'python') && basename(f) !== 'conftest.py',
  );
  let moduleDir: string | undefined;
  let prefix = '';
  let styleFrom: string | undefined;
  for (const [file, text] of reads) {
    if (!isTestFile(file, 'python')) continue;
    for (const m of text.matchAll(/^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))/gm)) {
      const dotted = m[1] ?? m[2];
      const asPath = `${dotted.replace(/\./g, '/')}.py`;
      const source = sources.find((s) => s === asPath || s.endsWith(`/${asPath}`));
      if (source) {
        moduleDir = dirname(source);
        prefix = dotted.includes('.') ? dotted.slice(0, dotted.lastIndexOf('.') + 1) : '';
        styleFrom = file;
        break;
      }
    }
    if (styleFrom) break;
  }
  if (moduleDir === undefined) {
    const pkg = files.find((f) => /^src\/\w+\/__init__\.py$/.test(f));
    if (pkg) {
      moduleDir = dirname(pkg);
      prefix = `${basename(moduleDir)}.`;
    } else {
      moduleDir = sources.some((s) => s.startsWith('src/')) ? 'src' : '';
    }
  }
  const tests = files.filter((f) => isTestFile(f, 'python'));
  const testDir = styleFrom ? dirname(styleFrom) : tests[0] ? dirname(tests[0]) : 'tests';
  const importName = `${prefix}${name}`;
  const modulePath = join(moduleDir, `${name}.py`);
  const unit = framework === 'unittest';
  const moduleText = PYTHON_MODULE;
  const doc = `"""Tests for ${modulePath}: sentence counts and average word length."""`;
  const testText = unit
    ? fill(PYTHON_UNITTEST, { doc, importName, className: pascal(name) })
    : fill(PYTHON_PYTEST, { doc, importName });
  return {
    language: 'python',
    framework: unit ? 'unittest' : 'pytest',
    modulePath,
    testPath: join(testDir, `test_${name}.py`),
    styleFrom,
    moduleText,
    testText,
  };
}

function pascal(name: string): string {
  return name.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase());
}

function planScript(files: string[], reads: Reads, name: string, framework: string): ModulePlan {
  const sources = files.filter(
    (f) => (TS.test(f) || JS.test(f)) && !isTestFile(f, 'typescript') && !/\.d\.ts$/.test(f),
  );
  let moduleDir: string | undefined;
  let specifier: string | undefined;
  let styleFrom: string | undefined;
  let testExt = 'test.ts';
  for (const [file, text] of reads) {
    if (!isTestFile(file, 'typescript')) continue;
    for (const m of text.matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const spec = m[1];
      const resolved = resolveRelative(dirname(file), spec).replace(/\.(js|mjs|cjs)$/, '');
      const source = sources.find((s) => s.replace(/\.[^.]+$/, '') === resolved || s === resolved);
      if (source) {
        moduleDir = dirname(source);
        const ext = /\.(js|mjs|cjs|ts)$/.exec(spec)?.[0] ?? '';
        specifier = `${spec.slice(0, spec.lastIndexOf('/') + 1)}${name}${ext}`;
        styleFrom = file;
        testExt = /\.((?:test|spec)\.[cm]?[jt]sx?)$/.exec(basename(file))?.[1] ?? testExt;
        break;
      }
    }
    if (styleFrom) break;
  }
  const tests = files.filter((f) => isTestFile(f, 'typescript'));
  const testDir = styleFrom ? dirname(styleFrom) : tests[0] ? dirname(tests[0]) : 'tests';
  if (moduleDir === undefined) moduleDir = sources.some((s) => s.startsWith('src/')) ? 'src' : '';
  const modulePath = join(moduleDir, `${name}.ts`);
  const testPath = join(testDir, `${name}.${testExt}`);
  specifier ??= relativeSpecifier(testDir, join(moduleDir, name));
  const importLine = `import { averageWordLength, countSentences } from '${specifier}';`;
  const moduleText = SCRIPT_MODULE;
  const doc = `/** Tests for ${modulePath}: sentence counts and average word length. */`;
  let testText: string;
  if (framework === 'node:test' || framework === 'mocha') {
    const head =
      framework === 'node:test'
        ? `import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\n${importLine}`
        : `import assert from 'node:assert/strict';\n${importLine}`;
    testText = fill(SCRIPT_ASSERT_TEST, { doc, head, name });
  } else {
    const usesJestGlobals =
      framework === 'jest' &&
      ![...reads].some(([f, t]) => isTestFile(f, 'typescript') && t.includes('@jest/globals'));
    const head =
      framework === 'jest'
        ? usesJestGlobals
          ? importLine
          : `import { describe, expect, it } from '@jest/globals';\n${importLine}`
        : `import { describe, expect, it } from 'vitest';\n${importLine}`;
    testText = fill(SCRIPT_EXPECT_TEST, { doc, head, name });
  }
  return {
    language: 'typescript',
    framework: framework === 'unknown' ? 'vitest' : framework,
    modulePath,
    testPath,
    styleFrom,
    moduleText,
    testText,
  };
}

function resolveRelative(dir: string, spec: string): string {
  const parts = dir ? dir.split('/') : [];
  for (const part of spec.split('/')) {
    if (part === '.' || part === '') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

function relativeSpecifier(fromDir: string, target: string): string {
  const from = fromDir ? fromDir.split('/') : [];
  const to = target.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.length - common;
  const rest = to.slice(common).join('/');
  return up ? `${'../'.repeat(up)}${rest}` : `./${rest}`;
}
