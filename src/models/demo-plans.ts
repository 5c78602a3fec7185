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
 */
import type { Plan, ToolCall, Turn } from './demo-turn';
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

export type Intent = 'framework' | 'summarize' | 'create' | 'explore';

/** Which of the sample prompts a text asks for (by intent, any case), or `explore`. */
export function intentOf(text: string): Intent {
  const t = text.toLowerCase();
  if (/\b(create|write|add|make|build|generate)\b[^.?!]*\bmodule\b|\bnew module\b/.test(t)) return 'create';
  if (
    /\btest(?:ing|s)?\b[^.?!]*\b(framework|runner|library|libraries|tooling)\b|\b(framework|runner)\b[^.?!]*\btest/.test(
      t,
    )
  ) {
    return 'framework';
  }
  if (
    /\bsummar\w*\s+(?:what\s+)?(?:each|every|all)\b|\bwhat each (?:one|file|module) does\b|\bdescribe (?:each|every|all)\b/.test(
      t,
    ) ||
    /\b(?:read|go through|look at)\s+(?:all|every|each)\b[^.?!]*\bfiles?\b/.test(t)
  ) {
    return 'summarize';
  }
  return 'explore';
}

/** `.py` in "read all .py files" (or a language named in words); undefined when none is named. */
export function extensionOf(text: string): string | undefined {
  const dotted = /(?:^|[\s(`'"])\*?\.([a-z][a-z0-9]{0,4})\b/i.exec(text);
  if (dotted) return dotted[1].toLowerCase();
  if (/\bpython\b/i.test(text)) return 'py';
  if (/\btypescript\b/i.test(text)) return 'ts';
  if (/\bjavascript\b/i.test(text)) return 'js';
  return undefined;
}

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

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

function chars(n: number): string {
  return n.toLocaleString('en-US');
}

// ---------------------------------------------------------------------------------------------
// The parent

const DEMO_NOTE =
  'Note: this is the offline **demo model** (scripted, no network). It only knows the three sample prompts well ' +
  '(find the testing framework, summarize every file, create and verify a module); anything else gets this generic ' +
  'exploration. To have a real model work on your request, choose one in **Settings** and add an API key.';

/** The parent's next step. It always delegates first; only the `create` flow verifies by itself. */
export function planParent(turn: Turn, tools: Set<string>): Plan {
  const intent = intentOf(turn.prompt);
  const calls = flat(turn);
  const task = calls.find((c) => c.name === 'task');
  if (!task) {
    if (!tools.has('task')) {
      return {
        text: 'I have no `task` tool in this run, so I cannot delegate. The demo model only knows how to work through a subagent.',
      };
    }
    return delegate(turn, intent);
  }
  const report = task.output ?? '';
  if (isError(report) || report === '(no summary)') {
    return {
      text:
        `The subagent did not come back with a result: \`${clip(report || 'no result', 300)}\`.\n\n` +
        'Nothing it explored reached my context, so I have nothing to report. You can try again.' +
        (intent === 'explore' ? `\n\n${DEMO_NOTE}` : ''),
    };
  }
  switch (intent) {
    case 'framework':
      return { text: relayFramework(report) };
    case 'summarize':
      return { text: relaySummaries(report, turn.prompt) };
    case 'create':
      return verifyCreated(report, calls);
    default:
      return { text: relayExploration(report, turn.prompt) };
  }
}

function delegate(turn: Turn, intent: Intent): Plan {
  const ext = extensionOf(turn.prompt);
  const files = ext ? `.${ext} file` : 'source file';
  switch (intent) {
    case 'framework':
      return {
        text: "I'll delegate this to a subagent so my own context stays small: it can open as many files as it needs, and only its answer comes back to me.",
        calls: [
          {
            name: 'task',
            input: {
              description: 'find testing framework',
              prompt:
                'Find out which testing framework this project uses.\n\n' +
                'List the project files, read the dependency files (requirements.txt, pyproject.toml or package.json) and any ' +
                'test configuration (pytest.ini, setup.cfg, conftest.py, vitest.config.*, jest.config.*), and look at one or two ' +
                'test files. Report the framework with the evidence (file names and the lines that show it), plus any plugins ' +
                'or test configuration you find.',
            },
          },
        ],
      };
    case 'summarize':
      return {
        text: `Reading every file would fill my context, so I'll hand this to a subagent and keep only its summary.`,
        calls: [
          {
            name: 'task',
            input: {
              description: `summarize ${ext ? `.${ext}` : 'source'} files`,
              prompt:
                `Find every ${files} in this project (skip node_modules), read each one, and summarize what each one does ` +
                'in a sentence or two, based on its docstring or leading doc comment and its top-level definitions.\n\n' +
                'Return a markdown list with one bullet per file, in path order.',
            },
          },
        ],
      };
    case 'create':
      return {
        text: "I'll have a subagent write the module, then check its work myself from here.",
        calls: [
          {
            name: 'task',
            input: {
              description: 'create a new module',
              prompt:
                'Create a new small module in this project: readability helpers (a sentence count and the average word length), in the ' +
                "project's language and layout, with a docstring or doc comment, plus a test for it in the same style as the " +
                'existing tests. Pick a module name that does not exist yet.\n\n' +
                'Do not run the tests. Report the exact paths you wrote and what each file contains.',
            },
          },
        ],
      };
    default:
      return {
        text: "I'll send a subagent to explore the project first, so the files it reads stay out of my context.",
        calls: [
          {
            name: 'task',
            input: {
              description: 'explore the project',
              prompt:
                'Explore this project and report what it contains.\n\n' +
                'List its files, read the README (or the main entry point) and the dependency file, and describe what the ' +
                'project is and how it is laid out.\n\n' +
                `For context, the user asked: "${clip(turn.prompt.replace(/\s+/g, ' ').trim(), 300)}"`,
            },
          },
        ],
      };
  }
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

/** What the subagent says it read: `Read 5 files (3,210 characters)`. */
function readStats(report: string): { files: number; chars: number } | undefined {
  const m = /Read (\d+) files? \(([\d,]+) characters/.exec(report);
  return m ? { files: Number(m[1]), chars: Number(m[2].replace(/,/g, '')) } : undefined;
}

function contextNote(report: string): string {
  const stats = readStats(report);
  const read = stats
    ? `read ${plural(stats.files, 'file')} (${chars(stats.chars)} characters) `
    : 'did its reading ';
  return (
    `The subagent ${read}in its own context, which was thrown away when it finished. ` +
    `Only its ${chars(report.length)}-character report came back to me, so none of that exploration is in my context.`
  );
}

function relayFramework(report: string): string {
  const framework = /Testing framework:\s*\**\s*([^*\n]+?)\s*\**\s*$/im.exec(report)?.[1];
  const evidence = bulletsUnder(report, /^#*\s*Evidence/i)
    .slice(0, 5)
    .map((b) => b.split('\n')[0].replace(/:$/, ''));
  const extras = bulletsUnder(report, /^#*\s*Plugins and configuration/i).slice(0, 3);
  const run = /^Run the tests with:\s*(.+)$/im.exec(report)?.[1];
  if (!framework || /^unknown/i.test(framework)) {
    return `The subagent could not pin down a testing framework. Its report:\n\n${clip(report, 1500)}\n\n${contextNote(report)}`;
  }
  const parts = [`This project uses **${framework}** for its tests.`];
  if (evidence.length) parts.push(`Evidence the subagent found:\n${evidence.join('\n')}`);
  if (extras.length) parts.push(`Also configured:\n${extras.join('\n')}`);
  if (run) parts.push(`Run them with ${run}.`);
  parts.push(contextNote(report));
  return parts.join('\n\n');
}

function relaySummaries(report: string, prompt: string): string {
  const bullets = report.split('\n').filter((l) => /^- `[^`]+`/.test(l));
  if (!bullets.length) return `The subagent's report:\n\n${clip(report, 2000)}\n\n${contextNote(report)}`;
  const short = bullets.map((b) => {
    const m = /^- (`[^`]+`):\s*(.*)$/.exec(b);
    if (!m) return b;
    const sentence = /^(.*?[.!?])(\s|$)/.exec(m[2])?.[1] ?? m[2];
    return `- ${m[1]}: ${clip(sentence, 160)}`;
  });
  const ext = extensionOf(prompt);
  const kind = ext ? `.${ext} file` : 'file';
  const failed = bullets.filter((b) => /could not be read/.test(b)).length;
  return [
    `The subagent went through ${plural(bullets.length, kind)}. In short:`,
    short.join('\n'),
    failed ? `${plural(failed, 'file')} could not be read; the list says which.` : '',
    contextNote(report),
  ]
    .filter(Boolean)
    .join('\n\n');
}

function relayExploration(report: string, prompt: string): string {
  const body = report
    .split('\n')
    .filter((l) => !/^Read \d+ files? \(/.test(l) && !/^## /.test(l))
    .slice(0, 24)
    .join('\n')
    .trim();
  return [
    `I'm the offline demo model, so I cannot really work on "${clip(prompt.replace(/\s+/g, ' ').trim(), 120)}". ` +
      'What I can do is send a subagent to explore the project. Here is what it found:',
    clip(body, 2200),
    contextNote(report),
    DEMO_NOTE,
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

function verifyCreated(report: string, calls: ToolCall[]): Plan {
  const { module, test } = reportedPaths(report);
  if (!module) {
    return {
      text: `The subagent did not report a module path I could check, so I cannot verify anything. Its report:\n\n${clip(report, 1500)}`,
    };
  }
  const reads = readsOf(calls);
  const readAttempted = calls.some((c) => c.name === 'read_file' && c.input.path === module);
  if (!readAttempted) {
    return {
      text: `The subagent reports writing \`${module}\`${test ? ` and \`${test}\`` : ''}. I'll verify it myself, starting with reading ${test ? 'both files' : 'it'}.`,
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
      return {
        text: `Both files are there and the test imports only names the module defines. Now I'll run the test.`,
        calls: [bashCall(command)],
      };
    }
    const result = readRun(last.output ?? '');
    if (!result.ok && result.missing === 'pytest' && runs.length === 1) {
      return {
        text: 'pytest is not installed in this sandbox, so I will load the test file with plain Python and call its test functions directly.',
        calls: [bashCall(runCommand(module, test, check.framework, check.from, true))],
      };
    }
  }
  return { text: createdVerdict(module, test, moduleText, testText, check, runs, failedReads(calls)) };
}

function createdVerdict(
  module: string,
  test: string | undefined,
  moduleText: string | undefined,
  testText: string | undefined,
  check: ReturnType<typeof checkModuleAgainstTest> | undefined,
  runs: ToolCall[],
  failed: string[],
): string {
  const created: string[] = [];
  if (moduleText !== undefined) {
    const s = summarizeFile(module, moduleText);
    created.push(
      `- \`${module}\`: ${s.doc ? `${s.doc} ` : ''}Defines ${s.definitions.map((d) => `\`${d}\``).join(', ') || 'nothing I could find'}.`,
    );
  } else {
    created.push(`- \`${module}\`: reported by the subagent, but I could not read it.`);
  }
  if (test) {
    created.push(
      testText !== undefined && check
        ? `- \`${test}\`: ${plural(check.tests.length, `${check.framework} test`)} (${check.tests.map((t) => `\`${t}\``).join(', ')}).`
        : `- \`${test}\`: reported by the subagent, but I could not read it.`,
    );
  }

  const verification: string[] = [];
  if (failed.length) verification.push(`- Reading failed for ${failed.join(', ')}.`);
  if (check) {
    verification.push(
      check.imported.length === 0
        ? `- The test does not import anything from \`${module}\` that I could find.`
        : check.missing.length === 0
          ? `- I read both files: the test imports ${check.imported.map((n) => `\`${n}\``).join(', ')} from \`${check.from}\`, and the module defines ${check.imported.length === 1 ? 'it' : 'all of them'}.`
          : `- Problem: the test imports ${check.missing.map((n) => `\`${n}\``).join(', ')}, which \`${module}\` does not define.`,
    );
  }
  const last = runs.at(-1);
  if (last) {
    const command = String(last.input.command);
    const result = readRun(last.output ?? '');
    const shown = fence([`$ ${shortCommand(command)}`, ...result.lines.slice(-4)]);
    if (result.ok) {
      verification.push(`- I ran the test here and it passed:\n\n${shown}`);
    } else if (result.missing) {
      const needs = module.endsWith('.py') ? 'Python' : 'Node.js';
      verification.push(
        `- I tried to run the test, but \`${result.missing}\` is not available in this sandbox:\n\n${shown}\n\n` +
          `  Running it needs a sandbox with ${needs}${needs === 'Python' && result.missing === 'pytest' ? ' and pytest' : ''}. ` +
          'So this verification is a reading of the code, not a test run.',
      );
    } else {
      verification.push(`- I ran the test here and it did **not** pass:\n\n${shown}`);
    }
  }
  const verdict = !check
    ? 'I could not check the module against its test.'
    : check.missing.length
      ? 'Verdict: the module and its test do not fit together yet.'
      : last && readRun(last.output ?? '').ok
        ? 'Verdict: the new module works and its test passes.'
        : last && !readRun(last.output ?? '').missing
          ? 'Verdict: the files exist, but the test fails; see the output above.'
          : 'Verdict: the files exist and fit together, but the test has not been run.';
  return [
    'The subagent created:',
    created.join('\n'),
    'I verified it myself, here in my own context (not through another task):',
    verification.join('\n'),
    verdict,
  ].join('\n\n');
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

