/** Rejects when a worker fails to load or throws outside any call (Comlink would wait forever). */
export function failureOf(worker: Worker, label: string): Promise<never> {
  return new Promise((_resolve, reject) => {
    const fail = (event: ErrorEvent | MessageEvent) => {
      const detail = event instanceof ErrorEvent && event.message ? `: ${event.message}` : '';
      reject(new Error(`the ${label} worker failed${detail}`));
    };
    worker.addEventListener('error', fail, { once: true });
    worker.addEventListener('messageerror', fail, { once: true });
  });
}
