/**
 * The nested worker (named `python`) that holds Pyodide for the sandbox worker: one engine,
 * loaded from the app's own origin, running one script at a time. The sandbox worker interrupts
 * it through the shared buffer it passes to load(), and terminates it as a last resort.
 *
 * Once loaded, this worker's global scope has no postMessage (offline-scope.ts): scripts must not
 * talk to anyone. Comlink answers the sandbox worker through the functions taken here, first.
 */
import * as Comlink from 'comlink';
import { PythonEngine, type EngineProgress } from './pyodide';
import { servedPythonWorker } from './python-protocol';

/** How often download progress is reported at most. */
const PROGRESS_EVERY_MS = 100;

let loading: Promise<PythonEngine> | undefined;
let engine: PythonEngine | undefined;

/**
 * Counts the bytes of what Pyodide fetches (the wasm, the standard library, the lock file), so
 * the first load can show progress. Sizes come from Content-Length, as the responses start.
 */
function countDownloads(report: (progress: EngineProgress) => void): () => void {
  const original = globalThis.fetch;
  let loaded = 0;
  let total = 0;
  let last = 0;
  const emit = (force: boolean) => {
    const now = Date.now();
    if (!force && now - last < PROGRESS_EVERY_MS) return;
    last = now;
    report({ phase: 'loading', loaded, total: Math.max(total, loaded) });
  };
  globalThis.fetch = async (input, init) => {
    const response = await original(input, init);
    if (!response.ok || !response.body) return response;
    total += Number(response.headers.get('content-length') ?? 0);
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          loaded += chunk.byteLength;
          emit(false);
          controller.enqueue(chunk);
        },
        flush: () => emit(true),
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    globalThis.fetch = original;
  };
}

// What the sandbox worker sends is checked before it is acted on (python-protocol.ts).
const api = servedPythonWorker({
  async load(indexURL, interrupt, onProgress) {
    if (!loading) {
      const restore = countDownloads((progress) => onProgress(progress));
      loading = PythonEngine.load({
        indexURL,
        interruptBuffer: interrupt,
        beforeLockDown: restore,
        importPyodide: () => import(/* @vite-ignore */ new URL('pyodide.mjs', indexURL).href),
      });
      loading.finally(restore).catch(() => (loading = undefined));
    }
    engine = await loading;
    onProgress({ phase: 'ready' });
  },

  run(request) {
    if (!engine) throw new Error('Pyodide is not loaded');
    return engine.run(request);
  },
});

/** Our one channel, kept before the scope loses postMessage; bound, so scripts cannot reach it. */
const channel: Comlink.Endpoint = {
  postMessage: self.postMessage.bind(self),
  addEventListener: self.addEventListener.bind(self),
  removeEventListener: self.removeEventListener.bind(self),
};

Comlink.expose(api, channel);
