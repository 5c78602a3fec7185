/**
 * How the page learns that one of its workers failed: its script did not load, or it threw outside
 * any call. Comlink would wait forever for such a worker's answer, so a call to it is raced
 * against its failure.
 */

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

/**
 * A worker's failure that call after call is raced against over a long life (the parent's worker
 * runs every prompt of the page). `Promise.race([call, failure])` leaves a reaction on `failure`
 * for each call, and a well worker's failure never settles: each would stay, holding its race,
 * as long as the worker lives. Here `failure` has one reaction, and a call is let go of once it
 * has settled.
 */
export class FailureRace {
  readonly #waiting = new Set<(error: unknown) => void>();
  #failed: { error: unknown } | undefined;

  constructor(failure: Promise<never>) {
    failure.catch((error: unknown) => {
      this.#failed = { error };
      for (const reject of this.#waiting) reject(error);
      this.#waiting.clear();
    });
  }

  /** The calls raced now that have not settled. */
  get waiting(): number {
    return this.#waiting.size;
  }

  /** `call`'s outcome, or the worker's failure if that comes first (at once if it came before). */
  race<T>(call: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.#failed) {
        call.catch(() => {}); // the failure is the answer; the call's own end is no one's
        return reject(this.#failed.error);
      }
      this.#waiting.add(reject);
      call.then(resolve, reject).finally(() => this.#waiting.delete(reject));
    });
  }
}
