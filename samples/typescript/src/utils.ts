/** Text helpers for textstats: splitting text into words and formatting counts. */

const WORD = /[a-z0-9]+(?:'[a-z0-9]+)*/g;

/** Splits text into lowercase words, dropping punctuation ("Don't!" -> ["don't"]). */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** Formats a count with its noun: plural(1, 'word') -> '1 word', plural(2, 'word') -> '2 words'. */
export function plural(count: number, noun: string): string {
  return count === 1 ? `${count} ${noun}` : `${count} ${noun}s`;
}
