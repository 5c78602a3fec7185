/**
 * Why History cannot keep runs, apart from History itself (src/run/store.ts): the screen says these
 * problems wherever it says any error (src/ui/sentence.ts), an embedded run's too, which loads no
 * IndexedDB code.
 */
import { CodedError } from './coded-error';

const STORAGE_PROBLEMS = {
  full: () => 'History is full: this run is not being kept. Delete older runs in History to make room.',
  blocked: (p: { detail: string }) =>
    `History is off: this browser does not let the page keep data here (${p.detail}).`,
  noIndexedDb: () => 'History is off: this browser has no IndexedDB here (a private window?).',
  gone: () => 'This run is no longer in History.',
};

export type StorageProblemCode = keyof typeof STORAGE_PROBLEMS;

/** Why History cannot keep runs: `code` and `params` for the screen, `message` in English. */
export class StorageProblem extends CodedError<StorageProblemCode, { detail?: string }> {
  override name = 'StorageProblem';

  constructor(code: StorageProblemCode, params: { detail?: string } = {}) {
    super(code, params, STORAGE_PROBLEMS[code]({ detail: params.detail ?? '' }));
  }
}
