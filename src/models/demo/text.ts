/**
 * Everything the demo model writes in its own words, in each language it answers in. The plans
 * (parent.ts, subagent.ts) decide what to say from the tool results; this file only says it. Facts
 * (paths, quoted lines, tool output, names from the code) are passed in and never translated.
 *
 * The words themselves are data, words/<lang>.json, `{{slot}}` templates with i18next's plural
 * keys (`_one`/`_other`); this file picks the key (a condition picks between keys, never between
 * strings written here) and fills the slots.
 *
 * Some phrases are read back: the parent reads the subagent's report to relay it, and that
 * report may be in any of the languages. Those phrases come with the pattern that finds them
 * (`labels`, `readStats`, `unreadable`, `unknown`), and the parent tries every language's.
 *
 * To add a language: add it to `Lang` and `SCRIPTS` (language.ts), give every intent
 * patterns in it, and add words/<lang>.json with English's keys and an entry in `WORDS`; the
 * compiler, words.test.ts and demo-language.test.ts name what is missing.
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

/** `.py` or `source`, as the kind of files reads inside a sentence (`lead`: where it starts a phrase). */
function kindOf(say: ReturnType<typeof sayer>, ext: string | undefined, lead = false): string {
  return ext
    ? say(lead ? 'kinds.extLead' : 'kinds.ext', { ext })
    : say(lead ? 'kinds.sourceLead' : 'kinds.source');
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

/** The subagent's words: its plans, what it found, what it wrote. */
function subagent(lang: Lang) {
  const say = sayer(lang);
  return {
    listStep: say('listStep'),
    listingFailed: (error: string) => say('listingFailed', { error }),
    frameworkPlan: (language: string, hasTests: boolean) =>
      say('frameworkPlan', {
        language,
        tests: say(hasTests ? 'frameworkPlanTests' : 'frameworkPlanNoTests'),
      }),
    noRunnerFound: say('noRunnerFound'),
    couldNotRead: (list: string) => say('couldNotRead', { list }),
    couldNotReadList: (list: string) => say('couldNotReadList', { list }),
    filesChecked: (list: string, read: number, chars: string, total: number) =>
      say('filesChecked', {
        list: list || say('none'),
        read: say('files', { count: read }),
        chars,
        total: say('files', { count: total }),
      }),
    findFirst: (ext: string | undefined) => say('findFirst', { kind: kindOf(say, ext) }),
    found: (n: number, ext: string | undefined, batched: boolean) =>
      say('found', {
        count: n,
        kind: kindOf(say, ext, true),
        how: say(batched ? 'foundBatched' : 'foundAll'),
      }),
    cannotList: (output: string) => say('cannotList', { output }),
    noneFound: (ext: string | undefined, command: string) =>
      say('noneFound', { kind: kindOf(say, ext), command }),
    unreadableLine: (path: string, error: string) => say('unreadableLine', { path, error }),
    summariesHeading: (ext: string | undefined) => say('summariesHeading', { kind: kindOf(say, ext) }),
    skipped: (n: number) => say('skipped', { count: n }),
    lookAtConfig: (test: string | undefined) =>
      say('lookAtConfig', { tests: test ? say('lookAtConfigTest', { test }) : say('lookAtConfigTests') }),
    willWrite: (framework: string, module: string, test: string, styleFrom: string | undefined) =>
      say('willWrite', {
        framework,
        module,
        test,
        styleFrom: styleFrom ? say('willWriteStyleFrom', { file: styleFrom }) : '',
      }),
    writtenLine: (path: string, result: string, what: string) => say('writtenLine', { path, result, what }),
    notWritten: (path: string, error: string) => say('notWritten', { path, error }),
    moduleDescription: (doc: string | undefined, names: string) =>
      say('moduleDescription', { doc: doc ?? say('moduleDescriptionNew'), names }),
    testDescription: (n: number, framework: string, names: string, imported: string, from: string) =>
      say('testDescription', { count: n, framework, names, imported, from }),
    createdAll: say('createdAll'),
    createdSome: say('createdSome'),
    didNotRun: say('didNotRun'),
    willRead: (list: string) => say('willRead', { list }),
    listingEmpty: (error: string | undefined) =>
      say('listingEmpty', { why: error ? say('listingEmptyError', { error }) : say('listingEmptyNone') }),
    projectHeading: say('projectHeading'),
    fileCounts: (files: number, language: string, sources: number, tests: number) =>
      say('fileCounts', {
        files: say('fileCountsFiles', { count: files }),
        language,
        sources: say('fileCountsSources', { count: sources }),
        tests: say('fileCountsTests', { count: tests }),
      }),
    layout: (folders: string, files: string) => say('layout', { folders: folders || say('none'), files }),
    readmeLine: (path: string, title: string | undefined, paragraph: string | undefined) =>
      say('readmeLine', {
        path,
        title: title ? say('readmeTitle', { title }) : '',
        paragraph: paragraph ? say('readmeParagraph', { paragraph }) : '',
      }),
    manifest: (
      path: string,
      name: string | undefined,
      description: string | undefined,
      deps: number,
      names: string,
    ) => {
      const parts: string[] = [];
      if (name) parts.push(say('manifestName', { name }));
      if (description) parts.push(say('manifestDescription', { description }));
      parts.push(deps ? say('manifestDeps', { count: deps, names }) : say('manifestNoDeps'));
      return say('manifest', { path, parts: parts.join(say('manifestSep')) });
    },
    invalidJson: (path: string) => say('invalidJson', { path }),
  };
}

/** The demo model's words, by language. */
export const DEMO_TEXT: Record<Lang, DemoText> = { en: wordsIn('en'), zh: wordsIn('zh'), ja: wordsIn('ja') };

function wordsIn(lang: Lang): DemoText {
  return { ...common(lang), ...parent(lang), ...subagent(lang) };
}

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
