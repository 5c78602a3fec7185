/**
 * Why a run file cannot be opened: a code and its parameters (the screen says them in its own
 * language, src/ui/sentence.ts), with the English sentence as the message. Whatever a sentence
 * takes from the file is quoted, at most QUOTED characters of it.
 */
import { CodedError } from './coded-error';

/** The most characters of a file that a sentence about it quotes. */
export const QUOTED = 80;

/**
 * Why a record cannot be opened, in English; the screen shows the same sentence in its own
 * language from the code and the parameters (the `record.*` keys of src/ui/locales).
 */
const RECORD_PROBLEMS = {
  notObject: () => 'it is not a run: expected a JSON object',
  wrongFormat: (p: { format: string }) => `it is not a run of this playground (its "format" is ${p.format})`,
  newerVersion: (p: { version: number; supported: number }) =>
    `it was saved by a newer version of the playground (run format ${p.version}; this one reads up to ${p.supported})`,
  secretField: (p: { field: string }) =>
    `it carries a field named "${p.field}", which may hold a secret: it is not opened`,
  shape: (p: { at: string; expected: string; received: string }) =>
    `its shape is wrong at ${p.at}: ${p.expected} expected, ${p.received} found`,
  tooBig: (p: { size: string; max: string }) => `it is ${p.size}; a run file may be at most ${p.max}`,
  messageTooBig: (p: Where & { size: string; max: string }) =>
    `${where(p)} holds a message of ${p.size}; one message may be at most ${p.max}`,
  tooManyEvents: (p: { events: number; max: number }) =>
    `it has ${p.events} events; a run may have at most ${p.max} (export a shorter run)`,
  cancelled: () => 'opening it was cancelled; open it again to see it',
  readFailed: (p: { reason: string }) =>
    `the browser could not finish reading it (${p.reason}); close other tabs and try again`,
  notJson: (p: { at: number }) => `it is not JSON (it breaks at character ${p.at})`,
  notJsonToken: (p: { token: string }) => `it is not JSON (it has ${p.token} where JSON cannot)`,
  notJsonEnd: () => 'it is not JSON (it ends too soon)',
  timeBackwards: (p: Where) => `${where(p)} happens before the event ahead of it`,
  spawnedTwice: (p: Where & { agent: string }) => `${where(p)}: ${p.agent} is spawned twice`,
  neverExisted: (p: Where & { agent: string }) => `${where(p)}: ${p.agent} never existed`,
  neverSpawned: (p: Where & { agent: string }) => `${where(p)}: ${p.agent} was never spawned`,
  messageGap: (p: Where & { index: number; agent: string; expected: number }) =>
    `${where(p)}: message ${p.index} of ${p.agent} comes before message ${p.expected}`,
  orphanResult: (p: Where & { id: string }) =>
    `${where(p)}: a tool_result for ${p.id} has no tool_use before it`,
  toolNotStarted: (p: Where & { id: string; agent: string }) =>
    `${where(p)}: ${p.agent} ends tool call ${p.id}, which it never started`,
  unknownTask: (p: Where & { id: string }) => `${where(p)}: task ${p.id} was never started`,
  deltaWithoutBlock: (p: Where & { index: number; agent: string }) =>
    `${where(p)}: ${p.agent} streams into block ${p.index}, which was never started`,
  rewrittenAfterFinish: (p: Where & { index: number; agent: string }) =>
    `${where(p)}: message ${p.index} of ${p.agent} is rewritten after the run finished`,
};

/** The event a story problem is about: its number (from 1) and type. */
interface Where {
  event: number;
  type: string;
}

/** Text of the file as a sentence may quote it: at most QUOTED characters, the cut marked. */
export function quote(text: string): string {
  if (text.length <= QUOTED) return text;
  let end = QUOTED - 1;
  // Never half of a character written as two UTF-16 units (an emoji, a rare CJK character).
  if (/[\uD800-\uDBFF]/.test(text[end - 1])) end--;
  return `${text.slice(0, end)}…`;
}

function where(p: Where): string {
  return `event ${p.event} (${p.type})`;
}

/**
 * A problem's params as a sentence keeps them (each text quoted, at most 80 characters: it may be
 * anything a file held), and the English sentence `problems[code]` makes of them.
 */
export function said<P extends Record<string, (params: never) => string>>(
  problems: P,
  code: keyof P,
  params: object | undefined,
): { given: Record<string, string | number>; message: string } {
  const given: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    given[name] = typeof value === 'number' ? value : quote(String(value));
  }
  return {
    given,
    message: (problems[code] as unknown as (p: Record<string, string | number>) => string)(given),
  };
}

export type RecordProblem = keyof typeof RECORD_PROBLEMS;
type ParamsOf<C extends RecordProblem> = Parameters<(typeof RECORD_PROBLEMS)[C]>[0];

/** A record that cannot be opened: `code` and `params` say why; `message` says it in English. */
export class RecordError<C extends RecordProblem = RecordProblem> extends CodedError<C> {
  override name = 'RecordError';

  constructor(code: C, ...params: ParamsOf<C> extends undefined ? [] : [ParamsOf<C>]) {
    const { given, message } = said(RECORD_PROBLEMS, code, params[0]);
    super(code, given, message);
  }
}
