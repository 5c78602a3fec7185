/**
 * The parent verifies a created module itself, in its own context (not through another task): it
 * reads both files, checks the test against the module, runs the test, and gives a verdict.
 */
import { checkModuleAgainstTest } from './module-check';
import { basename, dirname, isTestFile } from './project';
import { clip, summarizeFile } from './summaries';
import { codeList, type DemoText } from './text';
import { bashCall, failedReads, type Plan, readCall, readsOf, type ToolCall } from './turn';

const CODE_PATH = /`([\w./-]+\.(?:py|ts|tsx|js|mjs|cjs))`/g;

/** The module and test paths the subagent reported writing. */
function reportedPaths(report: string): { module?: string; test?: string } {
  const paths = [...new Set([...report.matchAll(CODE_PATH)].map((m) => m[1].replace(/^\.\//, '')))];
  const isTest = (p: string) => isTestFile(p, p.endsWith('.py') ? 'python' : 'typescript');
  return { module: paths.find((p) => !isTest(p)), test: paths.find(isTest) };
}

/** The directories a Python test needs on sys.path to import the module as it does. */
function pythonRoots(modulePath: string, from: string | undefined): string[] {
  const dotted = `${(from ?? basename(modulePath).replace(/\.py$/, '')).replace(/\./g, '/')}.py`;
  const root = modulePath.endsWith(dotted)
    ? modulePath.slice(0, modulePath.length - dotted.length).replace(/\/$/, '')
    : dirname(modulePath);
  return [...new Set([root || '.', '.'])];
}

function pyList(items: string[]): string {
  return `[${items.map((i) => `"${i}"`).join(', ')}]`;
}

/** The command that runs the new test here, chosen from what the test file says. */
function runCommand(
  modulePath: string,
  testPath: string,
  framework: string,
  from: string | undefined,
  fallback: boolean,
): string {
  const tail = '; echo "exit code: $?"';
  if (modulePath.endsWith('.py')) {
    const roots = pyList(pythonRoots(modulePath, from));
    if (framework === 'unittest') {
      return `python3 -c 'import sys, unittest; sys.path[:0] = ${roots}; unittest.main(module=None, argv=["unittest", "-v", "${testPath}"])'${tail}`;
    }
    if (!fallback) return `python3 -m pytest -q ${testPath}${tail}`;
    // pytest is missing: load the test file and call its test functions directly.
    return (
      `python3 -c 'import sys, importlib.util; sys.path[:0] = ${roots}; ` +
      `spec = importlib.util.spec_from_file_location("t", "${testPath}"); t = importlib.util.module_from_spec(spec); spec.loader.exec_module(t); ` +
      `names = [n for n in dir(t) if n.startswith("test")]; [getattr(t, n)() or print(n, "ok") for n in names]; print(len(names), "passed")'${tail}`
    );
  }
  if (framework === 'node:test') return `node --test ${testPath}${tail}`;
  if (framework === 'jest') return `npx jest ${testPath}${tail}`;
  return `npx vitest run ${testPath}${tail}`;
}

interface RunResult {
  ok: boolean;
  /** The runner itself is missing (python3, node, npx, pytest). */
  missing?: string;
  lines: string[];
}

function readRun(output: string): RunResult {
  if (output.startsWith('Error:')) return { ok: false, lines: [output] };
  const code = /^exit code: (\d+)\s*$/m.exec(output)?.[1];
  const lines = output
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .filter((l) => l.trim() && !/^-+$/.test(l.trim()) && !/^exit code: \d+$/.test(l));
  const notFound = /(?:^|\n)(?:bash: )?([\w.-]+): (?:command not found|command not available)/.exec(output);
  if (notFound || code === '127') return { ok: false, missing: notFound?.[1] ?? 'the test runner', lines };
  if (/No module named '?pytest'?/.test(output)) return { ok: false, missing: 'pytest', lines };
  return { ok: code === '0', lines };
}

/** Verifies what the subagent (or, `solo`, the parent itself) reported writing. */
export function verifyCreated(t: DemoText, report: string, calls: ToolCall[], solo = false): Plan {
  const { module, test } = reportedPaths(report);
  if (!module) return { text: t.noModulePath(clip(report, 1500)) };
  const reads = readsOf(calls);
  const readAttempted = calls.some((c) => c.name === 'read_file' && c.input.path === module);
  if (!readAttempted) {
    return {
      text: (solo ? t.solo.willVerify : t.willVerify)(module, test),
      calls: [readCall(module), ...(test ? [readCall(test)] : [])],
    };
  }
  const moduleText = reads.get(module);
  const testText = test ? reads.get(test) : undefined;
  const check =
    moduleText !== undefined && test && testText !== undefined
      ? checkModuleAgainstTest(module, moduleText, testText)
      : undefined;

  const runs = calls.filter((c) => c.name === 'bash');
  if (check && test && check.missing.length === 0) {
    const last = runs.at(-1);
    if (!last) {
      const command = runCommand(module, test, check.framework, check.from, false);
      return { text: t.willRun, calls: [bashCall(command)] };
    }
    const result = readRun(last.output ?? '');
    if (!result.ok && result.missing === 'pytest' && runs.length === 1) {
      return {
        text: t.pytestFallback,
        calls: [bashCall(runCommand(module, test, check.framework, check.from, true))],
      };
    }
  }
  return {
    text: createdVerdict(t, module, test, moduleText, testText, check, runs, failedReads(calls), solo),
  };
}

function createdVerdict(
  t: DemoText,
  module: string,
  test: string | undefined,
  moduleText: string | undefined,
  testText: string | undefined,
  check: ReturnType<typeof checkModuleAgainstTest> | undefined,
  runs: ToolCall[],
  failed: string[],
  solo: boolean,
): string {
  const created: string[] = [];
  if (moduleText !== undefined) {
    const s = summarizeFile(module, moduleText);
    created.push(t.createdModule(module, s.doc, codeList(t, s.definitions)));
  } else {
    created.push(t.reportedButUnreadable(module));
  }
  if (test) {
    created.push(
      testText !== undefined && check
        ? t.createdTest(test, check.tests.length, check.framework, codeList(t, check.tests))
        : t.reportedButUnreadable(test),
    );
  }

  const verification: string[] = [];
  if (failed.length) verification.push(t.readingFailed(failed.join(t.comma)));
  if (check) {
    verification.push(
      check.imported.length === 0
        ? t.noImports(module)
        : check.missing.length === 0
          ? t.importsFit(codeList(t, check.imported), String(check.from), check.imported.length)
          : t.importsMissing(codeList(t, check.missing), module),
    );
  }
  const last = runs.at(-1);
  if (last) {
    const command = String(last.input.command);
    const result = readRun(last.output ?? '');
    const shown = fence([`$ ${shortCommand(command)}`, ...result.lines.slice(-4)]);
    if (result.ok) {
      verification.push(t.ranPassed(shown));
    } else if (result.missing) {
      const needs = module.endsWith('.py') ? 'Python' : 'Node.js';
      verification.push(
        t.runnerMissing(result.missing, shown, needs, needs === 'Python' && result.missing === 'pytest'),
      );
    } else {
      verification.push(t.ranFailed(shown));
    }
  }
  const verdict = !check
    ? t.verdict.unchecked
    : check.missing.length
      ? t.verdict.mismatch
      : last && readRun(last.output ?? '').ok
        ? t.verdict.pass
        : last && !readRun(last.output ?? '').missing
          ? t.verdict.fail
          : t.verdict.notRun;
  const header = solo ? t.solo.createdHeader : t.createdHeader;
  return [header, created.join('\n'), t.verifiedHeader, verification.join('\n'), verdict].join('\n\n');
}

/** A fenced block inside a list item. */
function fence(lines: string[]): string {
  return ['```', ...lines, '```'].map((l) => `  ${l}`).join('\n');
}

function shortCommand(command: string): string {
  return clip(command.replace(/; echo "exit code: \$\?"$/, ''), 160);
}
