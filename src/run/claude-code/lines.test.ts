import { describe, expect, it } from 'vitest';
import { readWithinLineBudget } from './lines';

/** A stream of `text`'s UTF-8 bytes in pieces of `size` bytes (cut anywhere, mid-character too). */
function pieces(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(at, (at += size)));
    },
  });
}

describe('a session file read within a line budget', () => {
  const text = [
    '{"a":"短い"}',
    `{"big":"${'x'.repeat(50)}"}`,
    '{"b":2}',
    `{"huge":"${'y'.repeat(80)}"}`,
    '{"c":"終"}',
  ].join('\n');

  it('keeps the lines within the budget and drops the others, whatever the pieces', async () => {
    for (const size of [1, 3, 7, 64, 1000]) {
      const { text: kept, long } = await readWithinLineBudget(pieces(text, size), 40);
      expect(kept.split('\n'), `pieces of ${size}`).toEqual([
        '{"a":"短い"}',
        '',
        '{"b":2}',
        '',
        '{"c":"終"}',
      ]);
      expect(long).toEqual({ count: 2, first: 2 });
    }
  });

  it('reads a file with no long line exactly as it is, and a last line over the budget as dropped', async () => {
    expect(await readWithinLineBudget(pieces('{"a":1}\n{"b":2}\n', 5), 40)).toEqual({
      text: '{"a":1}\n{"b":2}\n',
      long: { count: 0, first: 0 },
    });
    const last = await readWithinLineBudget(pieces(`{"a":1}\n${'z'.repeat(100)}`, 9), 40);
    expect(last).toEqual({ text: '{"a":1}\n', long: { count: 1, first: 2 } });
  });

  it('drops a line of 200 MB as it comes, keeping none of it', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (++pulled > 200) return controller.close();
        controller.enqueue(new Uint8Array(1024 * 1024).fill(0x61));
      },
    });
    const { text: kept, long } = await readWithinLineBudget(endless, 8 * 1024 * 1024);
    expect(kept).toBe('');
    expect(long).toEqual({ count: 1, first: 1 });
  });
});
