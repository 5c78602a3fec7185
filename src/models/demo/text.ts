/**
 * Everything the demo model writes in its own words, in each language it answers in. The plans
 * (parent.ts, subagent.ts) decide what to say from the tool results; this file only says it. Facts
 * (paths, quoted lines, tool output, names from the code) are passed in and never translated.
 *
 * The words themselves are data, words/<lang>.json: `{{slot}}` templates with i18next's plural
 * keys (`_one`/`_other`). say.ts picks the keys and fills the slots; this file says what each
 * phrase means and takes.
 *
 * Some phrases are read back: the parent reads the subagent's report to relay it, and that
 * report may be in any of the languages. Those phrases come with the pattern that finds them
 * (`labels`, `readStats`, `unreadable`, `unknown`), and the parent tries every language's.
 *
 * To add a language: add it to `Lang` and `SCRIPTS` (language.ts), give every intent
 * patterns in it, and add words/<lang>.json with English's keys and an entry in `WORDS` (say.ts); the
 * compiler, words.test.ts and demo-language.test.ts name what is missing.
 */

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
  summarizeTask: TaskText<[ext: string | undefined]> & {
    /** The task when the user asked for one line: read every file, return one line. */
    briefPrompt: () => string;
  };
  /** A brief report's line: what the project is, from every file read. */
  briefLine: (files: number, language: string, sources: number, tests: number) => string;
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
