/**
 * Everything the demo model writes in its own words, in each language it answers in. The plans
 * (parent.ts, subagent.ts) decide what to say from the tool results; this file only says it. Facts
 * (paths, quoted lines, tool output, names from the code) are passed in and never translated.
 *
 * Some phrases are read back: the parent reads the subagent's report to relay it, and that
 * report may be in any of the languages. Those phrases come with the pattern that finds them
 * (`labels`, `readStats`, `unreadable`, `unknown`), and the parent tries every language's.
 *
 * To add a language: add it to `Lang` and `SCRIPTS` (language.ts), give every intent
 * patterns in it, and add an entry here; the compiler and demo-language.test.ts name what is
 * missing.
 */
import { fill } from './fill';
import { languageOf, type Lang } from './language';
import enWords from './words/en.json';
import jaWords from './words/ja.json';
import zhWords from './words/zh.json';

/** A delegation: what the parent says, the `task` tool's description and the prompt it writes. */
interface TaskText<A extends unknown[] = []> {
  say: string;
  description: (...args: A) => string;
  prompt: (...args: A) => string;
}

/** The words of a file's one-line summary (used by `summaryLine` in summaries.ts). */
export interface SummaryWords {
  emptyPackage: string;
  emptyFile: string;
  testsFor: (subject: string) => string;
  exportsDefault: (call: string) => string;
  definesUndocumented: (names: string) => string;
  nothing: string;
  tests: (n: number, names: string) => string;
  defines: (names: string) => string;
  script: string;
  /** `a, b and 3 more` */
  more: (shown: string, n: number) => string;
}

/** The words of the testing report's evidence (used by `analyzeTesting` in summaries.ts). */
export interface EvidenceWords {
  /** Between the findings about one file. */
  sep: string;
  line: (file: string, n: number, text: string) => string;
  lineOnly: (n: number, text: string) => string;
  depLines: (file: string, lines: string) => string;
  noRunnerListed: (file: string, deps: number) => string;
  configures: (file: string, tool: string, where: string) => string;
  coverageEveryRun: (addopts: string, target: string | undefined) => string;
  testpaths: (line: string) => string;
  markers: (line: string) => string;
  pythonpath: (line: string) => string;
  declared: (quoted: string) => string;
  noConfig: (file: string) => string;
  toxRuns: (quoted: string) => string;
  conftest: (
    file: string,
    importLine: string | undefined,
    fixtures: string,
    count: number,
    firstAt: number | undefined,
  ) => string;
  noFrameworkImport: (file: string) => string;
  subclasses: (classes: string) => string;
  uses: (names: string) => string;
  testFunctions: (n: number, style: 'self' | 'assert' | undefined) => string;
  takesFixtures: (names: string) => string;
  grepImport: (statement: string, files: number, names: string) => string;
  grepImportsFrom: (module: string, files: number, names: string) => string;
  plugin: (name: string, purpose: string | undefined) => string;
  knownPlugins: Record<string, string>;
  unittestToo: string;
  unittestBuiltIn: string;
  orAlso: (command: string, other: string) => string;
  notJson: (file: string) => string;
  dependsOn: (file: string, dep: string) => string;
  inSection: (quoted: string, section: string) => string;
  withLine: (dep: string, quoted: string | undefined) => string;
  endToEnd: (dep: string) => string;
  npmScript: (quoted: string) => string;
  coverageScript: (script: string, command: string) => string;
  configuresVitest: (file: string) => string;
  testEnvironment: (quoted: string) => string;
  coverageConfigured: (quoted: string) => string;
  configExists: (file: string, tool: string) => string;
  noTestLibrary: (file: string) => string;
  testCases: (n: number) => string;
  npmTest: (script: string) => string;
}

export interface DemoText {
  /** How items of a list are joined. */
  comma: string;
  /** Between a label and what follows it. */
  colon: string;
  /** Labels of the subagent's report that the parent reads back. */
  labels: { framework: string; evidence: string; extras: string; run: string };
  /** What an unidentified framework is called. */
  unknown: string;
  /** The report's count of what was read, and the pattern that reads it back (files, characters). */
  readStats: (files: number, chars: string) => string;
  readStatsPattern: RegExp;
  /** What marks a file that could not be read in a list of summaries. */
  unreadable: string;
  summary: SummaryWords;
  evidence: EvidenceWords;

  failed: (reason: string) => string;

  // The parent
  noResult: (result: string) => string;
  demoNote: string;
  frameworkTask: TaskText;
  summarizeTask: TaskText<[ext: string | undefined]>;
  createTask: TaskText;
  exploreTask: TaskText<[userPrompt: string]>;
  contextNote: (read: { files: number; chars: string } | undefined, reportChars: string) => string;
  frameworkUnclear: (report: string) => string;
  frameworkUsed: (framework: string) => string;
  evidenceFound: string;
  alsoConfigured: string;
  runThem: (run: string) => string;
  reportAsIs: (report: string) => string;
  wentThrough: (n: number, ext: string | undefined) => string;
  unreadableCount: (n: number) => string;
  cannotReallyWork: (prompt: string) => string;
  noModulePath: (report: string) => string;
  willVerify: (module: string, test: string | undefined) => string;
  willRun: string;
  pytestFallback: string;
  createdModule: (module: string, doc: string | undefined, names: string) => string;
  reportedButUnreadable: (path: string) => string;
  createdTest: (test: string, n: number, framework: string, names: string) => string;
  readingFailed: (list: string) => string;
  noImports: (module: string) => string;
  importsFit: (names: string, from: string, n: number) => string;
  importsMissing: (names: string, module: string) => string;
  ranPassed: (shown: string) => string;
  runnerMissing: (missing: string, shown: string, needs: string, withPytest: boolean) => string;
  ranFailed: (shown: string) => string;
  verdict: { unchecked: string; mismatch: string; pass: string; fail: string; notRun: string };
  createdHeader: string;
  verifiedHeader: string;
  /** The parent without subagents (context mode `none`), doing the work in its own context. */
  solo: {
    note: (read: { files: number; chars: string } | undefined) => string;
    willVerify: (module: string, test: string | undefined) => string;
    createdHeader: string;
  };
  /** A subagent that may delegate, handing part of the files to a subagent of its own. */
  split: {
    say: (handed: number, kept: number) => string;
    description: (n: number) => string;
    /** Its first line must read as a `summarize` prompt; then one `- path` line per file. */
    prompt: (ext: string | undefined, files: string[]) => string;
    handedOff: (n: number) => string;
  };

