/**
 * The one token estimator, for text no API counted (the demo model, a record or session without
 * usage, the parts of a request the API counts only as a whole). It counts per script, because a
 * token is not four characters in every language:
 *
 *   Latin text and JSON (what a request carries: messages as JSON)   about 3 characters a token
 *   CJK ideographs, kana, hangul and full-width forms                about 1 token a character
 *
 * The ratios are measured with Anthropic's published tokenizer (@anthropic-ai/tokenizer, a dev
 * dependency: it is too large to ship) on the recorded reference run and on the demo model's
 * words in Chinese and Japanese; `tokens.test.ts` holds the estimate to that tokenizer.
 * docs/protocol.md ("How a saving is counted") says so for learners.
 */
/** Characters of Latin text and JSON in one token. */
export const LATIN_CHARS_PER_TOKEN = 3;
/** Tokens of one CJK character. */
export const CJK_TOKENS_PER_CHAR = 1;

// Han (with the CJK symbols and punctuation, kana and the extensions), hangul, full-width forms.
const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g;

/** How many of `text`'s characters are CJK. */
function cjkChars(text: string): number {
  CJK.lastIndex = 0;
  let count = 0;
  while (CJK.exec(text) !== null) count++;
  return count;
}

/** The estimated tokens of `text`. */
export function textTokens(text: string): number {
  if (!text) return 0;
  const cjk = cjkChars(text);
  return Math.ceil((text.length - cjk) / LATIN_CHARS_PER_TOKEN + cjk * CJK_TOKENS_PER_CHAR);
}

/** The estimated tokens of a value sent as JSON (the tools offered, a system prompt in blocks). */
export function jsonTokens(value: unknown): number {
  return typeof value === 'string' ? textTokens(value) : textTokens(JSON.stringify(value) ?? '');
}
