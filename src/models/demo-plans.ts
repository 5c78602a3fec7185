/**
 * The demo model's plans: for each kind of prompt, what the parent and the subagent do at each
 * step of a turn, decided only from the tool results so far.
 *
 *   parent                                   subagent (fresh context, no `task` tool)
 *   ──────                                   ─────────────────────────────────────────
 *   framework: task ─► relay the verdict     list files ─► read deps, config, tests + grep ─► report
 *   summarize: task ─► relay a short list    find *.py ─► read them (batches) ─► one bullet per file
 *   create:    task ─► read both files ─►    list ─► read config + a test ─► write module + test
 *              run the test ─► verdict                                      ─► report the paths
 *   other:     task ─► relay + say what      list ─► read README, manifest, entry ─► describe
 *              the demo can and cannot do
 *
 * Without subagents (context mode `none`, no `task` tool) the parent takes the subagent's steps
 * itself, in its own array, and answers from what they returned; forked, a subagent finds its
 * task as the last user text. A subagent allowed to delegate (it has `task`) hands half of the
 * files of a `summarize` task to a subagent of its own.
 *
 * Each loop answers in the language of the prompt it was given (`languageOf`): the parent in the
 * user's, the subagent in that of the task prompt the parent wrote, which is the user's too. The
 * words are in `demo-text.ts`; the decisions here are the same in every language.
 */
import { extensionOf, intentOf, languageOf, LANGS, type Intent } from './demo-language';
import {
  analyzeTesting,
  basename,
  checkModuleAgainstTest,
  clip,
  configFiles,
  detectLanguage,
  dirname,
  grepCommand,
  isTestFile,
  LIST_COMMAND,
  parseListing,
  planModule,
  sampleTests,
  sourceFiles,
  summarizeFile,
  summaryLine,
  type Language,
  type Reads,
} from './demo-project';
import { DEMO_TEXT, type DemoText } from './demo-text';
import type { Plan, ToolCall, Turn } from './demo-turn';

// ---------------------------------------------------------------------------------------------
// Reading the turn's tool results

function flat(turn: Turn): ToolCall[] {
  return turn.steps.flat();
}

function isError(output: string | undefined): boolean {
  return output === undefined || output.startsWith('Error:') || output.startsWith('Unknown tool:');
}

/** The files read successfully this turn, by the path asked for. */
function readsOf(calls: ToolCall[]): Reads {
  const reads: Reads = new Map();
  for (const c of calls) {
    if (c.name === 'read_file' && typeof c.input.path === 'string' && !isError(c.output))
      reads.set(c.input.path, c.output!);
  }
  return reads;
}

/** Reads that failed, as `path (Error: ...)` for an honest mention. */
function failedReads(calls: ToolCall[]): string[] {
  return calls
    .filter((c) => c.name === 'read_file' && isError(c.output))
    .map((c) => `\`${String(c.input.path)}\` (${clip(c.output ?? 'no result', 120)})`);
}

function bashOutput(calls: ToolCall[], command: string): string | undefined {
  return calls.find((c) => c.name === 'bash' && c.input.command === command)?.output;
}

function readCall(path: string, limit?: number): { name: string; input: Record<string, unknown> } {
  return { name: 'read_file', input: limit ? { path, limit } : { path } };
}

function bashCall(command: string): { name: string; input: Record<string, unknown> } {
  return { name: 'bash', input: { command } };
}

function chars(n: number): string {
  return n.toLocaleString('en-US');
}

// ---------------------------------------------------------------------------------------------
// The parent

/** `a`, `b`, `c` in the language's list style. */
function codeList(t: DemoText, names: string[]): string {
  return names.map((n) => `\`${n}\``).join(t.comma);
}

/** The words for a prompt: the language it is written in. */
export function textFor(prompt: string): DemoText {
  return DEMO_TEXT[languageOf(prompt)];
}