  // The subagent
  listStep: string;
  listingFailed: (error: string) => string;
  frameworkPlan: (language: string, hasTests: boolean) => string;
  noRunnerFound: string;
  couldNotRead: (list: string) => string;
  couldNotReadList: (list: string) => string;
  filesChecked: (list: string, read: number, chars: string, total: number) => string;
  findFirst: (ext: string | undefined) => string;
  found: (n: number, ext: string | undefined, batched: boolean) => string;
  cannotList: (output: string) => string;
  noneFound: (ext: string | undefined, command: string) => string;
  unreadableLine: (path: string, error: string) => string;
  summariesHeading: (ext: string | undefined) => string;
  skipped: (n: number) => string;
  lookAtConfig: (test: string | undefined) => string;
  willWrite: (framework: string, module: string, test: string, styleFrom: string | undefined) => string;
  writtenLine: (path: string, result: string, what: string) => string;
  notWritten: (path: string, error: string) => string;
  moduleDescription: (doc: string | undefined, names: string) => string;
  testDescription: (n: number, framework: string, names: string, imported: string, from: string) => string;
  createdAll: string;
  createdSome: string;
  didNotRun: string;
  willRead: (list: string) => string;
  listingEmpty: (error: string | undefined) => string;
  projectHeading: string;
  fileCounts: (files: number, language: string, sources: number, tests: number) => string;
  layout: (folders: string, files: string) => string;
  readmeLine: (path: string, title: string | undefined, paragraph: string | undefined) => string;
  manifest: (
    path: string,
    name: string | undefined,
    description: string | undefined,
    deps: number,
    names: string,
  ) => string;
  invalidJson: (path: string) => string;
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** The words of each language: one JSON file per language, the same keys in each (words.test.ts). */
const WORDS: Record<Lang, Tree> = { en: enWords, zh: zhWords, ja: jaWords };

type Tree = { [key: string]: string | Tree };
type Values = Record<string, string | number>;

/**
 * Says the words at `key` (`a.b.c`) in `lang`, their `{{slots}}` filled from `values`. A `count`
 * picks the plural form by the language's rules, i18next's way: `key_one` or `key_other` in
 * English, `key_other` for any count in Chinese and Japanese.
 */
function sayer(lang: Lang): (key: string, values?: Values) => string {
  const rules = new Intl.PluralRules(lang);
  const at = (key: string): string | Tree | undefined =>
    key
      .split('.')
      .reduce<string | Tree | undefined>(
        (tree, part) => (typeof tree === 'object' ? tree[part] : undefined),
        WORDS[lang],
      );
  return (key, values = {}) => {
    const words =
      'count' in values
        ? (at(`${key}_${rules.select(Number(values.count))}`) ?? at(`${key}_other`))
        : at(key);
    if (typeof words !== 'string') throw new Error(`The demo has no words for ${key} in ${lang}`);
    return fill(words, values);
  };
}

/** The words the parent and the subagent share: labels, read-back phrases, summaries, evidence. */
function common(lang: Lang) {
  const say = sayer(lang);
  /** The words at `key` when `value` is given, else nothing. */
  const piece = <T>(value: T | undefined | null | false | '' | 0, key: string, values: Values) =>
    value ? say(key, values) : '';
  const knownPlugins = (WORDS[lang].evidence as Tree).knownPlugins as Record<string, string>;
  return {
    comma: say('comma'),
    colon: say('colon'),
    labels: {
      framework: say('labels.framework'),
      evidence: say('labels.evidence'),
      extras: say('labels.extras'),
      run: say('labels.run'),
    },
    unknown: say('unknown'),
    readStats: (files: number, chars: string) => say('readStats', { count: files, chars }),
    readStatsPattern: new RegExp(say('readStatsPattern')),
    unreadable: say('unreadable'),
    summary: {
      emptyPackage: say('summary.emptyPackage'),
      emptyFile: say('summary.emptyFile'),
      testsFor: (subject: string) => say('summary.testsFor', { subject }),
      exportsDefault: (call: string) => say('summary.exportsDefault', { call }),
      definesUndocumented: (names: string) => say('summary.definesUndocumented', { names }),
      nothing: say('summary.nothing'),
      tests: (n: number, names: string) => say('summary.tests', { count: n, names }),
      defines: (names: string) => say('summary.defines', { names }),
      script: say('summary.script'),
      more: (shown: string, n: number) => say('summary.more', { shown, n }),
    },
    evidence: {
      sep: say('evidence.sep'),
      line: (file, n, text) => say('evidence.line', { file, n, text }),
      lineOnly: (n, text) => say('evidence.lineOnly', { n, text }),
      depLines: (file, lines) => say('evidence.depLines', { file, lines }),
      noRunnerListed: (file, deps) => say('evidence.noRunnerListed', { file, count: deps }),
      configures: (file, tool, where) => say('evidence.configures', { file, tool, where }),
      coverageEveryRun: (addopts, target) =>
        say('evidence.coverageEveryRun', {
          addopts,
          target: piece(target, 'evidence.coverageTarget', { target: target! }),
        }),
      testpaths: (line) => say('evidence.testpaths', { line }),
      markers: (line) => say('evidence.markers', { line }),
      pythonpath: (line) => say('evidence.pythonpath', { line }),
      declared: (quoted) => say('evidence.declared', { quoted }),
      noConfig: (file) => say('evidence.noConfig', { file }),
      toxRuns: (quoted) => say('evidence.toxRuns', { quoted }),
      conftest: (file, importLine, fixtures, count, firstAt) =>
        say('evidence.conftest', {
          file,
          importLine: piece(importLine, 'evidence.conftestImport', { line: importLine! }),
          fixtures: piece(count, 'evidence.conftestFixtures', {
            count,
            fixtures,
            firstAt: piece(firstAt, 'evidence.conftestFirstAt', { line: firstAt! }),
          }),
        }),
      noFrameworkImport: (file) => say('evidence.noFrameworkImport', { file }),
      subclasses: (classes) => say('evidence.subclasses', { classes }),
      uses: (names) => say('evidence.uses', { names }),
      testFunctions: (n, style) =>
        say('evidence.testFunctions', {
          count: n,
          style:
            style === 'self'
              ? say('evidence.testFunctionsSelf')
              : style === 'assert'
                ? say('evidence.testFunctionsAssert')
                : '',
        }),
      takesFixtures: (names) => say('evidence.takesFixtures', { names }),
      grepImport: (statement, files, names) => say('evidence.grepImport', { statement, count: files, names }),
      grepImportsFrom: (module, files, names) =>
        say('evidence.grepImportsFrom', { module, count: files, names }),
      plugin: (name, purpose) =>
        say('evidence.plugin', {
          name,
          purpose: piece(purpose, 'evidence.pluginPurpose', { purpose: purpose! }),
        }),
      knownPlugins,
      unittestToo: say('evidence.unittestToo'),
      unittestBuiltIn: say('evidence.unittestBuiltIn'),
      orAlso: (command, other) => say('evidence.orAlso', { command, other }),
      notJson: (file) => say('evidence.notJson', { file }),
      dependsOn: (file, dep) => say('evidence.dependsOn', { file, dep }),
      inSection: (quoted, section) => say('evidence.inSection', { quoted, section }),
      withLine: (dep, quoted) =>
        say('evidence.withLine', {
          dep,
          quoted: piece(quoted, 'evidence.withLineQuoted', { quoted: quoted! }),
        }),
      endToEnd: (dep) => say('evidence.endToEnd', { dep }),
      npmScript: (quoted) => say('evidence.npmScript', { quoted }),
      coverageScript: (script, command) => say('evidence.coverageScript', { script, command }),
      configuresVitest: (file) => say('evidence.configuresVitest', { file }),
      testEnvironment: (quoted) => say('evidence.testEnvironment', { quoted }),
      coverageConfigured: (quoted) => say('evidence.coverageConfigured', { quoted }),
      configExists: (file, tool) => say('evidence.configExists', { file, tool }),
      noTestLibrary: (file) => say('evidence.noTestLibrary', { file }),
      testCases: (n) => say('evidence.testCases', { count: n }),
      npmTest: (script) => say('evidence.npmTest', { script }),
    } satisfies EvidenceWords,
    failed: (reason: string) => say('failed', { reason }),
  };
}

const en: DemoText = {
  ...common('en'),

  noResult: (result) =>
    `The subagent did not come back with a result: \`${result}\`.\n\n` +
    'Nothing it explored reached my context, so I have nothing to report. You can try again.',
  demoNote:
    'Note: this is the offline **demo model** (scripted, no network). It only knows the three sample prompts well ' +
    '(find the testing framework, summarize every file, create and verify a module); anything else gets this generic ' +
    'exploration. To have a real model work on your request, choose one in **Settings** and add an API key.',
  frameworkTask: {
    say: "I'll delegate this to a subagent so my own context stays small: it can open as many files as it needs, and only its answer comes back to me.",
    description: () => 'find testing framework',
    prompt: () =>
      'Find out which testing framework this project uses.\n\n' +
      'List the project files, read the dependency files (requirements.txt, pyproject.toml or package.json) and any ' +
      'test configuration (pytest.ini, setup.cfg, conftest.py, `vitest.config.*`, `jest.config.*`), and look at one or two ' +
      'test files. Report the framework with the evidence (file names and the lines that show it), plus any plugins ' +
      'or test configuration you find.',
  },
  summarizeTask: {
    say: `Reading every file would fill my context, so I'll hand this to a subagent and keep only its summary.`,
    description: (ext) => `summarize ${ext ? `.${ext}` : 'source'} files`,
    prompt: (ext) =>
      `Find every ${ext ? `.${ext} file` : 'source file'} in this project (skip node_modules), read each one, and summarize what each one does ` +
      'in a sentence or two, based on its docstring or leading doc comment and its top-level definitions.\n\n' +
      'Return a markdown list with one bullet per file, in path order.',
  },
  createTask: {
    say: "I'll have a subagent write the module, then check its work myself from here.",
    description: () => 'create a new module',
    prompt: () =>
      'Create a new small module in this project: readability helpers (a sentence count and the average word length), in the ' +
      "project's language and layout, with a docstring or doc comment, plus a test for it in the same style as the " +
      'existing tests. Pick a module name that does not exist yet.\n\n' +
      'Do not run the tests. Report the exact paths you wrote and what each file contains.',
  },
  exploreTask: {
    say: "I'll send a subagent to explore the project first, so the files it reads stay out of my context.",
    description: () => 'explore the project',
    prompt: (userPrompt) =>
      'Explore this project and report what it contains.\n\n' +
      'List its files, read the README (or the main entry point) and the dependency file, and describe what the ' +
      'project is and how it is laid out.\n\n' +
      `For context, the user asked: "${userPrompt}"`,
  },
  contextNote: (read, reportChars) =>
    `The subagent ${read ? `read ${plural(read.files, 'file')} (${read.chars} characters) ` : 'did its reading '}in its own context, which was thrown away when it finished. ` +
    `Only its ${reportChars}-character report came back to me, so none of that exploration is in my context.`,
  frameworkUnclear: (report) =>
    `The subagent could not pin down a testing framework. Its report:\n\n${report}`,
  frameworkUsed: (framework) => `This project uses **${framework}** for its tests.`,
  evidenceFound: 'Evidence the subagent found:',
  alsoConfigured: 'Also configured:',
  runThem: (run) => `Run them with ${run}.`,
  reportAsIs: (report) => `The subagent's report:\n\n${report}`,
  wentThrough: (n, ext) => `The subagent went through ${plural(n, ext ? `.${ext} file` : 'file')}. In short:`,
  unreadableCount: (n) => `${plural(n, 'file')} could not be read; the list says which.`,
  cannotReallyWork: (prompt) =>
    `I'm the offline demo model, so I cannot really work on "${prompt}". ` +
    'What I can do is send a subagent to explore the project. Here is what it found:',
  noModulePath: (report) =>
    `The subagent did not report a module path I could check, so I cannot verify anything. Its report:\n\n${report}`,
  willVerify: (module, test) =>
    `The subagent reports writing \`${module}\`${test ? ` and \`${test}\`` : ''}. I'll verify it myself, starting with reading ${test ? 'both files' : 'it'}.`,
  willRun: `Both files are there and the test imports only names the module defines. Now I'll run the test.`,
  pytestFallback:
    'pytest is not installed in this sandbox, so I will load the test file with plain Python and call its test functions directly.',
  createdModule: (module, doc, names) =>
    `- \`${module}\`: ${doc ? `${doc} ` : ''}Defines ${names || 'nothing I could find'}.`,
  reportedButUnreadable: (path) => `- \`${path}\`: reported by the subagent, but I could not read it.`,
  createdTest: (test, n, framework, names) => `- \`${test}\`: ${plural(n, `${framework} test`)} (${names}).`,
  readingFailed: (list) => `- Reading failed for ${list}.`,
  noImports: (module) => `- The test does not import anything from \`${module}\` that I could find.`,
  importsFit: (names, from, n) =>
    `- I read both files: the test imports ${names} from \`${from}\`, and the module defines ${n === 1 ? 'it' : 'all of them'}.`,
  importsMissing: (names, module) =>
    `- Problem: the test imports ${names}, which \`${module}\` does not define.`,
  ranPassed: (shown) => `- I ran the test here and it passed:\n\n${shown}`,
  runnerMissing: (missing, shown, needs, withPytest) =>
    `- I tried to run the test, but \`${missing}\` is not available in this sandbox:\n\n${shown}\n\n` +
    `  Running it needs a sandbox with ${needs}${withPytest ? ' and pytest' : ''}. ` +
    'So this verification is a reading of the code, not a test run.',
  ranFailed: (shown) => `- I ran the test here and it did **not** pass:\n\n${shown}`,
  verdict: {
    unchecked: 'I could not check the module against its test.',
    mismatch: 'Verdict: the module and its test do not fit together yet.',
    pass: 'Verdict: the new module works and its test passes.',
    fail: 'Verdict: the files exist, but the test fails; see the output above.',
    notRun: 'Verdict: the files exist and fit together, but the test has not been run.',
  },
  createdHeader: 'The subagent created:',
  verifiedHeader: 'I verified it myself, here in my own context (not through another task):',

