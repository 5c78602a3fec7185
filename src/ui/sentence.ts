/**
 * A sentence for the screen, kept as a key and its values rather than as text, so that it is said
 * in the language on screen when it is shown, and again in another one after a switch. Errors of
 * the pure modules (a record that cannot be opened, History's storage, settings) carry a code and
 * parameters; `sentenceOf` turns them into a sentence. Anything else (a model API's or the
 * sandbox's own reason) is shown as it came.
 */
import { RecordError } from '../run/check';
import { LinkError } from '../run/link';
import type { RemovedPart } from '../run/secrets';
import { StorageProblem } from '../run/storage-problem';
import type { SettingsProblem } from '../settings/model-settings';
import { isChunkFailure } from './chunk-failures.svelte';
import { t } from './i18n';
import { messageOf } from '../core/errors';

export type Sentence =
  | { key: string; params?: Record<string, string | number | Sentence> }
  /** Text that is not ours to translate (it came from outside, as it is). */
  | { text: string }
  /** Several sentences said one after another, joined by `joiner` (a space by default). */
  | { all: Sentence[]; joiner?: string };

/** The sentence in the language on screen; a parameter that is itself a sentence is said first. */
export function say(sentence: Sentence): string {
  if ('text' in sentence) return sentence.text;
  if ('all' in sentence) return sentence.all.map(say).join(sentence.joiner ?? ' ');
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(sentence.params ?? {})) {
    params[name] = typeof value === 'object' ? say(value) : value;
  }
  return t(sentence.key, params);
}

/** An error shown on screen, whose sentence is already known. */
export class ScreenError extends Error {
  readonly sentence: Sentence;
  constructor(sentence: Sentence) {
    super('key' in sentence ? sentence.key : say(sentence));
    this.sentence = sentence;
  }
}

/** What to say about an error: ours by its code, any other by its message. */
export function sentenceOf(error: unknown): Sentence {
  if (error instanceof ScreenError) return error.sentence;
  if (error instanceof RecordError) return { key: `record.${error.code}`, params: error.params };
  if (error instanceof LinkError) return { key: `share.problem.${error.code}`, params: error.params };
  if (error instanceof StorageProblem) return { key: `storage.${error.code}`, params: error.params };
  if (isChunkFailure(error)) return { key: 'update.chunkFailed' };
  return { text: messageOf(error) };
}

/** Both sentences, the first first; either may be missing. */
export function both(first: Sentence | null, second: Sentence | null): Sentence | null {
  if (!first || !second) return first ?? second;
  return { all: [first, second] };
}

/** What to say of the secrets taken out of a run (null when none were): `where` says where. */
export function removedSentence(
  removed: readonly RemovedPart[],
  where: 'opened' | 'file' | 'link',
): Sentence | null {
  if (!removed.length) return null;
  const parts: Sentence = { all: removed.map((part) => ({ key: `secrets.part.${part}` })), joiner: ', ' };
  return { key: `secrets.removed.${where}`, params: { parts } };
}

/** What to say about a settings problem. */
export function settingsSentence(problem: SettingsProblem): Sentence {
  return { key: `settingsProblem.${problem.code}`, params: problem.params };
}
