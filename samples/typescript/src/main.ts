/**
 * Entry point of textstats, a tiny command-line tool that counts words in a text file.
 *
 *   npx tsx src/main.ts FILE            prints line, word and character counts
 *   npx tsx src/main.ts FILE --top 5    also lists the five most common words
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { summarize, topWords } from './stats';
import { plural } from './utils';

/** Where the tool reads and writes; tests pass their own. */
export interface Io {
  readFile(path: string): string;
  out(line: string): void;
  err(line: string): void;
}

const nodeIo: Io = {
  readFile: (path) => readFileSync(path, 'utf8'),
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

/** Runs the tool with command-line arguments; returns the process exit code. */
export function main(argv: string[], io: Io = nodeIo): number {
  let path: string | undefined;
  let top = 0;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--top') top = Number(argv[++i]);
    else path ??= argv[i];
  }
  if (!path || !Number.isInteger(top)) {
    io.err('usage: textstats FILE [--top N]');
    return 2;
  }
  let text: string;
  try {
    text = io.readFile(path);
  } catch {
    io.err(`textstats: cannot read ${path}`);
    return 1;
  }
  const { lines, words, chars } = summarize(text);
  io.out(`${plural(lines, 'line')}, ${plural(words, 'word')}, ${plural(chars, 'character')}`);
  for (const [word, count] of topWords(text, top)) io.out(`${String(count).padStart(5)}  ${word}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