  solo: {
    note: (read) =>
      `I did this without a subagent${read ? `, reading ${plural(read.files, 'file')} (${read.chars} characters) myself` : ''}: ` +
      'everything the tools returned is in my own context now, and is sent again with every call I make from here on.',
    willVerify: (module, test) =>
      `I wrote \`${module}\`${test ? ` and \`${test}\`` : ''}. Now I'll verify it, starting with reading ${test ? 'both files' : 'it'} back.`,
    createdHeader: 'I created:',
  },
  split: {
    say: (handed, kept) =>
      `I may delegate too, so I'll hand ${plural(handed, 'file')} to a subagent of my own and read the other ${kept} myself.`,
    description: (n) => `summarize ${plural(n, 'file')}`,
    prompt: (ext, files) =>
      `Read these ${plural(files.length, `${ext ? `.${ext}` : 'source'} file`)} and summarize what each one does, ` +
      'as a markdown list with one bullet per file, in path order:\n' +
      files.map((f) => `- ${f}`).join('\n'),
    handedOff: (n) =>
      `(${plural(n, 'file')} of these ${n === 1 ? 'was' : 'were'} summarized by a subagent of my own; only its summary came back to me.)`,
  },
  listStep: "Let me start by listing the project's files.",
  listingFailed: (error) => `Listing failed (${error}); I'll try the usual dependency files directly.`,
  frameworkPlan: (language, hasTests) =>
    `This is a ${language} project. I'll read the dependency and test configuration files and ${hasTests ? 'a test file or two' : 'look for tests'}, and grep for test-framework imports.`,
  noRunnerFound:
    'I found no test runner in the dependencies, no test configuration and no test-framework imports.',
  couldNotRead: (list) => `Could not read: ${list}.`,
  couldNotReadList: (list) => `- Could not read ${list}.`,
  filesChecked: (list, read, chars, total) =>
    `Files checked: ${list || 'none'}. ` +
    `Read ${plural(read, 'file')} (${chars} characters) out of ${plural(total, 'file')} in the project.`,
  findFirst: (ext) => `I'll find every ${ext ? `.${ext}` : 'source'} file first.`,
  found: (n, ext, batched) =>
    `Found ${plural(n, `${ext ? `.${ext}` : 'source'} file`)}. Reading ${batched ? 'them in batches' : 'them all'}.`,
  cannotList: (output) => `I could not list the files: ${output}`,
  noneFound: (ext, command) =>
    `There are no ${ext ? `.${ext}` : 'source'} files in this project (\`${command}\` found nothing).`,
  unreadableLine: (path, error) => `- \`${path}\`: could not be read (${error}).`,
  summariesHeading: (ext) => `## What each ${ext ? `.${ext}` : 'source'} file does`,
  skipped: (n) => `(${plural(n, 'more file')} not read, to stay within my call budget.)`,
  lookAtConfig: (test) =>
    `I'll look at how the project is configured and how ${test ? `\`${test}\` is` : 'its tests are'} written, so the new module fits in.`,
  willWrite: (framework, module, test, styleFrom) =>
    `The tests use ${framework}. \`${module}\` does not exist yet, so I'll write it, plus \`${test}\` in the same style` +
    `${styleFrom ? `, importing it the way \`${styleFrom}\` imports its module` : ''}.`,
  writtenLine: (path, result, what) => `- \`${path}\` (${result}): ${what}`,
  notWritten: (path, error) => `- \`${path}\`: **not written** (${error})`,
  moduleDescription: (doc, names) => `${doc ?? 'a new module'} Defines ${names}.`,
  testDescription: (n, framework, names, imported, from) =>
    `${plural(n, `${framework} test`)} (${names}), importing ${imported} from \`${from}\`.`,
  createdAll: 'Created a new module and a test for it:',
  createdSome: 'I tried to create a new module and a test, but not everything was written:',
  didNotRun: 'I did not run the tests, as asked.',
  willRead: (list) => `I'll read ${list}.`,
  listingEmpty: (error) =>
    `I could not list the project's files${error ? `: ${error}` : ' (the listing was empty)'}.`,
  projectHeading: '## The project',
  fileCounts: (files, language, sources, tests) =>
    `- ${plural(files, 'file')}, mostly ${language}: ${plural(sources, 'source file')} and ${plural(tests, 'test file')}.`,
  layout: (folders, files) => `- Top-level folders: ${folders || 'none'}; top-level files: ${files}.`,
  readmeLine: (path, title, paragraph) =>
    `- \`${path}\`${title ? ` is titled "${title}"` : ''}${paragraph ? `: ${paragraph}` : ''}`,
  manifest: (path, name, description, deps, names) => {
    const parts: string[] = [];
    if (name) parts.push(`names the project \`${name}\``);
    if (description) parts.push(`describes it as "${description}"`);
    parts.push(
      deps ? `lists ${plural(deps, 'dependency', 'dependencies')}: ${names}` : 'lists no dependencies',
    );
    return `\`${path}\` ${parts.join(', ')}.`;
  },
  invalidJson: (path) => `\`${path}\` is not valid JSON.`,
};

