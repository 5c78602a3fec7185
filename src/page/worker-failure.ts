/** A worker's script did not load (the network dropped, the server did not answer): trying again may do. */
export class ScriptNotLoaded extends Error {}

/** Rejects when a worker fails to load or throws outside any call (Comlink would wait forever). */
export function failureOf(worker: Worker, label: string): Promise<never> {
  return new Promise((_resolve, reject) => {
    const fail = (event: Event) => {
      // A script that throws gives an ErrorEvent; one that could not be fetched, a plain `error`.
      if (event.type === 'error' && !(event instanceof ErrorEvent))
        return reject(new ScriptNotLoaded(`the ${label} worker's script did not load`));
      const detail = event instanceof ErrorEvent && event.message ? `: ${event.message}` : '';
      reject(new Error(`the ${label} worker failed${detail}`));
    };
    worker.addEventListener('error', fail, { once: true });
    worker.addEventListener('messageerror', fail, { once: true });
  });
}