/** The parent's next step. It always delegates first; only the `create` flow verifies by itself. */
export function planParent(turn: Turn, tools: Set<string>): Plan {
  const intent = intentOf(turn.prompt);
  const t = textFor(turn.prompt);
  const calls = flat(turn);
  const task = calls.find((c) => c.name === 'task');
  if (!task) {
    if (!tools.has('task')) return workAlone(t, turn, intent);
    return delegate(t, turn, intent);
  }
  const report = task.output ?? '';
  if (isError(report) || report === '(no summary)') {
    return {
      text: t.noResult(clip(report || 'no result', 300)) + (intent === 'explore' ? `\n\n${t.demoNote}` : ''),
    };
  }
  switch (intent) {
    case 'framework':
      return { text: relayFramework(t, report) };
    case 'summarize':
      return { text: relaySummaries(t, report, turn.prompt) };
    case 'create':
      return verifyCreated(t, report, calls);
    default:
      return { text: relayExploration(t, report, turn.prompt) };
  }
}

/**
 * The parent with no `task` tool (s02's agent): the subagent's steps, taken here. The work is done
 * at the first step where the subagent's plan calls no tool; what it would report is then what
 * the parent answers, and a created module is verified from here as usual.
 */
function workAlone(t: DemoText, turn: Turn, intent: Intent): Plan {
  const upTo = (done: number) => planSubagent({ ...turn, steps: turn.steps.slice(0, done) }, new Set());
  let done = 0;
  let work = upTo(0);
  while (work.calls?.length && done < turn.steps.length) work = upTo(++done);
  if (work.calls?.length) return work;
  const report = work.text ?? '';
  if (intent === 'create') return verifyCreated(t, report, turn.steps.slice(done).flat(), true);
  const stats = readStats(report);
  const note = t.solo.note(stats && { files: stats.files, chars: chars(stats.chars) });
  return { text: [report, note, ...(intent === 'explore' ? [t.demoNote] : [])].join('\n\n') };
}

function delegate(t: DemoText, turn: Turn, intent: Intent): Plan {
  const ext = extensionOf(turn.prompt);
  const task = (say: string, description: string, prompt: string): Plan => ({
    text: say,
    calls: [{ name: 'task', input: { description, prompt } }],
  });
  switch (intent) {
    case 'framework':
      return task(t.frameworkTask.say, t.frameworkTask.description(), t.frameworkTask.prompt());
    case 'summarize':
      return task(t.summarizeTask.say, t.summarizeTask.description(ext), t.summarizeTask.prompt(ext));
    case 'create':
      return task(t.createTask.say, t.createTask.description(), t.createTask.prompt());
    default: {
      const asked = clip(turn.prompt.replace(/\s+/g, ' ').trim(), 300);
      return task(t.exploreTask.say, t.exploreTask.description(asked), t.exploreTask.prompt(asked));
    }
  }
}

/** A pattern that finds any language's form of a phrase (the report may be in any of them). */
function anyOf(phrases: (t: DemoText) => string): string {
  return LANGS.map((lang) => phrases(DEMO_TEXT[lang]).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
}

/** Markdown bullets under a heading line that matches `heading`, with their continuation lines. */
function bulletsUnder(report: string, heading: RegExp): string[] {
  const lines = report.split('\n');
  const start = lines.findIndex((l) => heading.test(l));
  if (start < 0) return [];
  const bullets: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^- /.test(line)) bullets.push(line);
    else if (/^\s+\S/.test(line) && bullets.length) bullets[bullets.length - 1] += `\n${line}`;
    else if (line.trim() !== '') break;
  }
  return bullets;
}

/** What the subagent says it read: `Read 5 files (3,210 characters)`, in any language. */
function readStats(report: string): { files: number; chars: number } | undefined {
  for (const lang of LANGS) {
    const m = DEMO_TEXT[lang].readStatsPattern.exec(report);
    if (m) return { files: Number(m[1]), chars: Number(m[2].replace(/,/g, '')) };
  }
  return undefined;
}

function contextNote(t: DemoText, report: string): string {
  const stats = readStats(report);
  return t.contextNote(stats && { files: stats.files, chars: chars(stats.chars) }, chars(report.length));
}

/** `Label: value` lines of a report, whichever language wrote the label. */
function labelled(label: (t: DemoText) => string): { value: RegExp; rest: RegExp; heading: RegExp } {
  const any = anyOf(label);
  return {
    value: new RegExp(`^#*\\s*(?:${any})\\s*[:：]\\s*\\**\\s*([^*\\n]+?)\\s*\\**\\s*$`, 'im'),
    rest: new RegExp(`^(?:${any})\\s*[:：]\\s*(.+)$`, 'im'),
    heading: new RegExp(`^#*\\s*(?:${any})\\s*[:：]?\\s*$`, 'i'),
  };
}

