import { describe, expect, it } from 'vitest';
import { MAX_ROW_CHARS, TextPager, hexDump, looksBinary } from './file-view';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('looksBinary', () => {
  it('tells text (UTF-8 included) from bytes with a NUL or that are not UTF-8', () => {
    expect(looksBinary(bytes('def main():\n    print("héllo")\n'))).toBe(false);
    expect(looksBinary(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]))).toBe(true);
    expect(looksBinary(new Uint8Array([0x41, 0xff, 0xfe, 0x41]))).toBe(true);
  });

  it('does not call text binary when its first page cuts a character in two', () => {
    expect(looksBinary(bytes('é').subarray(0, 1))).toBe(false);
  });
});

describe('hexDump', () => {
  it('lays out offset, hex and printable text as hexdump -C does', () => {
    const dump = hexDump(
      new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x41]),
    );
    expect(dump.split('\n')).toEqual([
      '00000000  7f 45 4c 46 00 01 02 03  04 05 06 07 08 09 0a 0b  |.ELF............|',
      `00000010  41${' '.repeat(46)}  |A|`,
    ]);
  });
});

describe('TextPager', () => {
  it('numbers lines across pages, whole even when a page ends inside a line or a character', () => {
    const all = bytes('one\ntwo é\nthree\n');
    const pager = new TextPager();
    const cut = all.indexOf(0xc3) + 1; // inside "é"
    const rows = [...pager.push(all.subarray(0, 2), false), ...pager.push(all.subarray(2, cut), false)];
    rows.push(...pager.push(all.subarray(cut), true));
    expect(rows).toEqual([
      { line: 1, text: 'one' },
      { line: 2, text: 'two é' },
      { line: 3, text: 'three' },
    ]);
  });

  it('keeps a last line without a newline, and an empty file as one empty line', () => {
    expect(new TextPager().push(bytes('a\nb'), true)).toEqual([
      { line: 1, text: 'a' },
      { line: 2, text: 'b' },
    ]);
    expect(new TextPager().push(new Uint8Array(0), true)).toEqual([{ line: 1, text: '' }]);
  });

  it('shows a very long line in several rows, numbered once', () => {
    const rows = new TextPager().push(bytes('x'.repeat(MAX_ROW_CHARS * 2 + 5)), true);
    expect(rows.map((r) => [r.line, r.text.length])).toEqual([
      [1, MAX_ROW_CHARS],
      [undefined, MAX_ROW_CHARS],
      [undefined, 5],
    ]);
  });
});
