/**
 * A component loaded on first use (or in an idle moment after the first screen), so that nothing
 * of it is on the way of the first paint or of `sandbox:ready`: the dialogs a learner opens later.
 */
import type { Component } from 'svelte';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component's props and exports
export class Lazy<T extends Component<any, any, any>> {
  /** The loaded component, or null until it is. */
  component = $state<T | null>(null);
  #loading: Promise<T> | null = null;
  readonly #load: () => Promise<{ default: T }>;

  constructor(load: () => Promise<{ default: T }>) {
    this.#load = load;
  }

  /** Loads it (once; again after a failed try) and resolves with it. */
  get(): Promise<T> {
    this.#loading ??= this.#load().then(
      (module) => (this.component = module.default),
      (error: unknown) => {
        this.#loading = null; // the network may be back, or the page reloaded: try again next time
        throw error;
      },
    );
    return this.#loading;
  }
}
