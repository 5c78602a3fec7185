/**
 * The boundary between the sandbox worker and its nested `python` worker, declared once and
 * checked where each message arrives:
 *
 *   sandbox worker (python-host.ts)               python worker (pyodide.worker.ts)
 *   load(indexURL, interrupt, onProgress) ──────▶ servedPythonWorker: checks it
 *   acceptEngineProgress ◀────────────────────────── progress of the first load
 *   run(request) ────────────────────────────────▶ servedPythonWorker: checks it
 *   checkPythonResult ◀──────────────────────────── the script's output and its file changes
 *
 * A malformed message fails its call with a ProtocolError naming the field; a malformed
 * progress report is dropped with a warning. Nothing acts on either.
 */
import * as v from 'valibot';
import { acceptOrWarn, checked } from '../../core/schema';
import type { EngineProgress, PythonRunRequest, PythonRunResult } from './pyodide';

export interface PythonWorkerApi {
  load(
    indexURL: string,
    interrupt: Int32Array | undefined,
    onProgress: (progress: EngineProgress) => void,
  ): Promise<void>;
  run(request: PythonRunRequest): PythonRunResult;
}

const text = v.string();
const count = v.pipe(v.number(), v.safeInteger('an integer'), v.minValue(0, 'not negative'));
const bytes = v.instance(Uint8Array);
const path = v.pipe(text, v.startsWith('/', 'an absolute path'));

const TreeEntrySchema = v.variant('type', [
  v.object({ type: v.literal('directory') }),
  v.object({ type: v.literal('file'), data: bytes, mtimeMs: v.pipe(v.number(), v.finite()) }),
]);

const PythonRunRequestSchema = v.object({
  mode: v.picklist(['file', 'code', 'module', 'stdin']),
  target: text,
  args: v.array(text),
  cwd: path,
  env: v.record(text, text),
  stdin: text,
  roots: v.array(path),
  entries: v.map(path, TreeEntrySchema),
});

const TreeChangeSchema = v.variant('kind', [
  v.object({ kind: v.literal('mkdir'), path }),
  v.object({ kind: v.literal('write'), path, data: bytes }),
  v.object({ kind: v.literal('delete'), path }),
]);

const PythonRunResultSchema = v.object({
  stdout: text,
  stderr: text,
  exitCode: v.pipe(v.number(), v.integer('an integer')),
  interrupted: v.boolean(),
  changes: v.array(TreeChangeSchema),
});

const EngineProgressSchema = v.object({
  phase: v.picklist(['loading', 'ready']),
  loaded: v.optional(count),
  total: v.optional(count),
});

const interruptCell = v.optional(
  v.custom<Int32Array>(
    (value) =>
      typeof SharedArrayBuffer === 'function' &&
      value instanceof Int32Array &&
      value.buffer instanceof SharedArrayBuffer,
    'an Int32Array over shared memory',
  ),
);
const callback = v.custom<(progress: EngineProgress) => void>(
  (value) => typeof value === 'function',
  'a function',
);

/** `api` behind checks of what the sandbox worker sends the python worker. */
export function servedPythonWorker(api: PythonWorkerApi): PythonWorkerApi {
  return {
    load: async (indexURL, interrupt, onProgress) =>
      api.load(
        checked(v.pipe(text, v.url('a URL')), indexURL, 'load: indexURL'),
        checked(interruptCell, interrupt, 'load: interrupt'),
        checked(callback, onProgress, 'load: onProgress'),
      ),
    run: (request) => api.run(checked(PythonRunRequestSchema, request, 'run: request')),
  };
}

/** Checks a script's result as it arrives in the sandbox worker. */
export function checkPythonResult(value: unknown): PythonRunResult {
  return checked(PythonRunResultSchema, value, 'python result');
}

/** A load's progress report as it arrives in the sandbox worker, or undefined (warned) if malformed. */
export function acceptEngineProgress(value: unknown): EngineProgress | undefined {
  return acceptOrWarn(EngineProgressSchema, value, 'python progress');
}
