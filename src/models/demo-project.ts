/**
 * What the demo model "understands" about a project: plain parsers over the text its tools
 * returned (a file listing, file contents, grep output). Nothing here touches a filesystem; the
 * demo model only knows what a real model would know, the tool results in its messages.
 *
 *   listing  ──► files, language          (find . -type f ...)
 *   reads    ──► testing framework + evidence, per-file summaries, where a new module goes
 */

import { DEMO_TEXT, type DemoText } from './demo-text';

export type Language = 'python' | 'typescript';

/** The contents the model read, by path relative to the project (failed reads left out). */
export type Reads = Map<string, string>;

/** The command that lists the project, and how to read its output back. */
export const LIST_COMMAND = "find . -type f -not -path '*/node_modules/*' -not -path '*/.git/*' | sort";

/** Paths of a `find` listing, without `./`; empty when the command failed. */
export function parseListing(output: string | undefined): string[] {
  if (!output || output.startsWith('Error:') || output === '(no output)') return [];
  const lines = output.split('\n').map((line) => line.trim());
  // `find .` prints `./path`; anything else (`bash: find: command not found`) is not a file.
  const found = lines.filter((line) => line.startsWith('./'));
  const paths = found.length ? found : lines.filter((line) => /^[\w.@-][^:]*$/.test(line));
  return paths
    .map(relative)
    .filter((path) => path && path !== '.' && !/(^|\/)(node_modules|\.git)\//.test(path));
}

/** A path as the project sees it: no leading `./`, no doubled slashes. */
export function relative(path: string): string {
  return path.replace(/^\.\//, '').replace(/\/{2,}/g, '/');
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function dirname(path: string): string {
  const at = path.lastIndexOf('/');
  return at < 0 ? '' : path.slice(0, at);
}

function join(dir: string, name: string): string {
  return dir ? `${dir}/${name}` : name;
}

const PY = /\.py$/;
const TS = /\.(ts|tsx|mts|cts)$/;
const JS = /\.(js|jsx|mjs|cjs)$/;

/** Python or TypeScript/JavaScript, judged from the files present. */
export function detectLanguage(files: string[]): Language {
  const py = files.filter((f) => PY.test(f)).length + (files.some(isPythonManifest) ? 3 : 0);
  const ts = files.filter((f) => TS.test(f) || JS.test(f)).length + (files.includes('package.json') ? 3 : 0);
  return py >= ts && py > 0 ? 'python' : ts > 0 ? 'typescript' : 'python';
}

function isPythonManifest(path: string): boolean {
  return /^(requirements[\w.-]*\.txt|pyproject\.toml|setup\.py|setup\.cfg|Pipfile|tox\.ini|pytest\.ini)$/.test(
    path,
  );
}

export function isTestFile(path: string, language: Language): boolean {
  const name = basename(path);
  if (language === 'python') return PY.test(name) && (/^test_/.test(name) || /_test\.py$/.test(name));
  return (
    /\.(test|spec)\.[cm]?[jt]sx?$/.test(name) ||
    (/(^|\/)__tests__\//.test(path) && (TS.test(name) || JS.test(name)))
  );
}

/** Source files of a language, tests included. */
export function sourceFiles(files: string[], language: Language): string[] {
  return files.filter((f) =>
    language === 'python' ? PY.test(f) : (TS.test(f) || JS.test(f)) && !/\.d\.ts$/.test(f),
  );
}

// ---------------------------------------------------------------------------------------------
// Which files answer "what testing framework?"

/** Dependency and test-config files worth reading, in the order a person would open them. */
export function configFiles(files: string[], language: Language): string[] {
  const picked: string[] = [];
  const add = (path: string | undefined) => {
    if (path && !picked.includes(path)) picked.push(path);
  };
  if (language === 'python') {
    for (const f of files.filter((f) => /^requirements[\w.-]*\.txt$/.test(f))) add(f);
    for (const name of ['pyproject.toml', 'setup.cfg', 'setup.py', 'pytest.ini', 'tox.ini', 'Pipfile']) {
      add(files.find((f) => f === name));
    }
    add(files.filter((f) => basename(f) === 'conftest.py').sort(byDepth)[0]);
  } else {
    add(files.find((f) => f === 'package.json'));
    const configs = files.filter((f) =>
      /^(vitest|jest|vite)\.config\.[cm]?[jt]s$|^\.mocharc/.test(basename(f)),
    );
    const vitest = configs.filter((f) => /^vitest\./.test(basename(f)));
    for (const f of configs.sort(byDepth)) {
      // vite.config carries a `test` block only when there is no vitest.config of its own.
      if (/^vite\./.test(basename(f)) && vitest.length) continue;
      add(f);
    }
  }
  return picked.slice(0, 6);
}

function byDepth(a: string, b: string): number {
  return a.split('/').length - b.split('/').length || a.localeCompare(b);
}

/** Up to `n` test files, preferring ones in a tests folder. */
export function sampleTests(files: string[], language: Language, n = 2): string[] {
  return files
    .filter((f) => isTestFile(f, language))
    .sort(byDepth)
    .slice(0, n);
}

export function grepCommand(language: Language): string {
  return language === 'python'
    ? `grep -rn -E "^(import|from) (pytest|unittest|nose)" --include='*.py' .`
    : `grep -rn -E "from ['\\"](vitest|@jest/globals|mocha|node:test|chai|ava)['\\"]" --include='*.ts' --include='*.js' --exclude-dir=node_modules .`;
}

// ---------------------------------------------------------------------------------------------
// The testing framework, with evidence

export interface TestingReport {
  language: Language;
  /** `pytest`, `unittest`, `vitest`, `jest`, `mocha`, `node:test`, ... or `unknown`. */
  framework: string;
  /** Quoted lines and file names that show it. */
  evidence: string[];
  /** Plugins and configuration seen (coverage, markers, environments). */
  extras: string[];
  /** How the project's tests are run. */
  run?: string;
  /** The files that were looked at. */
  checked: string[];
}

interface Line {
  file: string;
  n: number;
  text: string;
}

function linesOf(file: string, text: string): Line[] {
  return text.split('\n').map((t, i) => ({ file, n: i + 1, text: t }));
}

function quote(t: DemoText, line: Line): string {
  return t.evidence.line(line.file, line.n, line.text.trim());
}

/** Lines of a TOML/INI section, from its header to the next header. */
function section(text: string, header: RegExp): string[] | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => header.test(l.trim()));
  if (start < 0) return undefined;
  const body: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (/^\s*\[/.test(l)) break;
    if (l.trim() && !l.trim().startsWith('#')) body.push(l.trim());
  }
  return [lines[start].trim(), ...body];
}

/** `pytest-cov>=5` -> `pytest-cov`. */
function requirementName(line: string): string | undefined {
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(line.replace(/#.*/, ''));
  return m?.[1].toLowerCase();
}

/** The grep lines (`path:line:text`) that mention a module. */
function grepHits(grep: string | undefined, module: RegExp): Line[] {
  if (!grep || grep.startsWith('Error:')) return [];
  const hits: Line[] = [];
  for (const raw of grep.split('\n')) {
    const m = /^(.+?):(\d+):(.*)$/.exec(raw);
    if (m && module.test(m[3]) && !/(^|\/)node_modules\//.test(m[1])) {
      hits.push({ file: relative(m[1]), n: Number(m[2]), text: m[3] });
    }
  }
  return hits;
}

function filesOf(lines: Line[]): string[] {
  return [...new Set(lines.map((l) => l.file))];
}

/** `a`, `b`, `c`, `d` and 2 more, in `t`'s language. */
function list(t: DemoText, names: string[], max = 4): string {
  const shown = names
    .slice(0, max)
    .map((n) => `\`${n}\``)
    .join(t.comma);
  return names.length > max ? t.summary.more(shown, names.length - max) : shown;
}

/** Reads the testing setup out of what was listed, read and grepped. */
export function analyzeTesting(
  files: string[],
  reads: Reads,
  grep: string | undefined,
  language: Language,
  t: DemoText = DEMO_TEXT.en,
): TestingReport {
  return language === 'python' ? analyzePython(files, reads, grep, t) : analyzeScript(files, reads, grep, t);
}

function analyzePython(files: string[], reads: Reads, grep: string | undefined, t: DemoText): TestingReport {
  const w = t.evidence;
  const evidence: string[] = [];
  const extras: string[] = [];
  let pytest = 0;
  let unittest = 0;
  let other: string | undefined;
  const plugins: string[] = [];

  for (const [file, text] of reads) {
    const lines = linesOf(file, text);
    const name = basename(file);
    if (/^requirements[\w.-]*\.txt$/.test(name) || name === 'Pipfile') {
      const deps = lines.filter((l) => {
        const req = requirementName(l.text);
        return req !== undefined && /^(pytest|nose2?|unittest2|hypothesis|coverage|tox)([-_].*)?$/.test(req);
      });
      for (const l of deps) {
        const req = requirementName(l.text)!;
        if (req === 'pytest') pytest += 2;
        else if (req.startsWith('pytest-')) plugins.push(req);
        else if (/^nose/.test(req)) other ??= req;
      }
      if (deps.length)
        evidence.push(w.depLines(file, deps.map((l) => w.lineOnly(l.n, l.text.trim())).join(w.sep)));
      else evidence.push(w.noRunnerListed(file, lines.filter((l) => requirementName(l.text)).length));
    } else if (
      name === 'pyproject.toml' ||
      name === 'setup.cfg' ||
      name === 'pytest.ini' ||
      name === 'tox.ini'
    ) {
      const header =
        name === 'pyproject.toml'
          ? /^\[tool\.pytest(\.ini_options)?\]$/
          : name === 'setup.cfg'
            ? /^\[tool:pytest\]$/
            : /^\[pytest\]$/;
      const config = section(text, header);
      if (config) {
        pytest += 2;
        evidence.push(
          `${w.configures(file, 'pytest', config[0])}${t.colon.trimEnd()}\n  \`\`\`\n${config
            .slice(1)
            .map((l) => `  ${l}`)
            .join('\n')}\n  \`\`\``,
        );
        const addopts = config.find((l) => /^addopts\s*=/.test(l));
        if (addopts && /--cov/.test(addopts)) {
          const target = /--cov(?:=|\s+)([\w./-]+)/.exec(addopts)?.[1];
          extras.push(w.coverageEveryRun(addopts, target));
        }
        const paths = config.find((l) => /^testpaths\s*=/.test(l));
        if (paths) extras.push(w.testpaths(paths));
        const markers = config.find((l) => /^markers\s*=/.test(l));
        if (markers) extras.push(w.markers(markers));
        const pythonpath = config.find((l) => /^pythonpath\s*=/.test(l));
        if (pythonpath) extras.push(w.pythonpath(pythonpath));
      }
      const depLines = lines.filter(
        (l) =>
          /["']?(pytest|nose2?|hypothesis)[\w-]*\s*([<>=~!]=?[^"',\]]*)?["',]/.test(l.text) &&
          !/^\s*\[/.test(l.text) &&
          !/^\s*(addopts|testpaths|markers|minversion|pythonpath)\b/.test(l.text),
      );
      for (const l of depLines) {
        const dep = /(pytest[\w-]*|nose2?|hypothesis)/.exec(l.text)![1];
        if (dep === 'pytest') pytest += 2;
        else if (dep.startsWith('pytest-')) plugins.push(dep);
        evidence.push(w.declared(quote(t, l)));
      }
      if (!config && !depLines.length && name !== 'tox.ini') evidence.push(w.noConfig(file));
      if (name === 'tox.ini') {
        const cmd = lines.find((l) => /^\s*commands\s*=/.test(l.text));
        if (cmd) evidence.push(w.toxRuns(quote(t, cmd)));
      }
    } else if (name === 'conftest.py') {
      pytest += 2;
      const fixtures: string[] = [];
      let decorator: Line | undefined;
      for (let i = 0; i < lines.length; i++) {
        if (/@pytest\.fixture/.test(lines[i].text)) {
          decorator ??= lines[i];
          const def = lines.slice(i + 1, i + 4).find((l) => /^\s*def\s+\w+/.test(l.text));
          if (def) fixtures.push(/def\s+(\w+)/.exec(def.text)![1]);
        }
      }
      const importLine = lines.find((l) => /^\s*import\s+pytest\b/.test(l.text));
      evidence.push(
        w.conftest(
          file,
          importLine && w.lineOnly(importLine.n, importLine.text.trim()),
          list(t, fixtures),
          fixtures.length,
          decorator?.n,
        ),
      );
    } else if (isTestFile(file, 'python')) {
      const imports = lines.filter((l) => /^\s*(import|from)\s+(pytest|unittest)\b/.test(l.text));
      const testCases = lines.filter((l) => /^\s*class\s+\w+\(.*TestCase\)/.test(l.text));
      const tests = lines.filter((l) => /^\s*(async\s+)?def\s+test\w*/.test(l.text));
      const asserts = lines.filter((l) => /^\s*assert\s/.test(l.text)).length;
      const selfAsserts = lines.filter((l) => /self\.assert\w+\(/.test(l.text)).length;
      const pytestUse = lines.filter((l) => /pytest\.(raises|mark|fixture|approx|param)/.test(l.text));
      // Test functions that take fixtures as arguments only run under pytest.
      const fixtureArgs = new Set<string>();
      for (const l of tests) {
        const params = /def\s+\w+\(([^)]*)\)/.exec(l.text)?.[1] ?? '';
        for (const p of params.split(',').map((x) => x.trim().split(/[:=\s]/)[0])) {
          if (p && p !== 'self' && p !== 'cls') fixtureArgs.add(p);
        }
      }
      for (const l of imports) {
        if (/pytest/.test(l.text)) pytest += 1;
        else unittest += 2;
      }
      if (testCases.length) unittest += 1;
      if (pytestUse.length) pytest += 1;
      if (fixtureArgs.size && !testCases.length) pytest += 1;
      const parts = [imports.map((l) => quote(t, l)).join(w.sep) || w.noFrameworkImport(file)];
      if (testCases.length)
        parts.push(
          w.subclasses(
            list(
              t,
              testCases.map((l) => /class\s+(\w+)/.exec(l.text)![1]),
            ),
          ),
        );
      if (pytestUse.length)
        parts.push(w.uses(list(t, [...new Set(pytestUse.map((l) => /pytest\.\w+/.exec(l.text)![0]))])));
      parts.push(w.testFunctions(tests.length, selfAsserts ? 'self' : asserts ? 'assert' : undefined));
      if (fixtureArgs.size && !testCases.length) parts.push(w.takesFixtures(list(t, [...fixtureArgs], 5)));
      evidence.push(parts.join(w.sep));
    }
  }

  const grepPytest = grepHits(grep, /\bpytest\b/);
  const grepUnittest = grepHits(grep, /\bunittest\b/);
  if (grepPytest.length) {
    pytest += 1;
    evidence.push(w.grepImport('import pytest', filesOf(grepPytest).length, list(t, filesOf(grepPytest))));
  }
  if (grepUnittest.length) {
    unittest += 1;
    evidence.push(
      w.grepImport('import unittest', filesOf(grepUnittest).length, list(t, filesOf(grepUnittest))),
    );
  }

  for (const p of [...new Set(plugins)]) {
    if (!extras.some((e) => e.includes(p))) extras.unshift(w.plugin(p, w.knownPlugins[p]));
  }

  const testDirs = [...new Set(files.filter((f) => isTestFile(f, 'python')).map(dirname))];
  let framework = 'unknown';
  let run: string | undefined;
  if (pytest > 0) {
    framework = 'pytest';
    run = w.orAlso('`pytest`', '`python -m pytest`');
    if (unittest > 0) extras.push(w.unittestToo);
  } else if (unittest > 0) {
    framework = 'unittest';
    run = `\`python -m unittest discover${testDirs[0] ? ` -s ${testDirs[0]}` : ''}\``;
    extras.push(w.unittestBuiltIn);
  } else if (other) {
    framework = other;
    run = `\`${other}\``;
  }
  return { language: 'python', framework, evidence, extras, run, checked: [...reads.keys()] };
}

const SCRIPT_FRAMEWORKS = ['vitest', 'jest', 'mocha', 'ava', 'jasmine', 'node:test'] as const;

function analyzeScript(files: string[], reads: Reads, grep: string | undefined, t: DemoText): TestingReport {
  const w = t.evidence;
  const evidence: string[] = [];
  const extras: string[] = [];
  const score: Record<string, number> = {};
  const vote = (name: string, n = 1) => (score[name] = (score[name] ?? 0) + n);
  let testScript: string | undefined;

  for (const [file, text] of reads) {
    const name = basename(file);
    const lines = linesOf(file, text);
    if (name === 'package.json') {
      let pkg: {
        scripts?: Record<string, string>;
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
      } = {};
      try {
        pkg = JSON.parse(text);
      } catch {
        evidence.push(w.notJson(file));
      }
      const deps = { ...pkg.dependencies, ...pkg.devDependencies };
      for (const dep of Object.keys(deps)) {
        const line = lines.find((l) => l.text.includes(`"${dep}"`));
        const framework =
          SCRIPT_FRAMEWORKS.find((f) => f === dep) ??
          (dep === '@jest/globals' || dep === 'ts-jest' ? 'jest' : undefined);
        if (framework) {
          vote(framework, 2);
          evidence.push(
            line
              ? w.inSection(quote(t, line), pkg.devDependencies?.[dep] ? 'devDependencies' : 'dependencies')
              : w.dependsOn(file, dep),
          );
        } else if (
          /^@vitest\/|^c8$|^nyc$|^@testing-library\/|^jsdom$|^happy-dom$|^chai$|^supertest$/.test(dep)
        ) {
          extras.push(w.withLine(dep, line && quote(t, line)));
        } else if (dep === '@playwright/test' || dep === 'cypress') {
          extras.push(w.endToEnd(dep));
        }
      }
      for (const [script, command] of Object.entries(pkg.scripts ?? {})) {
        if (!/test|coverage/.test(script)) continue;
        const line = lines.find((l) => l.text.includes(`"${script}"`));
        if (script === 'test') testScript = command;
        const framework = SCRIPT_FRAMEWORKS.find((f) =>
          f === 'node:test' ? /node\s+--test/.test(command) : new RegExp(`\\b${f}\\b`).test(command),
        );
        if (framework) vote(framework, 1);
        if (line) evidence.push(w.npmScript(quote(t, line)));
        if (/--coverage|\bc8\b|\bnyc\b/.test(command)) extras.push(w.coverageScript(script, command));
      }
    } else if (/^(vitest|vite)\.config\./.test(name)) {
      const testBlock = lines.findIndex((l) => /^\s*test\s*:/.test(l.text));
      if (testBlock >= 0 || name.startsWith('vitest')) {
        vote('vitest', 2);
        const block =
          testBlock >= 0 ? lines.slice(testBlock, testBlock + 8).filter((l) => l.text.trim()) : [];
        const end = block.findIndex(
          (l, i) => i > 0 && /^\s*\}/.test(l.text) && l.text.search(/\S/) <= block[0].text.search(/\S/),
        );
        const shown = end >= 0 ? block.slice(0, end + 1) : block;
        evidence.push(
          w.configuresVitest(file) +
            (shown.length
              ? `${t.colon.trimEnd()}\n  \`\`\`\n${shown.map((l) => `  ${l.text.replace(/\s+$/, '')}`).join('\n')}\n  \`\`\``
              : ''),
        );
        const env = lines.find((l) => /environment\s*:/.test(l.text));
        if (env) extras.push(w.testEnvironment(quote(t, env)));
        const coverage = lines.find((l) => /coverage\s*:/.test(l.text));
        if (coverage) extras.push(w.coverageConfigured(quote(t, coverage)));
      }
    } else if (/^jest\.config\./.test(name)) {
      vote('jest', 2);
      evidence.push(w.configExists(file, 'Jest'));
    } else if (/^\.mocharc/.test(name)) {
      vote('mocha', 2);
      evidence.push(w.configExists(file, 'Mocha'));
    } else if (isTestFile(file, 'typescript')) {
      const imports = lines.filter((l) =>
        /from\s+['"](vitest|@jest\/globals|mocha|node:test|chai|ava)['"]|require\(['"](mocha|chai|node:test)['"]\)/.test(
          l.text,
        ),
      );
      const tests = lines.filter((l) => /^\s*(it|test)(\.\w+)?\(/.test(l.text)).length;
      for (const l of imports) {
        const m = /['"](vitest|@jest\/globals|mocha|node:test|ava)['"]/.exec(l.text);
        if (m) vote(m[1] === '@jest/globals' ? 'jest' : m[1], 2);
      }
      evidence.push(
        `${imports.length ? imports.map((l) => quote(t, l)).join(w.sep) : w.noTestLibrary(file)}${w.sep}${w.testCases(tests)}`,
      );
    }
  }

  const hits = grepHits(grep, /from\s+['"]/);
  for (const framework of ['vitest', '@jest/globals', 'node:test', 'mocha'] as const) {
    const mine = hits.filter((h) => h.text.includes(`'${framework}'`) || h.text.includes(`"${framework}"`));
    if (mine.length) {
      vote(framework === '@jest/globals' ? 'jest' : framework, 1);
      evidence.push(w.grepImportsFrom(framework, filesOf(mine).length, list(t, filesOf(mine))));
    }
  }

  const ranked = Object.entries(score).sort((a, b) => b[1] - a[1]);
  const framework = ranked[0]?.[0] ?? 'unknown';
  const runs: Record<string, string> = {
    vitest: '`npx vitest run`',
    jest: '`npx jest`',
    mocha: '`npx mocha`',
    'node:test': '`node --test`',
    ava: '`npx ava`',
    jasmine: '`npx jasmine`',
  };
  const run = testScript ? w.npmTest(testScript) : runs[framework];
  return {
    language: 'typescript',
    framework,
    evidence,
    extras: [...new Set(extras)],
    run,
    checked: [...reads.keys()],
  };
}

// ---------------------------------------------------------------------------------------------
// What one file does

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
  const names = (items: string[], max: number) => list(t, items, max);
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

// ---------------------------------------------------------------------------------------------
// A new module that fits the project

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
  const moduleText = `"""Readability helpers: sentence counts and average word length."""
import re

SENTENCE_END = re.compile(r"[.!?]+")
WORD = re.compile(r"[A-Za-z0-9']+")


def count_sentences(text):
    """Number of sentences: runs of text ending in . ! or ?; a trailing fragment counts too."""
    return len([part for part in SENTENCE_END.split(text) if part.strip()])


def average_word_length(text):
    """Mean length of the words in text (letters, digits and apostrophes); 0.0 when there are none."""
    words = WORD.findall(text)
    return sum(len(word) for word in words) / len(words) if words else 0.0
`;
  const doc = `"""Tests for ${modulePath}: sentence counts and average word length."""`;
  const testText = unit
    ? `${doc}
import unittest

from ${importName} import average_word_length, count_sentences


class Test${pascal(name)}(unittest.TestCase):
    def test_count_sentences(self):
        self.assertEqual(count_sentences("The cat sat. The cat ran! Did it?"), 3)
        self.assertEqual(count_sentences("no ending"), 1)
        self.assertEqual(count_sentences(""), 0)

    def test_average_word_length(self):
        self.assertEqual(average_word_length("a bb ccc"), 2.0)
        self.assertEqual(average_word_length(""), 0.0)


if __name__ == "__main__":
    unittest.main()
`
    : `${doc}
from ${importName} import average_word_length, count_sentences


def test_count_sentences():
    assert count_sentences("The cat sat. The cat ran! Did it?") == 3
    assert count_sentences("no ending") == 1
    assert count_sentences("") == 0


def test_average_word_length():
    assert average_word_length("a bb ccc") == 2.0
    assert average_word_length("") == 0.0
`;
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
  const moduleText = `/** Readability helpers: sentence counts and average word length. */

const SENTENCE_END = /[.!?]+/;
const WORD = /[A-Za-z0-9']+/g;

/** Number of sentences: runs of text ending in . ! or ?; a trailing fragment counts too. */
export function countSentences(text: string): number {
  return text.split(SENTENCE_END).filter((part) => part.trim() !== '').length;
}

/** Mean length of the words in text (letters, digits and apostrophes); 0 when there are none. */
export function averageWordLength(text: string): number {
  const words = text.match(WORD) ?? [];
  return words.length ? words.reduce((sum, word) => sum + word.length, 0) / words.length : 0;
}
`;
  const doc = `/** Tests for ${modulePath}: sentence counts and average word length. */`;
  const cases = {
    three: "countSentences('The cat sat. The cat ran! Did it?')",
    one: "countSentences('no ending')",
    none: "countSentences('')",
    avg: "averageWordLength('a bb ccc')",
    avgNone: "averageWordLength('')",
  };
  let testText: string;
  if (framework === 'node:test' || framework === 'mocha') {
    const head =
      framework === 'node:test'
        ? `import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\n${importLine}`
        : `import assert from 'node:assert/strict';\n${importLine}`;
    testText = `${doc}
${head}

describe('${name}', () => {
  it('counts sentences', () => {
    assert.equal(${cases.three}, 3);
    assert.equal(${cases.one}, 1);
    assert.equal(${cases.none}, 0);
  });

  it('averages word length', () => {
    assert.equal(${cases.avg}, 2);
    assert.equal(${cases.avgNone}, 0);
  });
});
`;
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
    testText = `${doc}
${head}

describe('${name}', () => {
  it('counts sentences', () => {
    expect(${cases.three}).toBe(3);
    expect(${cases.one}).toBe(1);
    expect(${cases.none}).toBe(0);
  });

  it('averages word length', () => {
    expect(${cases.avg}).toBe(2);
    expect(${cases.avgNone}).toBe(0);
  });
});
`;
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

// ---------------------------------------------------------------------------------------------
// Checking a module against its test (the parent's own verification)

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
