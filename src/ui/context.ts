/**
 * Typed context: one Symbol key per value, a setter for the component that owns it and a getter
 * that fails loudly when a component is rendered outside its owner.
 */
import { getContext, hasContext, setContext } from 'svelte';
import type { ServiceWorkerHost } from '../page/service-worker.svelte';
import type { Playground } from './playground.svelte';
import type { Presenter } from './presenter.svelte';
import type { Viewer } from './viewer.svelte';

export interface Context<T> {
  set(value: T): T;
  get(): T;
}

export function createContext<T>(name: string): Context<T> {
  const key = Symbol(name);
  return {
    set: (value) => setContext(key, value),
    get: () => {
      if (!hasContext(key))
        throw new Error(`${name} is not provided: render this inside App.svelte or Embed.svelte`);
      return getContext<T>(key);
    },
  };
}

/** The one Playground of the page. */
export const playgroundContext = createContext<Playground>('Playground');

/**
 * What the arrays, the step bar and the presenter's caption read: the whole Playground, or an
 * embedded run's stage (src/ui/embed-stage.svelte.ts), which loads none of the rest.
 */
export interface RunStage {
  readonly viewer: Viewer;
  readonly presenter: Presenter;
  /** A live run is under way. */
  readonly running: boolean;
}

/** The run on screen: the Playground's or the embed's. */
export const stageContext = createContext<RunStage>('RunStage');

/** The page's service worker: offline use, cross-origin isolation, updates. */
export const serviceWorkerContext = createContext<ServiceWorkerHost>('ServiceWorkerHost');
