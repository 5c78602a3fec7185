/**
 * What the file viewer shows of a file it reads in pages (FileViewer.svelte): a text file as rows
 * decoded page by page, or a binary file as a hex summary. Nothing here is proportional to the
 * whole file, so a 30 MB file costs the page no more than one page of it at a time.
 */

/** How much the viewer reads per request: small enough to decode and split well within a frame. */
export const PAGE_BYTES = 128 * 1024;

/** Longer lines are shown in several rows: one 30 MB line in one DOM node would freeze the page. */
export const MAX_ROW_CHARS = 2000;

/** How many bytes the hex summary of a binary file shows. */
export const HEX_BYTES = 512;

/** One row of the text view: `line` is its line number, absent on the continuation of a long line. */
export interface Row {
  line?: number;
  text: string;
}

/** Whether a file looks binary from its first bytes: a NUL, or bytes that are not UTF-8. */
export function looksBinary(head: Uint8Array): boolean {
  const sample = head.subarray(0, 8000);
  if (sample.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return false;
  } catch {
    return true;
  }
}

/** `hexdump -C`'s layout for the first bytes: offset, 16 bytes in hex, and their printable text. */
export function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += 16) {
    const chunk = bytes.subarray(offset, offset + 16);
    const hex = Array.from(chunk, (b) => b.toString(16).padStart(2, '0'));
    const left = hex.slice(0, 8).join(' ');
    const right = hex.slice(8).join(' ');
    const text = Array.from(chunk, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${`${left}  ${right}`.padEnd(48)}  |${text}|`);
  }
  return lines.join('\n');
}

/**
 * Turns pages of a text file into rows, in order. The text after a page's last newline waits for
 * the next page, so a line (or a UTF-8 character) cut by a page boundary is shown whole.
 */
export class TextPager {
  readonly #decoder = new TextDecoder('utf-8');
  #carry = '';
  #line = 0;

  /** The rows that `bytes` completes; with `last`, the rest of the file too. */
  push(bytes: Uint8Array, last: boolean): Row[] {
    const text = this.#carry + this.#decoder.decode(bytes, { stream: !last });
    const parts = text.split('\n');
    this.#carry = last ? '' : (parts.pop() ?? '');
    // A final newline ends the last line; it does not start an empty one.
    if (last && parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
    const rows: Row[] = [];
    for (const part of parts) {
      this.#line += 1;
      rows.push({ line: this.#line, text: part.slice(0, MAX_ROW_CHARS) });
      for (let at = MAX_ROW_CHARS; at < part.length; at += MAX_ROW_CHARS) {
        rows.push({ text: part.slice(at, at + MAX_ROW_CHARS) });
      }
    }
    return rows;
  }
}