const zh: DemoText = {
  ...common('zh'),

  noResult: (result) =>
    `子代理没有带回结果：\`${result}\`。\n\n` +
    '它探索到的内容都没有进入我的上下文，所以我没有什么可以报告的。你可以再试一次。',
  demoNote:
    '注意：这是离线的**演示模型**（按脚本运行，不联网）。它只熟悉三个示例提示（找出测试框架、总结每个文件、' +
    '创建并验证一个模块），其他请求都只会得到这样的通用探索。要让真正的模型处理你的请求，请在**设置**中选择一个模型并添加 API 密钥。',
  frameworkTask: {
    say: '我把这件事交给一个子代理，这样我自己的上下文能保持精简：它需要打开多少文件都可以，回到我这里的只有它的答案。',
    description: () => '找出测试框架',
    prompt: () =>
      '找出这个项目使用的测试框架。\n\n' +
      '列出项目文件，阅读依赖文件（requirements.txt、pyproject.toml 或 package.json）和测试配置' +
      '（pytest.ini、setup.cfg、conftest.py、`vitest.config.*`、`jest.config.*`），再看一两个测试文件。' +
      '报告所用的框架及依据（文件名和能说明问题的那几行），以及你发现的插件或测试配置。',
  },
  summarizeTask: {
    say: '逐个阅读所有文件会塞满我的上下文，所以我把它交给子代理，只保留它的总结。',
    description: (ext) => `总结${ext ? ` .${ext} ` : '源代码'}文件`,
    prompt: (ext) =>
      `找出这个项目中所有的${ext ? ` .${ext} ` : '源代码'}文件（跳过 node_modules），逐个阅读，` +
      '并根据文件开头的 docstring 或文档注释以及顶层定义，用一两句话总结每个文件的作用。\n\n' +
      '返回一个 Markdown 列表，每个文件一条，按路径排序。',
  },
  createTask: {
    say: '我让子代理来编写这个模块，然后在这里亲自检查它的成果。',
    description: () => '新建模块',
    prompt: () =>
      '在这个项目中新建一个小模块：可读性辅助函数（统计句子数和计算平均词长），沿用项目的语言和目录结构，' +
      '带上 docstring 或文档注释，并按照现有测试的风格为它写一个测试。模块名要选一个还不存在的。\n\n' +
      '不要运行测试。报告你写入的确切路径，以及每个文件的内容。',
  },
  exploreTask: {
    say: '我先派一个子代理去探索这个项目，这样它读过的文件就不会进入我的上下文。',
    description: () => '探索项目',
    prompt: (userPrompt) =>
      '探索这个项目并报告其中的内容。\n\n' +
      '列出它的文件，阅读 README（或主入口文件）和依赖文件，说明这个项目是做什么的、结构是怎样的。\n\n' +
      `供参考，用户的原话是：“${userPrompt}”`,
  },
  contextNote: (read, reportChars) =>
    `子代理在它自己的上下文中${read ? `读取了 ${read.files} 个文件（${read.chars} 个字符）` : '完成了阅读'}，` +
    `这个上下文在它结束时就被丢弃了。回到我这里的只有它那份 ${reportChars} 个字符的报告，所以那些探索都不在我的上下文里。`,
  frameworkUnclear: (report) => `子代理没能确定测试框架。它的报告如下：\n\n${report}`,
  frameworkUsed: (framework) => `这个项目用 **${framework}** 做测试。`,
  evidenceFound: '子代理找到的依据：',
  alsoConfigured: '另外还配置了：',
  runThem: (run) => `运行测试：${run}。`,
  reportAsIs: (report) => `子代理的报告：\n\n${report}`,
  wentThrough: (n, ext) => `子代理看完了 ${n} 个${ext ? ` .${ext} ` : ''}文件。简要来说：`,
  unreadableCount: (n) => `有 ${n} 个文件无法读取，列表中已注明是哪些。`,
  cannotReallyWork: (prompt) =>
    `我是离线演示模型，没法真正处理“${prompt}”。` + '我能做的是派一个子代理去探索这个项目。下面是它的发现：',
  noModulePath: (report) => `子代理没有报告我能检查的模块路径，所以我无法验证。它的报告如下：\n\n${report}`,
  willVerify: (module, test) =>
    `子代理报告说写入了 \`${module}\`${test ? ` 和 \`${test}\`` : ''}。我来亲自验证，先读${test ? '这两个文件' : '这个文件'}。`,
  willRun: '两个文件都在，而且测试只导入了模块中定义的名称。现在我来运行测试。',
  pytestFallback: '这个沙箱里没有安装 pytest，所以我改用普通的 Python 加载测试文件，直接调用其中的测试函数。',
  createdModule: (module, doc, names) =>
    `- \`${module}\`：${doc ? `${doc} ` : ''}${names ? `定义了 ${names}。` : '没有找到任何定义。'}`,
  reportedButUnreadable: (path) => `- \`${path}\`：子代理报告已写入，但我读不到它。`,
  createdTest: (test, n, framework, names) => `- \`${test}\`：${n} 个 ${framework} 测试（${names}）。`,
  readingFailed: (list) => `- 读取失败：${list}。`,
  noImports: (module) => `- 我没有找到测试从 \`${module}\` 导入的任何内容。`,
  importsFit: (names, from, n) =>
    `- 我读了这两个文件：测试从 \`${from}\` 导入了 ${names}，模块中${n === 1 ? '有它的定义' : '全都有定义'}。`,
  importsMissing: (names, module) => `- 问题：测试导入了 ${names}，但 \`${module}\` 中没有定义。`,
  ranPassed: (shown) => `- 我在这里运行了测试，测试通过了：\n\n${shown}`,
  runnerMissing: (missing, shown, needs, withPytest) =>
    `- 我尝试运行测试，但这个沙箱里没有 \`${missing}\`：\n\n${shown}\n\n` +
    `  要运行它，需要一个装有 ${needs}${withPytest ? ' 和 pytest' : ''} 的沙箱。` +
    '所以这次验证只是阅读了代码，并没有真正运行测试。',
  ranFailed: (shown) => `- 我在这里运行了测试，但测试**没有**通过：\n\n${shown}`,
  verdict: {
    unchecked: '我没能对照测试检查这个模块。',
    mismatch: '结论：模块和它的测试还对不上。',
    pass: '结论：新模块可以正常工作，测试也通过了。',
    fail: '结论：文件都在，但测试失败了，详见上面的输出。',
    notRun: '结论：文件都在，彼此也对得上，但测试还没有运行。',
  },
  createdHeader: '子代理创建了：',
  verifiedHeader: '我在这里、在我自己的上下文中亲自做了验证（没有再交给另一个任务）：',

  solo: {
    note: (read) =>
      `这次我没有用子代理${read ? `，而是自己读取了 ${read.files} 个文件（${read.chars} 个字符）` : ''}：` +
      '工具返回的所有内容现在都在我自己的上下文里，之后我每次调用模型都会再次发送它们。',
    willVerify: (module, test) =>
      `我写好了 \`${module}\`${test ? ` 和 \`${test}\`` : ''}。现在来验证，先把${test ? '这两个文件' : '它'}读回来。`,
    createdHeader: '我创建了：',
  },
  split: {
    say: (handed, kept) =>
      `我也可以委派，所以把其中 ${handed} 个文件交给我自己的一个子代理，其余 ${kept} 个由我自己读。`,
    description: (n) => `总结 ${n} 个文件`,
    prompt: (ext, files) =>
      `阅读下面这 ${files.length} 个${ext ? ` .${ext} ` : '源代码'}文件，用一两句话总结每个文件的作用，` +
      '返回一个 Markdown 列表，每个文件一条，按路径排序：\n' +
      files.map((f) => `- ${f}`).join('\n'),
    handedOff: (n) => `（其中 ${n} 个文件由我自己的子代理总结；回到我这里的只有它的总结。）`,
  },
  listStep: '先列出项目的文件。',
  listingFailed: (error) => `列出文件失败（${error}），我直接尝试读取常见的依赖文件。`,
  frameworkPlan: (language, hasTests) =>
    `这是一个 ${language} 项目。我会阅读依赖文件和测试配置文件，${hasTests ? '再看一两个测试文件' : '并查找测试'}，同时用 grep 搜索测试框架的导入。`,
  noRunnerFound: '依赖中没有测试运行器，没有测试配置，也没有测试框架的导入。',
  couldNotRead: (list) => `无法读取：${list}。`,
  couldNotReadList: (list) => `- 无法读取 ${list}。`,
  filesChecked: (list, read, chars, total) =>
    `检查过的文件：${list || '无'}。共读取 ${read} 个文件（${chars} 个字符），项目中共有 ${total} 个文件。`,
  findFirst: (ext) => `先找出所有${ext ? ` .${ext} ` : '源代码'}文件。`,
  found: (n, ext, batched) =>
    `找到 ${n} 个${ext ? ` .${ext} ` : '源代码'}文件，${batched ? '分批阅读' : '全部读一遍'}。`,
  cannotList: (output) => `无法列出文件：${output}`,
  noneFound: (ext, command) =>
    `这个项目里没有${ext ? ` .${ext} ` : '源代码'}文件（\`${command}\` 什么也没找到）。`,
  unreadableLine: (path, error) => `- \`${path}\`：无法读取（${error}）。`,
  summariesHeading: (ext) => `## 每个${ext ? ` .${ext} ` : '源代码'}文件的作用`,
  skipped: (n) => `（为了不超出调用次数的限制，还有 ${n} 个文件没有读。）`,
  lookAtConfig: (test) =>
    `我先看看项目是怎么配置的，以及${test ? ` \`${test}\` ` : '测试'}是怎么写的，好让新模块和项目保持一致。`,
  willWrite: (framework, module, test, styleFrom) =>
    `测试用的是 ${framework}。\`${module}\` 还不存在，所以我来写它，并按同样的风格写 \`${test}\`` +
    `${styleFrom ? `，导入方式和 \`${styleFrom}\` 导入其模块的方式一样` : ''}。`,
  writtenLine: (path, result, what) => `- \`${path}\`（${result}）：${what}`,
  notWritten: (path, error) => `- \`${path}\`：**未写入**（${error}）`,
  moduleDescription: (doc, names) => `${doc ?? '一个新模块。'} 定义了 ${names}。`,
  testDescription: (n, framework, names, imported, from) =>
    `${n} 个 ${framework} 测试（${names}），从 \`${from}\` 导入 ${imported}。`,
  createdAll: '新建了一个模块和它的测试：',
  createdSome: '我尝试新建一个模块和它的测试，但并非所有文件都写入成功：',
  didNotRun: '按照要求，我没有运行测试。',
  willRead: (list) => `我来读一下 ${list}。`,
  listingEmpty: (error) => `无法列出项目的文件${error ? `：${error}` : '（列表为空）'}。`,
  projectHeading: '## 项目概况',
  fileCounts: (files, language, sources, tests) =>
    `- 共 ${files} 个文件，主要是 ${language}：${sources} 个源文件，${tests} 个测试文件。`,
  layout: (folders, files) => `- 顶层文件夹：${folders || '无'}；顶层文件：${files}。`,
  readmeLine: (path, title, paragraph) =>
    `- \`${path}\`${title ? ` 的标题是“${title}”` : ''}${paragraph ? `：${paragraph}` : ''}`,
  manifest: (path, name, description, deps, names) => {
    const parts: string[] = [];
    if (name) parts.push(`项目名为 \`${name}\``);
    if (description) parts.push(`描述为“${description}”`);
    parts.push(deps ? `列出了 ${deps} 个依赖：${names}` : '没有列出依赖');
    return `\`${path}\`：${parts.join('；')}。`;
  },
  invalidJson: (path) => `\`${path}\` 不是有效的 JSON。`,
};

