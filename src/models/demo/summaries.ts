/** What one file does, from its text: its doc, its definitions, its tests; and the line that says it. */
import { basename, isTestFile, PY } from './project';
import { DEMO_TEXT } from './say';
import { listNames, type DemoText } from './text';

export interface FileSummary {
  path: string;
  /** The doc text (module docstring or leading doc comment), first paragraph, one line. */
  doc?: string;
  /** `word_count()`, `class Stats`, `export const PI`... */
  definitions: string[];
  /** Test functions or cases, for test files. */
  tests: string[];
  isTest: boolean;
  empty: boolean;
  script: boolean;
  /** What a test file tests: its first relative import (TS) or its file name (Python). */
  subject?: string;
  /** `defineConfig` in `export default defineConfig({...})`. */
  defaultCall?: string;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function firstParagraph(text: string): string {
  return oneLine(text.trim().split(/\n\s*\n/)[0] ?? '');
}

/** The module docstring of a Python file, first paragraph. */
export function pythonDocstring(text: string): string | undefined {
  const m = /^(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*[rRuUbB]?("""|''')([\s\S]*?)\1/.exec(text);
  if (m) return firstParagraph(m[2]) || undefined;
  const one = /^(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*[rRuU]?("|')((?:\\.|(?!\1).)*)\1/.exec(text);
  return one ? oneLine(one[2]) || undefined : undefined;
}

/** The leading doc comment of a TS/JS file (`/** ... *\/` or `//` lines), first paragraph. */
export function scriptDocComment(text: string): string | undefined {
  const body = text.replace(/^#![^\n]*\n/, '').replace(/^\s+/, '');
  const block = /^\/\*\*?([\s\S]*?)\*\//.exec(body);
  if (block) {
    const cleaned = block[1]
      .split('\n')
      .map((l) => l.replace(/^\s*\*\s?/, ''))
      .filter((l) => !/^@\w+/.test(l.trim()))
      .join('\n');
    return firstParagraph(cleaned) || undefined;
  }
  const lines: string[] = [];
  for (const l of body.split('\n')) {
    const m = /^\s*\/\/\s?(.*)$/.exec(l);
    if (!m) break;
    if (!/^\s*(@ts-|eslint|prettier|#region)/.test(m[1])) lines.push(m[1]);
  }
  return firstParagraph(lines.join('\n')) || undefined;
}

/** A summary of one file from its text. */
export function summarizeFile(path: string, text: string): FileSummary {
  const python = PY.test(path);
  const isTest = isTestFile(path, python ? 'python' : 'typescript');
  const definitions: string[] = [];
  const tests: string[] = [];
  if (python) {
    for (const m of text.matchAll(
      /^(?:async\s+)?def\s+(\w+)|^class\s+(\w+)|^([A-Z][A-Z0-9_]*)\s*(?::[^=\n]*)?=/gm,
    )) {
      if (m[1]) definitions.push(`${m[1]}()`);
      else if (m[2]) definitions.push(`class ${m[2]}`);
      else if (m[3]) definitions.push(m[3]);
    }
    for (const m of text.matchAll(/^\s*(?:async\s+)?def\s+(test\w*)/gm)) tests.push(m[1]);
  } else {
    for (const m of text.matchAll(
      /^export\s+(default\s+)?(?:declare\s+)?(?:abstract\s+)?(async\s+)?(function\*?|class|const|let|var|interface|type|enum)\s+(\w+)/gm,
    )) {
      const kind = m[3].replace('*', '');
      definitions.push(
        kind === 'function'
          ? `${m[4]}()`
          : kind === 'const' || kind === 'let' || kind === 'var'
            ? m[4]
            : `${kind} ${m[4]}`,
      );
    }
    for (const m of text.matchAll(/^(?:async\s+)?function\s+(\w+)|^class\s+(\w+)/gm)) {
      const name = m[1] ? `${m[1]}()` : `class ${m[2]}`;
      if (!definitions.includes(name)) definitions.push(name);
    }
    for (const m of text.matchAll(/^\s*(?:it|test)(?:\.\w+)?\(\s*(['"`])(.*?)\1/gm)) tests.push(m[2]);
  }
  return {
    path,
    doc: python ? pythonDocstring(text) : scriptDocComment(text),
    definitions,
    tests,
    isTest,
    empty: text.trim() === '',
    script: python ? /^if\s+__name__\s*==\s*['"]__main__['"]/m.test(text) : false,
    subject: !isTest
      ? undefined
      : python
        ? basename(path).replace(/^test_|_test\.py$|\.py$/g, '')
        : (/from\s+['"](\.{1,2}\/[^'"]+)['"]/.exec(text)?.[1] ??
          basename(path).replace(/\.(test|spec)\.[^.]+$/, '')),
    defaultCall: /^export\s+default\s+([\w.]+)\(/m.exec(text)?.[1],
  };
}

/** Clips a sentence to `max` characters on a word boundary. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max * 0.6))}…`;
}

/** One markdown bullet for a file: what its doc says, then what it defines, in `t`'s language. */
export function summaryLine(s: FileSummary, t: DemoText = DEMO_TEXT.en): string {
  const words = t.summary;
  const parts: string[] = [];
  const names = (items: string[], max: number) => listNames(t, items, max);
  if (s.empty) {
    parts.push(basename(s.path) === '__init__.py' ? words.emptyPackage : words.emptyFile);
  } else {
    // The doc comment says what the file is for; without one, the next best thing leads.
    const lead = s.doc
      ? s.doc
      : s.isTest
        ? words.testsFor(String(s.subject))
        : s.defaultCall
          ? words.exportsDefault(s.defaultCall)
          : s.definitions.length
            ? words.definesUndocumented(names(s.definitions, 6))
            : words.nothing;
    // A sentence ends the way its last word is written: `.` after English, `。` after CJK.
    const end = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}）]$/u.test(lead) ? '。' : '.';
    parts.push(/[.!?:。！？：]$/.test(lead) ? clip(lead, 240) : `${clip(lead, 240)}${end}`);
    if (s.isTest && s.tests.length) {
      parts.push(words.tests(s.tests.length, names(s.tests, 5)));
    } else if (s.doc && s.definitions.length) {
      parts.push(words.defines(names(s.definitions, 6)));
    }
    if (s.script) parts.push(words.script);
  }
  // CJK text runs on after a full stop; English leaves a space.
  const text = parts.reduce(
    (all, part) => (!all ? part : /[。！？）]$/.test(all) ? all + part : `${all} ${part}`),
    '',
  );
  return `- \`${s.path}\`${t.colon}${text}`;
}
