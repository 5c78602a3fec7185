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

/** The parent's words: its delegations, what it says of their results, its verification. */
function parent(lang: Lang) {
  const say = sayer(lang);
  /** `.py` or `source`, as it reads inside a sentence (`lead`: where it starts a phrase). */
  const kind = (ext: string | undefined, lead = false) =>
    ext
      ? say(lead ? 'kinds.extLead' : 'kinds.ext', { ext })
      : say(lead ? 'kinds.sourceLead' : 'kinds.source');
  return {
    noResult: (result: string) => say('noResult', { result }),
    demoNote: say('demoNote'),
    frameworkTask: {
      say: say('frameworkTask.say'),
      description: () => say('frameworkTask.description'),
      prompt: () => say('frameworkTask.prompt'),
    },
    summarizeTask: {
      say: say('summarizeTask.say'),
      description: (ext: string | undefined) => say('summarizeTask.description', { kind: kind(ext, true) }),
      prompt: (ext: string | undefined) => say('summarizeTask.prompt', { kind: kind(ext) }),
    },
    createTask: {
      say: say('createTask.say'),
      description: () => say('createTask.description'),
      prompt: () => say('createTask.prompt'),
    },
    exploreTask: {
      say: say('exploreTask.say'),
      description: () => say('exploreTask.description'),
      prompt: (userPrompt: string) => say('exploreTask.prompt', { userPrompt }),
    },
    contextNote: (read: { files: number; chars: string } | undefined, reportChars: string) =>
      say('contextNote', {
        read: read
          ? say('contextNoteRead', { count: read.files, chars: read.chars })
          : say('contextNoteNoRead'),
        reportChars,
      }),
    frameworkUnclear: (report: string) => say('frameworkUnclear', { report }),
    frameworkUsed: (framework: string) => say('frameworkUsed', { framework }),
    evidenceFound: say('evidenceFound'),
    alsoConfigured: say('alsoConfigured'),
    runThem: (run: string) => say('runThem', { run }),
    reportAsIs: (report: string) => say('reportAsIs', { report }),
    wentThrough: (n: number, ext: string | undefined) =>
      say('wentThrough', { count: n, kind: ext ? say('kinds.extOnly', { ext }) : '' }),
    unreadableCount: (n: number) => say('unreadableCount', { count: n }),
    cannotReallyWork: (prompt: string) => say('cannotReallyWork', { prompt }),
    noModulePath: (report: string) => say('noModulePath', { report }),
    willVerify: (module: string, test: string | undefined) =>
      test ? say('willVerifyBoth', { module, test }) : say('willVerifyModule', { module }),
    willRun: say('willRun'),
    pytestFallback: say('pytestFallback'),
    createdModule: (module: string, doc: string | undefined, names: string) =>
      say('createdModule', {
        module,
        doc: doc ? say('createdModuleDoc', { doc }) : '',
        defines: names ? say('createdModuleDefines', { names }) : say('createdModuleNothing'),
      }),
    reportedButUnreadable: (path: string) => say('reportedButUnreadable', { path }),
    createdTest: (test: string, n: number, framework: string, names: string) =>
      say('createdTest', { test, count: n, framework, names }),
    readingFailed: (list: string) => say('readingFailed', { list }),
    noImports: (module: string) => say('noImports', { module }),
    importsFit: (names: string, from: string, n: number) =>
      say('importsFit', { names, from, which: say(n === 1 ? 'importsFitIt' : 'importsFitAll') }),
    importsMissing: (names: string, module: string) => say('importsMissing', { names, module }),
    ranPassed: (shown: string) => say('ranPassed', { shown }),
    runnerMissing: (missing: string, shown: string, needs: string, withPytest: boolean) =>
      say('runnerMissing', { missing, shown, needs, pytest: withPytest ? say('runnerMissingPytest') : '' }),
    ranFailed: (shown: string) => say('ranFailed', { shown }),
    verdict: {
      unchecked: say('verdict.unchecked'),
      mismatch: say('verdict.mismatch'),
      pass: say('verdict.pass'),
      fail: say('verdict.fail'),
      notRun: say('verdict.notRun'),
    },
    createdHeader: say('createdHeader'),
    verifiedHeader: say('verifiedHeader'),
    solo: {
      note: (read: { files: number; chars: string } | undefined) =>
        read ? say('solo.noteRead', { count: read.files, chars: read.chars }) : say('solo.note'),
      willVerify: (module: string, test: string | undefined) =>
        test ? say('solo.willVerifyBoth', { module, test }) : say('solo.willVerifyModule', { module }),
      createdHeader: say('solo.createdHeader'),
    },
    split: {
      say: (handed: number, kept: number) => say('split.say', { count: handed, kept }),
      description: (n: number) => say('split.description', { count: n }),
      prompt: (ext: string | undefined, files: string[]) =>
        say('split.prompt', {
          count: files.length,
          kind: kind(ext),
          files: files.map((f) => `- ${f}`).join('\n'),
        }),
      handedOff: (n: number) => say('split.handedOff', { count: n }),
    },
  };
}

const en: DemoText = {
  ...common('en'),

  ...parent('en'),
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

  ...parent('zh'),
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

  ...parent('ja'),
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
