/**
 * The demo model's subagent: from its task prompt (written by the parent) and its tool results,
 * the next step of finding the framework, summarizing files, creating a module or exploring.
 */
import { briefOf, extensionOf, intentOf } from './language';
import { checkModuleAgainstTest } from './module-check';
import { planModule } from './new-module';
import {
  configFiles,
  detectLanguage,
  grepCommand,
  isTestFile,
  type Language,
  LIST_COMMAND,
  parseListing,
  type Reads,
  sampleTests,
  sourceFiles,
} from './project';
import { clip, summarizeFile, summaryLine } from './summaries';
import { analyzeTesting } from './testing';
import { textFor } from './say';
import { codeList, type DemoText } from './text';
import {
  bashCall,
  bashOutput,
  chars,
  failedReads,
  flat,
  isError,
  type Plan,
  readCall,
  readsOf,
  type ToolCall,
  type Turn,
} from './turn';

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
  // Asked for one line about the whole project: every file is read, tests and configuration too.
  const brief = briefOf(turn.prompt) && !ext;
  const findCommand = ext ? `find . -name '*.${ext}' -not -path '*/node_modules/*' | sort` : LIST_COMMAND;
  // A part handed over by another subagent names its files: there is nothing to look for.
  const given = rest.flatMap((line) => /^- (\S+)$/.exec(line.trim())?.[1] ?? []);
  let steps = turn.steps;
  let files = given;
  if (!given.length) {
    if (steps.length === 0) return { text: t.findFirst(ext), calls: [bashCall(findCommand)] };
    const listed = parseListing(steps[0].find((c) => c.name === 'bash')?.output);
    files = ext
      ? listed.filter((f) => f.endsWith(`.${ext}`))
      : brief
        ? listed
        : sourceFiles(listed, detectLanguage(listed));
    steps = steps.slice(1);
  }
  // Allowed to delegate, it hands the second half of the files to a subagent of its own, once.
  const handed =
    !brief && !given.length && tools.has('task') && files.length >= 2
      ? files.slice(Math.ceil(files.length / 2))
      : [];
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
  if (brief) {
    const language = detectLanguage(files);
    const sources = sourceFiles(files, language);
    const tests = sources.filter((f) => isTestFile(f, language)).length;
    const line = t.briefLine(files.length, languageName(language), sources.length - tests, tests);
    return { text: [line, t.readStats(reads.size, chars(totalChars(reads)))].join('\n') };
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

export function explore(t: DemoText, turn: Turn): Plan {
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
