/**
 * The demo model's answer to "what testing framework?": the framework, with evidence (quoted
 * lines and file names), read out of what was listed, read and grepped.
 */
import { basename, dirname, isTestFile, relative, type Language, type Reads } from './project';
import { DEMO_TEXT } from './say';
import { listNames, type DemoText } from './text';

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
          listNames(t, fixtures),
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
            listNames(
              t,
              testCases.map((l) => /class\s+(\w+)/.exec(l.text)![1]),
            ),
          ),
        );
      if (pytestUse.length)
        parts.push(w.uses(listNames(t, [...new Set(pytestUse.map((l) => /pytest\.\w+/.exec(l.text)![0]))])));
      parts.push(w.testFunctions(tests.length, selfAsserts ? 'self' : asserts ? 'assert' : undefined));
      if (fixtureArgs.size && !testCases.length)
        parts.push(w.takesFixtures(listNames(t, [...fixtureArgs], 5)));
      evidence.push(parts.join(w.sep));
    }
  }

  const grepPytest = grepHits(grep, /\bpytest\b/);
  const grepUnittest = grepHits(grep, /\bunittest\b/);
  if (grepPytest.length) {
    pytest += 1;
    evidence.push(
      w.grepImport('import pytest', filesOf(grepPytest).length, listNames(t, filesOf(grepPytest))),
    );
  }
  if (grepUnittest.length) {
    unittest += 1;
    evidence.push(
      w.grepImport('import unittest', filesOf(grepUnittest).length, listNames(t, filesOf(grepUnittest))),
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
      evidence.push(w.grepImportsFrom(framework, filesOf(mine).length, listNames(t, filesOf(mine))));
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