const ja: DemoText = {
  ...common('ja'),

  noResult: (result) =>
    `サブエージェントから結果が返ってきませんでした：\`${result}\`。\n\n` +
    'サブエージェントが調べた内容は私のコンテキストに届いていないので、報告できることがありません。もう一度試してみてください。',
  demoNote:
    '注：これはオフラインの**デモモデル**です（スクリプトで動作し、ネットワークは使いません）。よく知っているのは 3 つの' +
    'サンプルプロンプト（テストフレームワークを調べる、各ファイルを要約する、モジュールを作成して検証する）だけで、' +
    'それ以外の依頼にはこのような一般的な調査で答えます。実際のモデルに依頼を処理させるには、**設定**でモデルを選び、API キーを追加してください。',
  frameworkTask: {
    say: 'これはサブエージェントに任せます。そうすれば私自身のコンテキストは小さいままです。サブエージェントは必要なだけファイルを開けますが、私に戻ってくるのはその答えだけです。',
    description: () => 'テストフレームワークを調べる',
    prompt: () =>
      'このプロジェクトが使っているテストフレームワークを調べてください。\n\n' +
      'プロジェクトのファイルを一覧し、依存関係のファイル（requirements.txt、pyproject.toml または package.json）と' +
      'テストの設定（pytest.ini、setup.cfg、conftest.py、`vitest.config.*`、`jest.config.*`）を読み、テストファイルも一つか二つ見てください。' +
      'フレームワークを根拠（ファイル名と、それを示す行）とともに報告し、見つかったプラグインやテスト設定も挙げてください。',
  },
  summarizeTask: {
    say: 'すべてのファイルを読むと私のコンテキストが埋まってしまうので、サブエージェントに任せて、要約だけを受け取ります。',
    description: (ext) => `${ext ? `.${ext} ` : 'ソース'}ファイルを要約する`,
    prompt: (ext) =>
      `このプロジェクトの${ext ? ` .${ext} ` : 'ソース'}ファイルをすべて探し（node_modules は除く）、一つずつ読んで、` +
      'docstring や冒頭のドキュメントコメントとトップレベルの定義をもとに、それぞれの役割を一、二文で要約してください。\n\n' +
      'ファイルごとに一項目の Markdown リストを、パス順で返してください。',
  },
  createTask: {
    say: 'モジュールはサブエージェントに書いてもらい、その結果はここで私自身が確認します。',
    description: () => '新しいモジュールを作成する',
    prompt: () =>
      'このプロジェクトに小さな新しいモジュールを作成してください。内容は文章の読みやすさを測る補助関数（文の数と単語の平均の長さ）で、' +
      'プロジェクトの言語と構成に合わせ、docstring またはドキュメントコメントを付けてください。既存のテストと同じスタイルでテストも書いてください。' +
      'モジュール名はまだ存在しないものを選んでください。\n\n' +
      'テストは実行しないでください。書き込んだファイルの正確なパスと、各ファイルの内容を報告してください。',
  },
  exploreTask: {
    say: 'まずサブエージェントにプロジェクトを調べてもらいます。そうすれば、読んだファイルが私のコンテキストに入りません。',
    description: () => 'プロジェクトを調べる',
    prompt: (userPrompt) =>
      'このプロジェクトを調べて、何が入っているかを報告してください。\n\n' +
      'ファイルを一覧し、README（またはメインのエントリポイント）と依存関係のファイルを読んで、' +
      'どんなプロジェクトで、どのように構成されているかを説明してください。\n\n' +
      `参考までに、ユーザーの依頼は「${userPrompt}」です。`,
  },
  contextNote: (read, reportChars) =>
    `サブエージェントは自分のコンテキストで${read ? ` ${read.files} 個のファイル（${read.chars} 文字）を読み` : '読み込みを行い'}、` +
    `そのコンテキストは終了時に破棄されました。私に戻ってきたのは ${reportChars} 文字の報告だけなので、その調査の中身は私のコンテキストには入っていません。`,
  frameworkUnclear: (report) =>
    `サブエージェントはテストフレームワークを特定できませんでした。報告は次のとおりです：\n\n${report}`,
  frameworkUsed: (framework) => `このプロジェクトのテストには **${framework}** が使われています。`,
  evidenceFound: 'サブエージェントが見つけた根拠：',
  alsoConfigured: 'ほかに設定されているもの：',
  runThem: (run) => `テストの実行方法：${run}。`,
  reportAsIs: (report) => `サブエージェントの報告：\n\n${report}`,
  wentThrough: (n, ext) =>
    `サブエージェントは${ext ? ` .${ext} ` : ''}ファイルを ${n} 個読みました。要点は次のとおりです：`,
  unreadableCount: (n) => `${n} 個のファイルは読めませんでした。どのファイルかはリストに書いてあります。`,
  cannotReallyWork: (prompt) =>
    `私はオフラインのデモモデルなので、「${prompt}」に実際に取り組むことはできません。` +
    'できるのは、サブエージェントにプロジェクトを調べてもらうことです。わかったことは次のとおりです：',
  noModulePath: (report) =>
    `サブエージェントの報告に確認できるモジュールのパスがないため、何も検証できません。報告は次のとおりです：\n\n${report}`,
  willVerify: (module, test) =>
    `サブエージェントは \`${module}\`${test ? ` と \`${test}\`` : ''} を書いたと報告しています。私自身で検証します。まず${test ? '両方のファイル' : 'そのファイル'}を読みます。`,
  willRun:
    '両方のファイルがあり、テストはモジュールが定義している名前だけをインポートしています。では、テストを実行します。',
  pytestFallback:
    'このサンドボックスには pytest が入っていないので、テストファイルを素の Python で読み込み、テスト関数を直接呼び出します。',
  createdModule: (module, doc, names) =>
    `- \`${module}\`：${doc ? `${doc} ` : ''}${names ? `${names} を定義しています。` : '定義は見つかりませんでした。'}`,
  reportedButUnreadable: (path) =>
    `- \`${path}\`：サブエージェントは書いたと報告していますが、私には読めませんでした。`,
  createdTest: (test, n, framework, names) => `- \`${test}\`：${framework} のテストが ${n} 個（${names}）。`,
  readingFailed: (list) => `- 読み込みに失敗：${list}。`,
  noImports: (module) => `- テストが \`${module}\` から何かをインポートしている箇所は見つかりませんでした。`,
  importsFit: (names, from, n) =>
    `- 両方のファイルを読みました：テストは \`${from}\` から ${names} をインポートしており、モジュールは${n === 1 ? 'それを' : 'そのすべてを'}定義しています。`,
  importsMissing: (names, module) =>
    `- 問題：テストは ${names} をインポートしていますが、\`${module}\` には定義されていません。`,
  ranPassed: (shown) => `- ここでテストを実行し、成功しました：\n\n${shown}`,
  runnerMissing: (missing, shown, needs, withPytest) =>
    `- テストを実行しようとしましたが、このサンドボックスでは \`${missing}\` が使えません：\n\n${shown}\n\n` +
    `  実行するには ${needs}${withPytest ? ' と pytest' : ''} のあるサンドボックスが必要です。` +
    'そのため、この検証はコードを読んだ結果であり、テストを実行したものではありません。',
  ranFailed: (shown) => `- ここでテストを実行しましたが、**失敗しました**：\n\n${shown}`,
  verdict: {
    unchecked: 'モジュールをテストと照らし合わせて確認できませんでした。',
    mismatch: '結論：モジュールとテストはまだ噛み合っていません。',
    pass: '結論：新しいモジュールは動作し、テストも成功しました。',
    fail: '結論：ファイルはありますが、テストが失敗しています。上の出力を見てください。',
    notRun: '結論：ファイルはあり、互いに整合していますが、テストはまだ実行していません。',
  },
  createdHeader: 'サブエージェントが作成したもの：',
  verifiedHeader:
    '検証は私自身がここで、自分のコンテキストの中で行いました（別のタスクには任せていません）：',

  solo: {
    note: (read) =>
      `今回はサブエージェントを使わず${read ? `、${read.files} 個のファイル（${read.chars} 文字）を自分で読みました` : 'に作業しました'}。` +
      'ツールが返した内容はすべて私自身のコンテキストに入っていて、この先の呼び出しのたびに再送されます。',
    willVerify: (module, test) =>
      `\`${module}\`${test ? ` と \`${test}\`` : ''} を書きました。これから検証します。まず${test ? '両方のファイル' : 'それ'}を読み直します。`,
    createdHeader: '私が作成したもの：',
  },
  split: {
    say: (handed, kept) =>
      `私も委任できるので、${handed} 個のファイルを自分のサブエージェントに任せ、残りの ${kept} 個は自分で読みます。`,
    description: (n) => `${n} 個のファイルを要約する`,
    prompt: (ext, files) =>
      `次の ${files.length} 個の${ext ? ` .${ext} ` : 'ソース'}ファイルを読んで、それぞれの役割を一、二文で要約し、` +
      'ファイルごとに一項目の Markdown リストをパス順で返してください：\n' +
      files.map((f) => `- ${f}`).join('\n'),
    handedOff: (n) =>
      `（このうち ${n} 個のファイルは私のサブエージェントが要約しました。戻ってきたのはその要約だけです。）`,
  },
  listStep: 'まずプロジェクトのファイルを一覧します。',
  listingFailed: (error) =>
    `ファイルの一覧に失敗しました（${error}）。よくある依存関係のファイルを直接読んでみます。`,
  frameworkPlan: (language, hasTests) =>
    `これは ${language} のプロジェクトです。依存関係とテスト設定のファイルを読み、${hasTests ? 'テストファイルを一つか二つ見て' : 'テストを探して'}、テストフレームワークのインポートを grep で検索します。`,
  noRunnerFound:
    '依存関係にテストランナーはなく、テストの設定もテストフレームワークのインポートも見つかりませんでした。',
  couldNotRead: (list) => `読めなかったファイル：${list}。`,
  couldNotReadList: (list) => `- ${list} を読めませんでした。`,
  filesChecked: (list, read, chars, total) =>
    `確認したファイル：${list || 'なし'}。プロジェクトの ${total} 個のファイルのうち、${read} 個のファイル（${chars} 文字）を読みました。`,
  findFirst: (ext) => `まず${ext ? ` .${ext} ` : 'ソース'}ファイルをすべて探します。`,
  found: (n, ext, batched) =>
    `${ext ? `.${ext} ` : 'ソース'}ファイルが ${n} 個見つかりました。${batched ? '何回かに分けて読みます' : 'すべて読みます'}。`,
  cannotList: (output) => `ファイルを一覧できませんでした：${output}`,
  noneFound: (ext, command) =>
    `このプロジェクトには${ext ? ` .${ext} ` : 'ソース'}ファイルがありません（\`${command}\` では何も見つかりませんでした）。`,
  unreadableLine: (path, error) => `- \`${path}\`：読めませんでした（${error}）。`,
  summariesHeading: (ext) => `## 各${ext ? ` .${ext} ` : 'ソース'}ファイルの役割`,
  skipped: (n) => `（呼び出し回数の上限を超えないよう、残りの ${n} 個のファイルは読んでいません。）`,
  lookAtConfig: (test) =>
    `新しいモジュールがプロジェクトになじむように、プロジェクトの設定と${test ? ` \`${test}\` ` : 'テスト'}の書き方を確認します。`,
  willWrite: (framework, module, test, styleFrom) =>
    `テストには ${framework} が使われています。\`${module}\` はまだないので、これを書き、同じスタイルで \`${test}\` も書きます` +
    `${styleFrom ? `（インポートの仕方は \`${styleFrom}\` に合わせます）` : ''}。`,
  writtenLine: (path, result, what) => `- \`${path}\`（${result}）：${what}`,
  notWritten: (path, error) => `- \`${path}\`：**書き込めませんでした**（${error}）`,
  moduleDescription: (doc, names) => `${doc ?? '新しいモジュール。'} ${names} を定義しています。`,
  testDescription: (n, framework, names, imported, from) =>
    `${framework} のテストが ${n} 個（${names}）。\`${from}\` から ${imported} をインポートしています。`,
  createdAll: '新しいモジュールとそのテストを作成しました：',
  createdSome: '新しいモジュールとテストを作成しようとしましたが、書き込めなかったファイルがあります：',
  didNotRun: '指示どおり、テストは実行していません。',
  willRead: (list) => `${list} を読みます。`,
  listingEmpty: (error) =>
    `プロジェクトのファイルを一覧できませんでした${error ? `：${error}` : '（一覧が空でした）'}。`,
  projectHeading: '## プロジェクトの概要',
  fileCounts: (files, language, sources, tests) =>
    `- ファイルは ${files} 個で、主に ${language} です：ソースファイルが ${sources} 個、テストファイルが ${tests} 個。`,
  layout: (folders, files) => `- 最上位のフォルダ：${folders || 'なし'}。最上位のファイル：${files}。`,
  readmeLine: (path, title, paragraph) =>
    `- \`${path}\`${title ? ` のタイトルは「${title}」` : ''}${paragraph ? `：${paragraph}` : ''}`,
  manifest: (path, name, description, deps, names) => {
    const parts: string[] = [];
    if (name) parts.push(`プロジェクト名は \`${name}\``);
    if (description) parts.push(`説明は「${description}」`);
    parts.push(deps ? `依存関係は ${deps} 個（${names}）` : '依存関係はなし');
    return `\`${path}\`：${parts.join('、')}。`;
  },
  invalidJson: (path) => `\`${path}\` は有効な JSON ではありません。`,
};

/** The demo model's words, by language. */
export const DEMO_TEXT: Record<Lang, DemoText> = { en, zh, ja };

/** `a`, `b`, `c`, `d` and 2 more, in `t`'s language. */
export function listNames(t: DemoText, names: string[], max = 4): string {
  const shown = names
    .slice(0, max)
    .map((n) => `\`${n}\``)
    .join(t.comma);
  return names.length > max ? t.summary.more(shown, names.length - max) : shown;
}

/** `a`, `b`, `c` in the language's list style. */
export function codeList(t: DemoText, names: string[]): string {
  return names.map((n) => `\`${n}\``).join(t.comma);
}

/** The words for a prompt: the language it is written in. */
export function textFor(prompt: string): DemoText {
  return DEMO_TEXT[languageOf(prompt)];
}
