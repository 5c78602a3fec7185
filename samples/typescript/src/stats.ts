/** Counting for textstats: lines, words, characters and the most common words. */
import { tokenize } from './utils';

export interface Summary {
  lines: number;
  words: number;
  chars: number;
}

/** Number of lines; a last line without a newline still counts. */
export function countLines(text: string): number {
  if (text === '') return 0;
  const lines = text.split(/\r?\n/);
  return lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
}

/** Line, word and character counts of a text. */
export function summarize(text: string): Summary {
  return { lines: countLines(text), words: tokenize(text).length, chars: [...text].length };
}

/** The n most common words as [word, count] pairs, most common first, ties alphabetical. */
export function topWords(text: string, n: number): Array<[string, number]> {
  if (n <= 0) return [];
  const counts = new Map<string, number>();
  for (const word of tokenize(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, n);
}
