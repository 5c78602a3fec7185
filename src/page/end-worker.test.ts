/**
 * Ending a worker mid-call lets go of its proxy: the worker's side is told (Comlink closes it),
 * the call waiting is dropped rather than kept for ever, and ending it again does nothing.
 */
import { once } from 'node:events';
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ended, endWorker } from './end-worker';

const opened: MessagePort[] = [];
afterEach(() => {
  for (const port of opened.splice(0)) port.close();
});

/** A "worker" that is one end of a channel whose other end serves a call that never answers. */
function worker() {
  const { port1, port2 } = new MessageChannel();
  opened.push(port1, port2);
  Comlink.expose({ read: () => new Promise(() => {}) }, port2);
  const terminate = vi.fn();
  const endpoint = Object.assign(port1, { terminate });
  const api = Comlink.wrap<{ read(): Promise<string> }>(endpoint);
  return { endpoint, api, terminate, closed: once(port2, 'close') };
}

describe('endWorker', () => {
  it('terminates the worker and lets go of its proxy while a call still waits on it', async () => {
    const { endpoint, api, terminate, closed } = worker();
    const waiting = api.read();
    await new Promise((resolve) => setTimeout(resolve));
    expect(ended(api)).toBe(false);
    endWorker(endpoint, api);
    expect(terminate).toHaveBeenCalledOnce();
    expect(ended(api)).toBe(true);
    await closed; // the worker's side was told to let go, and did
    // A released proxy takes no further call.
    expect(() => api.read()).toThrow(/released/i);
    void waiting;
  });

  it('a second end terminates again but releases nothing twice (a released proxy would throw)', () => {
    const { endpoint, api, terminate } = worker();
    endWorker(endpoint, api);
    expect(() => endWorker(endpoint, api)).not.toThrow();
    expect(terminate).toHaveBeenCalledTimes(2);
  });
});