/** The subagent's next step, from its prompt (written by the parent) and its tool results. */
export function planSubagent(turn: Turn): Plan {
  // The parent's first line says what the task is; later lines may quote the user.
  const intent = intentOf(turn.prompt.split('\n')[0]);
  switch (intent) {
    case 'framework':
      return findFramework(turn);
    case 'summarize':
      return summarizeFiles(turn);
    case 'create':
      return createModule(turn);
    default:
      return explore(turn);
  }
}

/** The listing from the first step; guessed manifests when it failed. */
function listing(turn: Turn): { files: string[]; language: Language; failed?: string } {
  const output = turn.steps[0]?.find((c) => c.name === 'bash')?.output;
  const files = parseListing(output);
  return { files, language: detectLanguage(files), failed: isError(output) ? output : undefined };
}

const LIST_STEP: Plan = {
  text: "Let me start by listing the project's files.",
  calls: [bashCall(LIST_COMMAND)],
};

function totalChars(reads: Reads): number {
  let n = 0;
  for (const text of reads.values()) n += text.length;
  return n;
}

function findFramework(turn: Turn): Plan {
  if (turn.steps.length === 0) return LIST_STEP;
  const { files, language, failed } = listing(turn);
  const toRead = files.length
    ? [...configFiles(files, language), ...sampleTests(files, language)]
    : ['requirements.txt', 'pyproject.toml', 'package.json'];
  if (turn.steps.length === 1) {
    const what = language === 'python' ? 'Python' : 'TypeScript/JavaScript';
    return {
      text: failed
        ? `Listing failed (${clip(failed, 120)}); I'll try the usual dependency files directly.`
        : `This is a ${what} project. I'll read the dependency and test configuration files and ${toRead.some((f) => isTestFile(f, language)) ? 'a test file or two' : 'look for tests'}, and grep for test-framework imports.`,
      calls: [...toRead.map((path) => readCall(path)), bashCall(grepCommand(language))],
    };
  }
  const calls = flat(turn);
  const reads = readsOf(calls);
  const report = analyzeTesting(files, reads, bashOutput(calls, grepCommand(language)), language);
  const failedList = failedReads(calls);
  const lines = [`## Testing framework: **${report.framework}**`, ''];
  if (report.framework === 'unknown') {
    lines.push(
      'I found no test runner in the dependencies, no test configuration and no test-framework imports.',
      '',
    );
  }
  if (report.evidence.length) lines.push('Evidence:', ...report.evidence.map((e) => `- ${e}`), '');
  if (report.extras.length)
    lines.push('Plugins and configuration:', ...report.extras.map((e) => `- ${e}`), '');
  if (report.run) lines.push(`Run the tests with: ${report.run}`, '');
  if (failedList.length) lines.push(`Could not read: ${failedList.join(', ')}.`, '');
  lines.push(
    `Files checked: ${report.checked.map((f) => `\`${f}\``).join(', ') || 'none'}. ` +
      `Read ${plural(reads.size, 'file')} (${chars(totalChars(reads))} characters) out of ${plural(files.length, 'file')} in the project.`,
  );
  return { text: lines.join('\n') };
}

const READ_BATCH = 10;
const MAX_BATCHES = 6;

function summarizeFiles(turn: Turn): Plan {
  const ext = extensionOf(turn.prompt.split('\n')[0]);
  const findCommand = ext ? `find . -name '*.${ext}' -not -path '*/node_modules/*' | sort` : LIST_COMMAND;
  if (turn.steps.length === 0) {
    return {
      text: `I'll find every ${ext ? `.${ext}` : 'source'} file first.`,
      calls: [bashCall(findCommand)],
    };
  }
  const listed = parseListing(turn.steps[0].find((c) => c.name === 'bash')?.output);
  const files = ext
    ? listed.filter((f) => f.endsWith(`.${ext}`))
    : sourceFiles(listed, detectLanguage(listed));
  const batches: string[][] = [];
  for (let i = 0; i < files.length && batches.length < MAX_BATCHES; i += READ_BATCH)
    batches.push(files.slice(i, i + READ_BATCH));
  const step = turn.steps.length - 1;
  if (step < batches.length) {
    const text =
      step === 0
        ? `Found ${plural(files.length, `${ext ? `.${ext}` : 'source'} file`)}. Reading ${batches.length > 1 ? 'them in batches' : 'them all'}.`
        : undefined;
    return { text, calls: batches[step].map((path) => readCall(path)) };
  }
  const calls = flat(turn);
  const reads = readsOf(calls);
  if (!files.length) {
    const output = turn.steps[0].find((c) => c.name === 'bash')?.output;
    return {
      text: isError(output)
        ? `I could not list the files: ${clip(output ?? 'no output', 300)}`
        : `There are no ${ext ? `.${ext}` : 'source'} files in this project (\`${findCommand}\` found nothing).`,
    };
  }
  const bullets = batches.flat().map((path) => {
    const text = reads.get(path);
    if (text === undefined) {
      const error = calls.find((c) => c.name === 'read_file' && c.input.path === path)?.output;
      return `- \`${path}\`: could not be read (${clip(error ?? 'no result', 120)}).`;
    }
    return summaryLine(summarizeFile(path, text));
  });
  const skipped = files.length - batches.flat().length;
  return {
    text: [
      `## What each ${ext ? `.${ext}` : 'source'} file does`,
      '',
      ...bullets,
      '',
      skipped > 0 ? `(${plural(skipped, 'more file')} not read, to stay within my call budget.)\n` : '',
      `Read ${plural(reads.size, 'file')} (${chars(totalChars(reads))} characters).`,
    ]
      .filter((l, i, all) => l !== '' || all[i - 1] !== '')
      .join('\n'),
  };
}