function relayFramework(t: DemoText, report: string): string {
  const framework = labelled((x) => x.labels.framework).value.exec(report)?.[1];
  const evidence = bulletsUnder(report, labelled((x) => x.labels.evidence).heading)
    .slice(0, 5)
    .map((b) => b.split('\n')[0].replace(/[:：]$/, ''));
  const extras = bulletsUnder(report, labelled((x) => x.labels.extras).heading).slice(0, 3);
  const run = labelled((x) => x.labels.run).rest.exec(report)?.[1];
  if (!framework || new RegExp(`^(?:${anyOf((x) => x.unknown)})`, 'i').test(framework)) {
    return `${t.frameworkUnclear(clip(report, 1500))}\n\n${contextNote(t, report)}`;
  }
  const parts = [t.frameworkUsed(framework)];
  if (evidence.length) parts.push(`${t.evidenceFound}\n${evidence.join('\n')}`);
  if (extras.length) parts.push(`${t.alsoConfigured}\n${extras.join('\n')}`);
  if (run) parts.push(t.runThem(run));
  parts.push(contextNote(t, report));
  return parts.join('\n\n');
}

/** The first sentence of a summary, ended the English or the CJK way. */
const FIRST_SENTENCE = /^(.*?(?:[.!?](?=\s|$)|[。！？]))/;

function relaySummaries(t: DemoText, report: string, prompt: string): string {
  const bullets = report.split('\n').filter((l) => /^- `[^`]+`/.test(l));
  if (!bullets.length) return `${t.reportAsIs(clip(report, 2000))}\n\n${contextNote(t, report)}`;
  const short = bullets.map((b) => {
    const m = /^- (`[^`]+`)\s*[:：]\s*(.*)$/.exec(b);
    if (!m) return b;
    const sentence = FIRST_SENTENCE.exec(m[2])?.[1] ?? m[2];
    return `- ${m[1]}${t.colon}${clip(sentence, 160)}`;
  });
  const unreadable = new RegExp(anyOf((x) => x.unreadable));
  const failed = bullets.filter((b) => unreadable.test(b)).length;
  return [
    t.wentThrough(bullets.length, extensionOf(prompt)),
    short.join('\n'),
    failed ? t.unreadableCount(failed) : '',
    contextNote(t, report),
  ]
    .filter(Boolean)
    .join('\n\n');
}

