/** Tests for src/main.ts: the command-line interface end to end, with an in-memory Io. */
import { describe, expect, it } from 'vitest';
import { main, type Io } from '../src/main';

function memoryIo(files: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    readFile(path) {
      if (!(path in files)) throw new Error(`ENOENT: ${path}`);
      return files[path];
    },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  };
  return { io, out, err };
}

describe('main', () => {
  const files = { 'notes.txt': 'The cat sat.\nThe cat ran!\n\nA dog sat, too.\n' };

  it('prints the counts', () => {
    const { io, out } = memoryIo(files);
    expect(main(['notes.txt'], io)).toBe(0);
    expect(out).toEqual(['4 lines, 10 words, 43 characters']);
  });

  it('lists the most common words with --top', () => {
    const { io, out } = memoryIo(files);
    expect(main(['notes.txt', '--top', '2'], io)).toBe(0);
    expect(out.slice(1)).toEqual(['    2  cat', '    2  sat']);
  });

  it('fails on a missing file', () => {
    const { io, err } = memoryIo(files);
    expect(main(['nope.txt'], io)).toBe(1);
    expect(err[0]).toContain('cannot read');
  });

  it('prints usage without a file', () => {
    const { io, err } = memoryIo(files);
    expect(main([], io)).toBe(2);
    expect(err[0]).toMatch(/^usage:/);
  });
});