function createModule(turn: Turn): Plan {
  if (turn.steps.length === 0) return LIST_STEP;
  const { files, language } = listing(turn);
  const tests = sampleTests(files, language, 1);
  if (turn.steps.length === 1) {
    return {
      text: `I'll look at how the project is configured and how ${tests.length ? `\`${tests[0]}\` is` : 'its tests are'} written, so the new module fits in.`,
      calls: [...configFiles(files, language), ...tests].map((path) => readCall(path)),
    };
  }
  const calls = flat(turn);
  const writes = calls.filter((c) => c.name === 'write_file');
  if (!writes.length) {
    const reads = readsOf(calls);
    const testing = analyzeTesting(files, reads, undefined, language);
    const plan = planModule(files, reads, language, testing.framework);
    const style = plan.styleFrom ? `, importing it the way \`${plan.styleFrom}\` imports its module` : '';
    return {
      text: `The tests use ${plan.framework}. \`${plan.modulePath}\` does not exist yet, so I'll write it, plus \`${plan.testPath}\` in the same style${style}.`,
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
      ? `- \`${path}\`: **not written** (${clip(c.output ?? 'no result', 160)})`
      : `- \`${path}\` (${c.output}): ${what(content)}`;
  };
  const moduleLine = describe(moduleWrite, (content) => {
    const s = summarizeFile(String(moduleWrite.input.path), content);
    return `${s.doc ?? 'a new module'} Defines ${s.definitions.map((d) => `\`${d}\``).join(', ')}.`;
  });
  const testLine = describe(testWrite, (content) => {
    const check = checkModuleAgainstTest(
      String(moduleWrite.input.path),
      String(moduleWrite.input.content ?? ''),
      content,
    );
    return `${plural(check.tests.length, `${check.framework} test`)} (${check.tests.map((t) => `\`${t}\``).join(', ')}), importing ${check.imported.map((n) => `\`${n}\``).join(', ')} from \`${check.from}\`.`;
  });
  const allWritten = writes.every((c) => !isError(c.output));
  return {
    text: [
      allWritten
        ? 'Created a new module and a test for it:'
        : 'I tried to create a new module and a test, but not everything was written:',
      '',
      moduleLine,
      testLine,
      '',
      'I did not run the tests, as asked.',
    ]
      .filter((l) => l !== undefined)
      .join('\n'),
  };
}

