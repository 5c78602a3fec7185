/**
 * The demo model's words, said: picks keys in words/<lang>.json (a condition picks between keys,
 * never between strings written here) and fills their `{{slots}}` (fill.ts). What each phrase
 * means and takes is `DemoText` (text.ts); words.test.ts checks the three files have the same keys.
 */
import { fill } from './fill';
import { languageOf, type Lang } from './language';
import type { DemoText, EvidenceWords } from './text';
import enWords from './words/en.json';
import jaWords from './words/ja.json';
import zhWords from './words/zh.json';
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
      briefPrompt: () => say('summarizeTask.briefPrompt'),
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
    briefLine: (files: number, language: string, sources: number, tests: number) =>
      say('briefLine', {
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

/** Every phrase of `DemoText` in `lang`, from its words file. */
export function wordsIn(lang: Lang): DemoText {
  return { ...common(lang), ...parent(lang), ...subagent(lang) };
}

/** The demo model's words, by language. */
export const DEMO_TEXT: Record<Lang, DemoText> = { en: wordsIn('en'), zh: wordsIn('zh'), ja: wordsIn('ja') };

/** The words for a prompt: the language it is written in. */
export function textFor(prompt: string): DemoText {
  return DEMO_TEXT[languageOf(prompt)];
}
