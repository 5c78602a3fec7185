/**
 * Ending a worker the page calls through Comlink: terminated, and the proxy let go of. The proxy
 * is registered with Comlink's finalization registry, which holds the worker until the proxy is
 * collected; a call still waiting on the worker (a Stop ends runs mid-call, a Cancel ends an
 * opening mid-read) keeps the proxy reachable from the worker's own listener, so without the
 * release neither would ever go, nor anything the waiting call's continuation holds (an opening's
 * events read so far). Released, the calls waiting are dropped (a terminated worker answers none).
 */
import * as Comlink from 'comlink';

/** The proxies of ended workers: a released proxy throws on any use, its release included. */
const released = new WeakSet<object>();

export function endWorker(worker: Pick<Worker, 'terminate'>, api: Comlink.Remote<unknown>): void {
  worker.terminate();
  if (released.has(api)) return;
  released.add(api);
  api[Comlink.releaseProxy]();
}

/** Whether `api`'s worker was ended (nothing may be asked of it any more). */
export function ended(api: Comlink.Remote<unknown>): boolean {
  return released.has(api);
}
