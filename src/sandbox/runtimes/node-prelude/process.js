/**
 * Hand-written: `process` is this run's plumbing to the host: argv, env and the working directory
 * it was given, stdout and stderr into the command's output, stdin as the text piped in, and
 * exit() that ends QuickJS past any try/catch. The `process` package is a browser stub (cwd '/',
 * exit throws, nextTick on setTimeout) with none of that.
 */
import { EventEmitter } from 'events';
import { fsHost, hardExit, host, init, utf8Decode } from './host.js';
import { fsError } from './fs.js';
import { path } from './path.js';
import { timerGlobals } from './timers.js';
import { reportFatal } from './fatal.js';
import { writeLine } from './console.js';

let cwd = init.cwd;

class Stream extends EventEmitter {
  constructor(fd) {
    super();
    this.fd = fd;
    this.isTTY = false;
    this.writable = fd !== 0;
  }
  write(chunk, encoding, callback) {
    const text = typeof chunk === 'string' ? chunk : utf8Decode(chunk);
    host.write(this.fd, text);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (done) timerGlobals.queueMicrotask(done);
    return true;
  }
  end(chunk) {
    if (chunk !== undefined) this.write(chunk);
  }
}

const stdin = new Stream(0);
let stdinScheduled = false;
stdin.setEncoding = () => stdin;
stdin.resume = () => stdin;
stdin.pause = () => stdin;
stdin.read = () => null;
const startStdin = () => {
  if (stdinScheduled) return;
  stdinScheduled = true;
  timerGlobals.setTimeout(() => {
    if (init.stdin) stdin.emit('data', init.stdin);
    stdin.emit('end');
    stdin.emit('close');
  }, 0);
};
stdin.on('newListener', (name) => {
  if (name === 'data' || name === 'end' || name === 'readable') startStdin();
});
stdin[Symbol.asyncIterator] = async function* () {
  if (init.stdin) yield init.stdin;
};

export const process = new EventEmitter();
let exiting = false;
Object.assign(process, {
  title: 'node',
  version: `v${init.version}`,
  versions: { node: init.version, quickjs: init.quickjsVersion },
  release: { name: 'node (QuickJS in the browser sandbox)' },
  platform: 'linux',
  arch: 'wasm32',
  pid: 42,
  ppid: 1,
  argv: init.argv,
  argv0: 'node',
  execArgv: [],
  execPath: '/usr/local/bin/node',
  env: init.env,
  exitCode: undefined,
  stdin,
  stdout: new Stream(1),
  stderr: new Stream(2),
  cwd: () => cwd,
  chdir(dir) {
    const target = path.resolve(String(dir));
    const stat = fsHost('stat', [target]);
    if (!stat || stat.type !== 'directory') {
      throw fsError(stat ? 'ENOTDIR' : 'ENOENT', 'chdir', `${cwd} -> '${target}`);
    }
    cwd = target;
  },
  exit(code) {
    if (code !== undefined) process.exitCode = code;
    const final = Number(process.exitCode ?? 0) & 255;
    if (!exiting) {
      exiting = true;
      try {
        process.emit('exit', final);
      } catch (error) {
        reportFatal(error);
      }
    }
    hardExit(final);
  },
  abort() {
    hardExit(134);
  },
  nextTick: (callback, ...args) => timerGlobals.queueMicrotask(() => callback(...args)),
  hrtime: Object.assign(
    (previous) => {
      const ns = Math.round(host.now() * 1e6);
      let seconds = Math.floor(ns / 1e9);
      let nanos = ns % 1e9;
      if (previous) {
        seconds -= previous[0];
        nanos -= previous[1];
        if (nanos < 0) {
          seconds -= 1;
          nanos += 1e9;
        }
      }
      return [seconds, nanos];
    },
    { bigint: () => BigInt(Math.round(host.now() * 1e6)) },
  ),
  uptime: () => host.now() / 1000,
  memoryUsage: () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }),
  cpuUsage: () => ({ user: 0, system: 0 }),
  umask: () => 0o22,
  getuid: () => 1000,
  getgid: () => 1000,
  emitWarning: (warning) =>
    writeLine(2, `(node:42) Warning: ${warning instanceof Error ? warning.message : warning}`),
});
