/**
 * A session file read as a stream, with a budget on one line: a line longer than
 * MAX_SESSION_LINE_BYTES is dropped while it is read (never held whole, never parsed) and
 * counted, and an empty line takes its place so that line numbers stay true. The rest becomes
 * the text that ./transcript.ts reads line by line.
 *
 *   bytes ──► split at \n ──► line within the budget? ──yes──► decoded into the text
 *                                                    └─no───► dropped, counted (one sentence)
 *
 * A line that holds one message of 20 MB (or 100 MB) would take the tab seconds to parse and draw,
 * or crash it; no line Claude Code writes comes near the budget (the API takes images of 5 MB,
 * 6.7 MB as base64).
 */

/** The longest line of a session that is read: 8 MB. */
export const MAX_SESSION_LINE_BYTES = 8 * 1024 * 1024;

/** A file's text without its overlong lines, and which were dropped. */
export interface BudgetedText {
  text: string;
  /** How many lines were over the budget, and the number of the first (from 1). */
  long: { count: number; first: number };
}

/** Reads `stream` as UTF-8 text, dropping each line over `maxLine` bytes as it comes. */
export async function readWithinLineBudget(
  stream: ReadableStream<Uint8Array>,
  maxLine = MAX_SESSION_LINE_BYTES,
  onBytes?: (bytes: number) => void,
): Promise<BudgetedText> {
  const decoder = new TextDecoder();
  const pieces: string[] = [];
  const long = { count: 0, first: 0 };
  /** The current line's bytes so far (within the budget), its length, and whether it is dropped. */
  let pending: Uint8Array[] = [];
  let length = 0;
  let dropping = false;
  let lineNo = 1;
  const keep = (bytes: Uint8Array) => {
    if (bytes.byteLength) pieces.push(decoder.decode(bytes, { stream: true }));
  };
  const drop = () => {
    long.count++;
    if (long.count === 1) long.first = lineNo;
  };
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onBytes?.(value.byteLength);
    let start = 0;
    for (let i = value.indexOf(10); i >= 0; i = value.indexOf(10, start)) {
      length += i - start;
      if (length > maxLine) dropping = true;
      if (dropping) {
        drop();
        pieces.push('\n');
      } else {
        for (const part of pending) keep(part);
        keep(value.subarray(start, i + 1));
      }
      pending = [];
      length = 0;
      dropping = false;
      lineNo++;
      start = i + 1;
    }
    length += value.byteLength - start;
    if (length > maxLine) {
      dropping = true;
      pending = [];
    } else if (start < value.byteLength) pending.push(value.slice(start));
  }
  if (dropping) drop();
  else for (const part of pending) keep(part);
  pieces.push(decoder.decode());
  return { text: pieces.join(''), long };
}