function relayExploration(t: DemoText, report: string, prompt: string): string {
  const stats = LANGS.map((lang) => new RegExp(`^${DEMO_TEXT[lang].readStatsPattern.source}`));
  const body = report
    .split('\n')
    .filter((l) => !stats.some((p) => p.test(l)) && !/^## /.test(l))
    .slice(0, 24)
    .join('\n')
    .trim();
  return [
    t.cannotReallyWork(clip(prompt.replace(/\s+/g, ' ').trim(), 120)),
    clip(body, 2200),
    contextNote(t, report),
    t.demoNote,
  ].join('\n\n');
}

// ---------------------------------------------------------------------------------------------
// The parent verifies a created module itself

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
function verifyCreated(t: DemoText, report: string, calls: ToolCall[], solo = false): Plan {
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

// ---------------------------------------------------------------------------------------------
// The subagent

/**
 * The subagent's next step, from its prompt (written by the parent) and its tool results; `tools`
 * are the tools it was given (`task` only when it may delegate).
 */
export function planSubagent(turn: Turn, tools: Set<string>): Plan {
  // The parent's first line says what the task is; later lines may quote the user.
  const intent = intentOf(turn.prompt.split('\n')[0]);
  // All the subagent knows of the user's language is the task prompt it was given.
  const t = textFor(turn.prompt);
  switch (intent) {
    case 'framework':
      return findFramework(t, turn);
    case 'summarize':
      return summarizeFiles(t, turn, tools);
    case 'create':
      return createModule(t, turn);
    default:
      return explore(t, turn);
  }
}

/** The listing from the first step; guessed manifests when it failed. */
function listing(turn: Turn): { files: string[]; language: Language; failed?: string } {
  const output = turn.steps[0]?.find((c) => c.name === 'bash')?.output;
  const files = parseListing(output);
  return { files, language: detectLanguage(files), failed: isError(output) ? output : undefined };
}

function listStep(t: DemoText): Plan {
  return { text: t.listStep, calls: [bashCall(LIST_COMMAND)] };
}

function languageName(language: Language): string {
  return language === 'python' ? 'Python' : 'TypeScript/JavaScript';
}

function totalChars(reads: Reads): number {
  let n = 0;
  for (const text of reads.values()) n += text.length;
  return n;
}

function findFramework(t: DemoText, turn: Turn): Plan {
  if (turn.steps.length === 0) return listStep(t);
  const { files, language, failed } = listing(turn);
  const toRead = files.length
    ? [...configFiles(files, language), ...sampleTests(files, language)]
    : ['requirements.txt', 'pyproject.toml', 'package.json'];
  if (turn.steps.length === 1) {
    return {
      text: failed
        ? t.listingFailed(clip(failed, 120))
        : t.frameworkPlan(
            languageName(language),
            toRead.some((f) => isTestFile(f, language)),
          ),
      calls: [...toRead.map((path) => readCall(path)), bashCall(grepCommand(language))],
    };
  }
  const calls = flat(turn);
  const reads = readsOf(calls);
  const report = analyzeTesting(files, reads, bashOutput(calls, grepCommand(language)), language, t);
  const failedList = failedReads(calls);
  const heading = (label: string) => `${label}${t.colon.trimEnd()}`;
  const framework = report.framework === 'unknown' ? t.unknown : report.framework;
  const lines = [`## ${t.labels.framework}${t.colon}**${framework}**`, ''];
  if (report.framework === 'unknown') lines.push(t.noRunnerFound, '');
  if (report.evidence.length)
    lines.push(heading(t.labels.evidence), ...report.evidence.map((e) => `- ${e}`), '');
  if (report.extras.length) lines.push(heading(t.labels.extras), ...report.extras.map((e) => `- ${e}`), '');
  if (report.run) lines.push(`${t.labels.run}${t.colon}${report.run}`, '');
  if (failedList.length) lines.push(t.couldNotRead(failedList.join(t.comma)), '');
  lines.push(t.filesChecked(codeList(t, report.checked), reads.size, chars(totalChars(reads)), files.length));
  return { text: lines.join('\n') };
}

const READ_BATCH = 10;
const MAX_BATCHES = 6;

/** A summary line of each file, as a report lists them: `- \`path\`: ...`. */
const SUMMARY_BULLET = /^- `[^`]+`/;

function summarizeFiles(t: DemoText, turn: Turn, tools: Set<string>): Plan {
  const [first, ...rest] = turn.prompt.split('\n');
  const ext = extensionOf(first);
  const findCommand = ext ? `find . -name '*.${ext}' -not -path '*/node_modules/*' | sort` : LIST_COMMAND;
  // A part handed over by another subagent names its files: there is nothing to look for.
  const given = rest.flatMap((line) => /^- (\S+)$/.exec(line.trim())?.[1] ?? []);
  let steps = turn.steps;
  let files = given;
  if (!given.length) {
    if (steps.length === 0) return { text: t.findFirst(ext), calls: [bashCall(findCommand)] };
    const listed = parseListing(steps[0].find((c) => c.name === 'bash')?.output);
    files = ext ? listed.filter((f) => f.endsWith(`.${ext}`)) : sourceFiles(listed, detectLanguage(listed));
    steps = steps.slice(1);
  }
  // Allowed to delegate, it hands the second half of the files to a subagent of its own, once.
  const handed =
    !given.length && tools.has('task') && files.length >= 2 ? files.slice(Math.ceil(files.length / 2)) : [];
  if (handed.length) {
    if (steps.length === 0) {
      const description = t.split.description(handed.length);
      return {
        text: t.split.say(handed.length, files.length - handed.length),
        calls: [{ name: 'task', input: { description, prompt: t.split.prompt(ext, handed) } }],
      };
    }
    steps = steps.slice(1);
  }
  const own = files.slice(0, files.length - handed.length);
  const batches: string[][] = [];
  for (let i = 0; i < own.length && batches.length < MAX_BATCHES; i += READ_BATCH)
    batches.push(own.slice(i, i + READ_BATCH));
  const step = steps.length;
  if (step < batches.length) {
    const text = step === 0 && !handed.length ? t.found(files.length, ext, batches.length > 1) : undefined;
    return { text, calls: batches[step].map((path) => readCall(path)) };
  }
  const calls = flat(turn);
  const reads = readsOf(calls);
  if (!files.length) {
    const output = turn.steps[0].find((c) => c.name === 'bash')?.output;
    return {
      text: isError(output) ? t.cannotList(clip(output ?? 'no output', 300)) : t.noneFound(ext, findCommand),
    };
  }
  const bullets = batches.flat().map((path) => {
    const text = reads.get(path);
    if (text === undefined) {
      const error = calls.find((c) => c.name === 'read_file' && c.input.path === path)?.output;
      return t.unreadableLine(path, clip(error ?? 'no result', 120));
    }
    return summaryLine(summarizeFile(path, text), t);
  });
  if (handed.length) {
    // Only the other subagent's summary came back: its bullets, or why there are none.
    const report = calls.find((c) => c.name === 'task')?.output ?? 'no result';
    const theirs = report.split('\n').filter((l) => SUMMARY_BULLET.test(l));
    bullets.push(
      ...(theirs.length ? theirs : handed.map((path) => t.unreadableLine(path, clip(report, 120)))),
    );
  }
  const skipped = own.length - batches.flat().length;
  return {
    text: [
      t.summariesHeading(ext),
      '',
      ...bullets,
      '',
      skipped > 0 ? `${t.skipped(skipped)}\n` : '',
      handed.length ? t.split.handedOff(handed.length) : '',
      t.readStats(reads.size, chars(totalChars(reads))),
    ]
      .filter((l, i, all) => l !== '' || all[i - 1] !== '')
      .join('\n'),
  };
}

function createModule(t: DemoText, turn: Turn): Plan {
  if (turn.steps.length === 0) return listStep(t);
  const { files, language } = listing(turn);
  const tests = sampleTests(files, language, 1);
  if (turn.steps.length === 1) {
    return {
      text: t.lookAtConfig(tests[0]),
      calls: [...configFiles(files, language), ...tests].map((path) => readCall(path)),
    };
  }
  const calls = flat(turn);
  const writes = calls.filter((c) => c.name === 'write_file');
  if (!writes.length) {
    const reads = readsOf(calls);
    const testing = analyzeTesting(files, reads, undefined, language);
    const plan = planModule(files, reads, language, testing.framework);
    return {
      text: t.willWrite(plan.framework, plan.modulePath, plan.testPath, plan.styleFrom),
      calls: [
        { name: 'write_file', input: { path: plan.modulePath, content: plan.moduleText } },
        { name: 'write_file', input: { path: plan.testPath, content: plan.testText } },
      ],
    };
  }
  const [moduleWrite, testWrite] = writes;
  const describe = (c: ToolCall | undefined, what: (content: string) => string) => {
    if (!c) return undefined;
    const path = String(c.input.path);
    const content = String(c.input.content ?? '');
    return isError(c.output)
      ? t.notWritten(path, clip(c.output ?? 'no result', 160))
      : t.writtenLine(path, c.output ?? '', what(content));
  };
  const moduleLine = describe(moduleWrite, (content) => {
    const s = summarizeFile(String(moduleWrite.input.path), content);
    return t.moduleDescription(s.doc, codeList(t, s.definitions));
  });
  const testLine = describe(testWrite, (content) => {
    const check = checkModuleAgainstTest(
      String(moduleWrite.input.path),
      String(moduleWrite.input.content ?? ''),
      content,
    );
    return t.testDescription(
      check.tests.length,
      check.framework,
      codeList(t, check.tests),
      codeList(t, check.imported),
      String(check.from),
    );
  });
  const allWritten = writes.every((c) => !isError(c.output));
  return {
    text: [allWritten ? t.createdAll : t.createdSome, '', moduleLine, testLine, '', t.didNotRun]
      .filter((l) => l !== undefined)
      .join('\n'),
  };
}

/** Name, description and dependencies from package.json, pyproject.toml or requirements.txt. */
function describeManifest(t: DemoText, path: string, text: string): string {
  let name: string | undefined;
  let description: string | undefined;
  let deps: string[] = [];
  if (path.endsWith('package.json')) {
    try {
      const pkg = JSON.parse(text) as {
        name?: string;
        description?: string;
        dependencies?: object;
        devDependencies?: object;
      };
      name = pkg.name;
      description = pkg.description;
      deps = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
    } catch {
      return t.invalidJson(path);
    }
  } else if (path.endsWith('.toml')) {
    name = /^name\s*=\s*["']([^"']+)/m.exec(text)?.[1];
    description = /^description\s*=\s*["']([^"']+)/m.exec(text)?.[1];
    const block = /^dependencies\s*=\s*\[([\s\S]*?)\]/m.exec(text)?.[1] ?? '';
    deps = [...block.matchAll(/["']([A-Za-z0-9][\w.-]*)/g)].map((m) => m[1]);
  } else {
    deps = text
      .split('\n')
      .map((l) => /^\s*([A-Za-z0-9][\w.-]*)/.exec(l.replace(/#.*/, ''))?.[1])
      .filter((d): d is string => !!d);
  }
  return t.manifest(
    path,
    name,
    description && clip(description, 160),
    deps.length,
    codeList(t, deps.slice(0, 8)),
  );
}

function explore(t: DemoText, turn: Turn): Plan {
  if (turn.steps.length === 0) return listStep(t);
  const { files, language, failed } = listing(turn);
  const readme = files.find((f) => /^readme(\.\w+)?$/i.test(f));
  const manifest = files.find((f) =>
    (language === 'python' ? /^(pyproject\.toml|requirements\.txt|setup\.py)$/ : /^package\.json$/).test(f),
  );
  const entry = files.find((f) =>
    language === 'python'
      ? /^(src\/)?(\w+\/)?(main|app|cli|__main__)\.py$/.test(f)
      : /^(src\/)?(main|index|app|cli)\.[cm]?[jt]sx?$/.test(f),
  );
  const toRead = [readme, manifest, entry].filter((f): f is string => !!f);
  if (turn.steps.length === 1 && toRead.length) {
    return {
      text: t.willRead(codeList(t, toRead)),
      calls: toRead.map((path) => readCall(path, path === entry ? 80 : undefined)),
    };
  }
  const calls = flat(turn);
  const reads = readsOf(calls);
  if (failed || !files.length) return { text: t.listingEmpty(failed && clip(failed, 300)) };
  const dirs = [...new Set(files.filter((f) => f.includes('/')).map((f) => f.split('/')[0]))];
  const sources = sourceFiles(files, language);
  const tests = sources.filter((f) => isTestFile(f, language));
  const lines = [
    t.projectHeading,
    '',
    t.fileCounts(files.length, languageName(language), sources.length - tests.length, tests.length),
    t.layout(
      codeList(
        t,
        dirs.map((d) => `${d}/`),
      ),
      codeList(
        t,
        files.filter((f) => !f.includes('/')),
      ),
    ),
  ];
  const readmeText = readme ? reads.get(readme) : undefined;
  if (readmeText !== undefined) {
    const title = /^#\s+(.+)$/m.exec(readmeText)?.[1];
    const paragraph = readmeText
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .find((p) => p && !p.startsWith('#') && !p.startsWith('```') && !p.startsWith('!['));
    lines.push(t.readmeLine(readme!, title, paragraph && clip(paragraph.replace(/\s+/g, ' '), 300)));
  }
  for (const path of [manifest, entry]) {
    const text = path ? reads.get(path) : undefined;
    if (!path || text === undefined) continue;
    if (path === manifest) {
      lines.push(`- ${describeManifest(t, path, text)}`);
    } else {
      lines.push(summaryLine(summarizeFile(path, text), t));
    }
  }
  const failedList = failedReads(calls);
  if (failedList.length) lines.push(t.couldNotReadList(failedList.join(t.comma)));
  lines.push('', t.readStats(reads.size, chars(totalChars(reads))));
  return { text: lines.join('\n') };
}