/** Name, description and dependencies from package.json, pyproject.toml or requirements.txt. */
function describeManifest(path: string, text: string): string {
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
      return `\`${path}\` is not valid JSON.`;
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
  const parts: string[] = [];
  if (name) parts.push(`names the project \`${name}\``);
  if (description) parts.push(`describes it as "${clip(description, 160)}"`);
  parts.push(
    deps.length
      ? `lists ${plural(deps.length, 'dependency', 'dependencies')}: ${deps
          .slice(0, 8)
          .map((d) => `\`${d}\``)
          .join(', ')}`
      : 'lists no dependencies',
  );
  return `\`${path}\` ${parts.join(', ')}.`;
}

function explore(turn: Turn): Plan {
  if (turn.steps.length === 0) return LIST_STEP;
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
      text: `I'll read ${toRead.map((f) => `\`${f}\``).join(', ')}.`,
      calls: toRead.map((path) => readCall(path, path === entry ? 80 : undefined)),
    };
  }
  const calls = flat(turn);
  const reads = readsOf(calls);
  if (failed || !files.length)
    return {
      text: `I could not list the project's files${failed ? `: ${clip(failed, 300)}` : ' (the listing was empty)'}.`,
    };
  const dirs = [...new Set(files.filter((f) => f.includes('/')).map((f) => f.split('/')[0]))];
  const sources = sourceFiles(files, language);
  const tests = sources.filter((f) => isTestFile(f, language));
  const lines = [
    `## The project`,
    '',
    `- ${plural(files.length, 'file')}, mostly ${language === 'python' ? 'Python' : 'TypeScript/JavaScript'}: ${plural(sources.length - tests.length, 'source file')} and ${plural(tests.length, 'test file')}.`,
    `- Top-level folders: ${dirs.map((d) => `\`${d}/\``).join(', ') || 'none'}; top-level files: ${files
      .filter((f) => !f.includes('/'))
      .map((f) => `\`${f}\``)
      .join(', ')}.`,
  ];
  const readmeText = readme ? reads.get(readme) : undefined;
  if (readmeText !== undefined) {
    const title = /^#\s+(.+)$/m.exec(readmeText)?.[1];
    const paragraph = readmeText
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .find((p) => p && !p.startsWith('#') && !p.startsWith('```') && !p.startsWith('!['));
    lines.push(
      `- \`${readme}\`${title ? ` is titled "${title}"` : ''}${paragraph ? `: ${clip(paragraph.replace(/\s+/g, ' '), 300)}` : ''}`,
    );
  }
  for (const path of [manifest, entry]) {
    const text = path ? reads.get(path) : undefined;
    if (!path || text === undefined) continue;
    if (path === manifest) {
      lines.push(`- ${describeManifest(path, text)}`);
    } else {
      lines.push(summaryLine(summarizeFile(path, text)));
    }
  }
  const failedList = failedReads(calls);
  if (failedList.length) lines.push(`- Could not read ${failedList.join(', ')}.`);
  lines.push('', `Read ${plural(reads.size, 'file')} (${chars(totalChars(reads))} characters).`);
  return { text: lines.join('\n') };
}
