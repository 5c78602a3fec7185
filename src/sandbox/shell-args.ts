/**
 * What every just-bash shell of the agents gets, in both backends (both run the agents' bash
 * through just-bash): the command set, and the argument spellings models use that just-bash
 * refuses or reads differently, rewritten into the forms it accepts.
 */
import { getCommandNames, type CommandName } from 'just-bash';

/** The commands just-bash has only outside the browser. */
const NODE_ONLY = new Set(['sqlite3', 'tar', 'xan', 'yq']);

/**
 * The commands the agents' shell offers: just-bash's browser set. Passed to every `new Bash`, so
 * the shell in Vitest (Node) is the one in the browser.
 */
export const SHELL_COMMANDS = getCommandNames().filter((name) => !NODE_ONLY.has(name)) as CommandName[];

const GREP_VALUE_OPTIONS = new Set(['-e', '-f', '-A', '-B', '-C', '-m', '-d', '-D', '--regexp', '--file']);

const GREP_LONG_VALUE_OPTIONS = ['--include', '--exclude', '--exclude-dir', '--max-count', '--context'];

/**
 * Rewrites the xargs spellings models use most and just-bash refuses (`-I{}`, `-i`, `-n1`,
 * `-P4`, `-L 1`, `--max-args=1`, `--replace=X`) into the separate-argument forms it accepts.
 * `-L N` becomes `-n N`, the same for the usual one-path-per-line input.
 */
export function normalizeXargsArgs(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('-') || arg === '-') {
      out.push(...args.slice(i));
      break;
    }
    const long = /^--(max-args|replace|max-lines|max-procs|delimiter)=(.*)$/.exec(arg);
    const short = /^-([InPLd])(.+)$/.exec(arg);
    if (long) {
      const flag = { 'max-args': '-n', replace: '-I', 'max-lines': '-n', 'max-procs': '-P', delimiter: '-d' }[
        long[1]
      ]!;
      out.push(flag, long[2]);
    } else if (arg === '--replace' || arg === '-i') {
      out.push('-I', '{}');
    } else if (/^-i.+$/.test(arg)) {
      out.push('-I', arg.slice(2));
    } else if (arg === '-L' || arg === '--max-lines') {
      out.push('-n', args[++i] ?? '1');
    } else if (short) {
      out.push(short[1] === 'L' ? '-n' : `-${short[1]}`, short[2]);
    } else {
      out.push(arg);
      if (['-I', '-n', '-P', '-d', '-s', '-E', '-a'].includes(arg) && i + 1 < args.length)
        out.push(args[++i]);
    }
  }
  return out;
}

/**
 * GNU grep searches the current directory when `-r` comes without a path (`grep -rn pytest`);
 * just-bash's grep reads stdin instead and finds nothing. Adds the `.` in that case.
 */
export function normalizeGrepArgs(args: string[]): string[] {
  let recursive = false;
  let patternGiven = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      if (arg === '--recursive' || arg === '--dereference-recursive') recursive = true;
      if (arg === '--regexp' || arg === '--file' || /^--(regexp|file)=/.test(arg)) patternGiven = true;
      if (GREP_VALUE_OPTIONS.has(arg) || (GREP_LONG_VALUE_OPTIONS.includes(arg) && !arg.includes('='))) i++;
    } else if (arg.startsWith('-') && arg.length > 1) {
      // A cluster such as -rn, -rne PATTERN or -A3: a value option takes the rest or the next arg.
      for (let j = 1; j < arg.length; j++) {
        const flag = arg[j];
        if (flag === 'r' || flag === 'R') recursive = true;
        if ('efABCmdD'.includes(flag)) {
          if (flag === 'e' || flag === 'f') patternGiven = true;
          if (j === arg.length - 1) i++;
          break;
        }
      }
    } else {
      operands.push(arg);
    }
  }
  const paths = patternGiven ? operands : operands.slice(1);
  return recursive && paths.length === 0 ? [...args, '.'] : args;
}
