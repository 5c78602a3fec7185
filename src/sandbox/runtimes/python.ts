/**
 * The `python3` command line: what `python3 file.py`, `-c`, `-m` and `--version` mean, decided
 * without loading anything. Running a script loads Pyodide (pyodide.ts) on first use.
 */
import type { PythonMode } from './pyodide';

/** The CPython version inside the pinned Pyodide (pyodide-lock.json's info.python; a test checks it). */
export const PYTHON_VERSION = '3.14.2';

export type PythonInvocation =
  | { kind: 'version' }
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'run'; mode: PythonMode; target: string; args: string[] };

export const PYTHON_USAGE = `usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...
This sandbox's python3 is CPython ${PYTHON_VERSION} on Pyodide (WebAssembly), with the standard library
only: no pip, no pytest, no network, no subprocesses.
Options:
-c cmd : program passed in as string (terminates option list)
-m mod : run library module as a script (terminates option list)
-V     : print the Python version number and exit (also --version)
-h     : print this help message and exit (also --help)
-B -E -I -O -q -s -S -u -v -b -d -W arg -X opt : accepted and ignored
file   : program read from script file
-      : program read from stdin (default; interactive mode if a tty)
`;

/** Single-letter flags that change nothing here; W and X take a value. */
const IGNORED_FLAGS = 'BEIOqsSuvbdR';

/** Parses python3's arguments (after the command name). */
export function parsePythonArgs(args: string[]): PythonInvocation {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--version') return { kind: 'version' };
    if (arg === '--help') return { kind: 'help' };
    if (arg === '-') return { kind: 'run', mode: 'stdin', target: '', args: args.slice(i + 1) };
    if (arg === '--') {
      const rest = args.slice(i + 1);
      return rest.length
        ? { kind: 'run', mode: 'file', target: rest[0], args: rest.slice(1) }
        : { kind: 'run', mode: 'stdin', target: '', args: [] };
    }
    if (arg.startsWith('--')) return { kind: 'error', message: `unknown option ${arg}` };
    if (!arg.startsWith('-')) return { kind: 'run', mode: 'file', target: arg, args: args.slice(i + 1) };
    // A cluster of short flags: -u, -Bc 'code', -cprint(1), -W ignore.
    for (let j = 1; j < arg.length; j++) {
      const flag = arg[j];
      if (flag === 'c' || flag === 'm') {
        const inline = arg.slice(j + 1);
        const value = inline || args[i + 1];
        if (value === undefined)
          return { kind: 'error', message: `Argument expected for the -${flag} option` };
        const rest = args.slice(inline ? i + 1 : i + 2);
        return { kind: 'run', mode: flag === 'c' ? 'code' : 'module', target: value, args: rest };
      }
      if (flag === 'V') return { kind: 'version' };
      if (flag === 'h' || flag === '?') return { kind: 'help' };
      if (flag === 'W' || flag === 'X') {
        if (j === arg.length - 1) i++;
        break;
      }
      if (!IGNORED_FLAGS.includes(flag)) return { kind: 'error', message: `unknown option -${flag}` };
    }
  }
  return { kind: 'run', mode: 'stdin', target: '', args: [] };
}
