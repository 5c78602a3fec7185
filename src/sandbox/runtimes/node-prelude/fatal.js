/**
 * Hand-written: how Node reports an uncaught error (the source line and a caret for an error in a
 * file, the error as inspect prints it, "Node.js v…") and ends the run with exit code 1, or 134
 * when QuickJS ran out of memory. No package knows QuickJS's errors or the host's exit.
 */
import { fsHost, hardExit, host, init, lazy } from './host.js';
import { WRAPPER } from './modules.js';

/** "file:line", the line and a caret, for an error whose first frame of the user's is in a file. */
function sourceContext(error) {
  let file = error.fileName;
  let line = error.lineNumber;
  let column;
  const stack = typeof error.stack === 'string' ? error.stack : '';
  const first = stack.split('\n').find((l) => /^\s+at /.test(l) && !l.includes('node:internal/'));
  const frame = /\(?((?:\/|\[eval\])[^():]*):(\d+)(?::(\d+))?\)?/.exec(first ?? '');
  if (frame) {
    file ??= frame[1];
    line ??= Number(frame[2]);
    column = frame[3] ? Number(frame[3]) : undefined;
  }
  if (!file || !line || file === '[eval]') return '';
  let text;
  try {
    text = fsHost('readText', [file]).split('\n')[line - 1];
  } catch {
    return '';
  }
  if (text === undefined) return '';
  if (line === 1 && column !== undefined) column -= WRAPPER.length;
  const caret = column !== undefined && column > 0 ? `${' '.repeat(column - 1)}^\n` : '';
  return `${file}:${line}\n${text}\n${caret}\n`;
}

/** Prints an uncaught error as Node does and ends the run with exit code 1. */
export function reportFatal(error) {
  if (error instanceof Error && error.name === 'InternalError' && error.message === 'out of memory') {
    host.outOfMemory();
    hardExit(134);
  }
  let text;
  try {
    if (error?.esm) text = `${error.message}\n`;
    else if (error instanceof Error) {
      const context = sourceContext(error);
      text = `${context}${lazy('inspect').inspect(error)}\n\nNode.js v${init.version}\n`;
    } else text = `Uncaught ${lazy('inspect').inspect(error)}\n\nNode.js v${init.version}\n`;
  } catch {
    text = `${String(error)}\n`;
  }
  host.write(2, text);
  hardExit(1);
}
