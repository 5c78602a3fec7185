/**
 * The `node` command line: what `node file.js`, `node -e`, `node -p` and `node --version` mean,
 * decided without loading anything. Running a program loads QuickJS (quickjs.ts) on first use.
 */
export type NodeInvocation =
  | { kind: 'version' }
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'file'; path: string; args: string[] }
  | { kind: 'eval'; code: string; print: boolean; args: string[] }
  | { kind: 'stdin'; args: string[] };

export const NODE_VERSION_TEXT = 'v0.0.0-quickjs (QuickJS in the browser sandbox)';

export const NODE_USAGE = `Usage: node [options] [ script.js | -e "script" | - ] [arguments]

This sandbox's node is QuickJS (a small JavaScript engine compiled to WebAssembly) with a
Node-like CommonJS world: require() of .js/.json files, fs, path, util, assert, events, os,
buffer, timers, process, console. No ES modules, npm packages with native code, network or
child processes.

Options:
  -e, --eval script     evaluate script
  -p, --print script    evaluate script and print the result
  -v, --version         print the version
  -h, --help            print this help
`;

/** Options Node accepts that change nothing here. */
const IGNORED = new Set([
  '--no-warnings',
  '--enable-source-maps',
  '--trace-warnings',
  '--trace-uncaught',
  '--no-deprecation',
  '--throw-deprecation',
  '--pending-deprecation',
  '--preserve-symlinks',
  '--expose-gc',
]);

/** Parses node's arguments (after the command name). */
export function parseNodeArgs(args: string[]): NodeInvocation {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '-v' || arg === '--version') return { kind: 'version' };
    if (arg === '-h' || arg === '--help') return { kind: 'help' };
    if (arg === '-e' || arg === '--eval' || arg === '-p' || arg === '--print') {
      const print = arg === '-p' || arg === '--print';
      if (i + 1 >= args.length) return { kind: 'error', message: `${arg} requires an argument` };
      return { kind: 'eval', code: args[i + 1], print, args: args.slice(i + 2) };
    }
    const inline = /^--(eval|print)=([\s\S]*)$/.exec(arg);
    if (inline)
      return { kind: 'eval', code: inline[2], print: inline[1] === 'print', args: args.slice(i + 1) };
    if (arg === '-pe' || arg === '-ep') {
      if (i + 1 >= args.length) return { kind: 'error', message: `${arg} requires an argument` };
      return { kind: 'eval', code: args[i + 1], print: true, args: args.slice(i + 2) };
    }
    if (arg === '-') return { kind: 'stdin', args: args.slice(i + 1) };
    if (arg === '--') {
      const rest = args.slice(i + 1);
      return rest.length ? { kind: 'file', path: rest[0], args: rest.slice(1) } : { kind: 'stdin', args: [] };
    }
    if (IGNORED.has(arg) || /^--(max-old-space-size|stack-size|title)=/.test(arg)) continue;
    if (arg === '--input-type=module' || arg === '--experimental-modules' || arg === '--import') {
      return {
        kind: 'error',
        message: `${arg}: ES modules are not supported by this sandbox's node (QuickJS, CommonJS only)`,
      };
    }
    if (
      arg === '--test' ||
      arg === '--watch' ||
      arg === '--inspect' ||
      arg === '-i' ||
      arg === '--interactive'
    ) {
      return { kind: 'error', message: `${arg} is not supported by this sandbox's node (QuickJS)` };
    }
    if (arg.startsWith('-')) return { kind: 'error', message: `bad option: ${arg}` };
    return { kind: 'file', path: arg, args: args.slice(i + 1) };
  }
  return { kind: 'stdin', args: [] };
}
