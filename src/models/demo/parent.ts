/**
 * The demo model's parent: it delegates first (a `task`), then relays what the subagent reported,
 * in the user's language; for `create` it verifies the new module itself (verify.ts). With no
 * `task` tool (context mode `none`) it takes the subagent's steps itself, in its own array.
 */
import { briefOf, extensionOf, type Intent, intentOf, LANGS } from './language';
import { clip } from './summaries';
import { DEMO_TEXT, textFor } from './say';
import type { DemoText } from './text';
import { chars, flat, isError, type Plan, type Turn } from './turn';
import { planSubagent } from './subagent';
import { verifyCreated } from './verify';

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
      return task(
        t.summarizeTask.say,
        t.summarizeTask.description(ext),
        briefOf(turn.prompt) && !ext ? t.summarizeTask.briefPrompt() : t.summarizeTask.prompt(ext),
      );
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
