import { describe, expect, it, vi } from 'vitest';
import { CLAIM, RUNS, SKIP_WAITING, type ClaimMessage } from '../service-worker/protocol';
import {
  ISOLATION_REFUSED,
  RELOADED_FOR_ISOLATION,
  ServiceWorkerHost,
  type ServiceWorkerEnvironment,
} from './service-worker.svelte';

/** The page's entry script, which says its build (ClaimMessage). */
const SCRIPT = 'https://example.test/s04/assets/index-first.js';

/** A service worker as the page sees it: a state, and messages posted to it. */
class FakeWorker extends EventTarget {
  posted: unknown[] = [];
  /** The scripts of the pages that asked to be taken over (CLAIM). */
  claims: string[] = [];
  /** Of another build than the page's: it answers CLAIM with no. */
  foreign = false;
  constructor(public state: ServiceWorkerState) {
    super();
  }
  postMessage(message: unknown, transfer?: Transferable[]): void {
    if ((message as { type?: unknown }).type !== CLAIM) return void this.posted.push(message);
    this.claims.push((message as ClaimMessage).script);
    (transfer?.[0] as MessagePort).postMessage({ ours: !this.foreign });
  }
  to(state: ServiceWorkerState): void {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  active: FakeWorker | null = null;
  update = vi.fn(() => Promise.resolve());
}

class FakeContainer extends EventTarget {
  controller: FakeWorker | null = null;
  registered: Array<{ url: string; scope?: string }> = [];
  constructor(private readonly answer: () => Promise<FakeRegistration | undefined>) {
    super();
  }
  register(url: string, options?: { scope?: string }): Promise<FakeRegistration | undefined> {
    this.registered.push({ url, scope: options?.scope });
    return this.answer();
  }
}

function memorySession(entries: Record<string, string> = {}) {
  const map = new Map(Object.entries(entries));
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}

function environment(
  overrides: Omit<Partial<ServiceWorkerEnvironment>, 'container'> & { container?: FakeContainer },
) {
  const reload = vi.fn();
  const env = {
    secure: true,
    isolated: true,
    session: memorySession(),
    reload,
    base: '/s04/',
    script: SCRIPT,
    ...overrides,
    container: overrides.container as unknown as ServiceWorkerContainer | undefined,
  } satisfies ServiceWorkerEnvironment;
  return { env, reload };
}

/** A registration whose first worker is installing, as on a first visit. */
function firstVisit() {
  const registration = new FakeRegistration();
  registration.installing = new FakeWorker('installing');
  const container = new FakeContainer(async () => registration);
  /** The install finishes: the worker activates (it takes the page over when asked, CLAIM). */
  const activate = () => {
    const worker = registration.installing!;
    registration.installing = null;
    registration.active = worker;
    worker.to('activated');
  };
  return { registration, container, activate };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ServiceWorkerHost', () => {
  it('registers the worker beside the page, under the base path, and reports the first install', async () => {
    const { registration, container, activate } = firstVisit();
    const worker = registration.installing!;
    const host = new ServiceWorkerHost(environment({ container }).env);
    const started = host.start();
    await flush();
    expect(container.registered).toEqual([{ url: '/s04/service-worker.js', scope: '/s04/' }]);
    expect(host.offline).toEqual({ kind: 'installing' });
    activate();
    await started;
    expect(worker.claims).toEqual([SCRIPT]); // of the page's build: it takes the page over
    expect(host.offline).toEqual({ kind: 'ready', justInstalled: true });
    expect(host.isolation).toBe('isolated');
    expect(host.update).toBe(false);
    host.dispose();
  });

  describe('a first install of another build (deployed after the page loaded, before its worker was fetched)', () => {
    it('is not "Saved for offline use" but "Update available"; Reload loads that build', async () => {
      const { registration, container, activate } = firstVisit();
      const worker = registration.installing!;
      worker.foreign = true;
      const { env, reload } = environment({ container });
      const host = new ServiceWorkerHost(env);
      const started = host.start();
      await flush();
      activate();
      await started;
      expect(worker.claims).toEqual([SCRIPT]);
      expect(host.offline).toEqual({ kind: 'off' });
      expect(host.update).toBe(true);
      host.applyUpdate(); // nothing waits: the active build serves the reloaded page
      expect(reload).toHaveBeenCalledTimes(1);
      host.dispose();
    });

    it('on a host without isolation headers, the page does not reload into it by itself', async () => {
      const { registration, container, activate } = firstVisit();
      registration.installing!.foreign = true;
      const { env, reload } = environment({ container, isolated: false });
      const host = new ServiceWorkerHost(env);
      const started = host.start();
      await flush();
      activate();
      await started;
      expect(reload).not.toHaveBeenCalled();
      expect(host.update).toBe(true);
      expect(host.offline).toEqual({ kind: 'off' });
      host.dispose();
    });
  });

  it('without service workers, over http, or when registering fails: network only, saying why', async () => {
    const none = new ServiceWorkerHost(environment({ container: undefined }).env);
    await none.start();
    expect(none.offline).toEqual({ kind: 'network-only', reason: 'unsupported' });
    expect(none.isolation).toBe('isolated'); // the host's headers still isolate it

    const insecure = new ServiceWorkerHost(
      environment({ container: new FakeContainer(async () => new FakeRegistration()), secure: false }).env,
    );
    await insecure.start();
    expect(insecure.offline).toEqual({ kind: 'network-only', reason: 'insecure' });

    const refused = new ServiceWorkerHost(
      environment({
        container: new FakeContainer(() => Promise.reject(new Error('The operation is insecure.'))),
        isolated: false,
      }).env,
    );
    await refused.start();
    expect(refused.offline).toEqual({
      kind: 'network-only',
      reason: 'failed',
      detail: 'The operation is insecure.',
    });
    expect(refused.isolation).toBe('off');

    const blocked = new ServiceWorkerHost(
      environment({ container: new FakeContainer(async () => undefined) }).env,
    );
    await blocked.start();
    expect(blocked.offline).toMatchObject({ kind: 'network-only', reason: 'failed' });
  });

  it('a worker that fails to install (a file did not match its hash) leaves the page on the network', async () => {
    const { registration, container } = firstVisit();
    const host = new ServiceWorkerHost(environment({ container }).env);
    const started = host.start();
    await flush();
    registration.installing!.to('redundant');
    await started;
    expect(host.offline).toMatchObject({ kind: 'network-only', reason: 'failed' });
  });

  describe('a host without isolation headers', () => {
    it('reloads once when the worker is active, and says why when that did not isolate the page', async () => {
      const { container, activate } = firstVisit();
      const session = memorySession();
      const first = environment({ container, isolated: false, session });
      const host = new ServiceWorkerHost(first.env);
      expect(host.urgent).toBe(true);
      const started = host.start();
      await flush();
      expect(host.isolation).toBe('pending');
      activate();
      await started;
      expect(first.reload).toHaveBeenCalledTimes(1);
      expect(session.map.get(RELOADED_FOR_ISOLATION)).toBe('1');

      // The reloaded page is still not isolated (a browser that ignores the worker's headers).
      const second = environment({ container, isolated: false, session });
      const again = new ServiceWorkerHost(second.env);
      await again.start();
      expect(second.reload).not.toHaveBeenCalled();
      expect(again.isolation).toBe('refused');

      // Nor on any later load of this tab.
      const third = environment({ container, isolated: false, session });
      await new ServiceWorkerHost(third.env).start();
      expect(third.reload).not.toHaveBeenCalled();
      expect(session.map.get(ISOLATION_REFUSED)).toBe('1');
    });

    it('offers the reload instead while a run is on screen, or where sessionStorage cannot guard it', async () => {
      const busy = firstVisit();
      const withRun = environment({ container: busy.container, isolated: false });
      const host = new ServiceWorkerHost(withRun.env, () => false);
      const started = host.start();
      await flush();
      busy.activate();
      await started;
      expect(withRun.reload).not.toHaveBeenCalled();
      expect(host.isolation).toBe('reload-needed');
      host.reloadForIsolation();
      expect(withRun.reload).toHaveBeenCalledTimes(1);

      const noStorage = firstVisit();
      const unguarded = environment({ container: noStorage.container, isolated: false, session: undefined });
      const other = new ServiceWorkerHost(unguarded.env);
      const going = other.start();
      await flush();
      noStorage.activate();
      await going;
      expect(unguarded.reload).not.toHaveBeenCalled();
      expect(other.isolation).toBe('reload-needed');
    });
  });

  it('tells the worker being installed when a run starts and ends, so it waits meanwhile', async () => {
    const { registration, container, activate } = firstVisit();
    const installing = registration.installing!;
    const host = new ServiceWorkerHost(environment({ container }).env);
    host.setBusy(true); // a run before the worker is registered
    const started = host.start();
    await flush();
    expect(installing.posted).toEqual([{ type: RUNS, busy: true }]);
    host.setBusy(false);
    host.setBusy(false);
    host.setBusy(true);
    expect(installing.posted).toEqual([
      { type: RUNS, busy: true },
      { type: RUNS, busy: false },
      { type: RUNS, busy: true },
    ]);
    host.setBusy(false);
    activate();
    await started;
    host.setBusy(true); // installed: nothing waits any more
    expect(installing.posted).toHaveLength(4);

    // A new build found while the run goes on is told at once.
    const next = new FakeWorker('installing');
    registration.installing = next;
    registration.dispatchEvent(new Event('updatefound'));
    expect(next.posted).toEqual([{ type: RUNS, busy: true }]);
    host.dispose();
  });

  describe('a new build', () => {
    function controlled() {
      const registration = new FakeRegistration();
      registration.active = new FakeWorker('activated');
      const container = new FakeContainer(async () => registration);
      container.controller = registration.active;
      return { registration, container };
    }

    it('installed while the page runs: "Update available"; Reload lets it take over, then reloads', async () => {
      const { registration, container } = controlled();
      const { env, reload } = environment({ container });
      const host = new ServiceWorkerHost(env);
      await host.start();
      expect(host.offline).toEqual({ kind: 'ready', justInstalled: false });
      expect(host.update).toBe(false);

      const next = new FakeWorker('installing');
      registration.installing = next;
      registration.dispatchEvent(new Event('updatefound'));
      registration.installing = null;
      registration.waiting = next;
      next.to('installed');
      expect(host.update).toBe(true);

      host.applyUpdate();
      expect(next.posted).toEqual([{ type: SKIP_WAITING }]);
      expect(reload).not.toHaveBeenCalled(); // not before the new build controls the page
      container.dispatchEvent(new Event('controllerchange'));
      expect(reload).toHaveBeenCalledTimes(1);
      host.dispose();
    });

    it('already waiting when the page loads (a reload does not switch builds): offered at once', async () => {
      const { registration, container } = controlled();
      registration.waiting = new FakeWorker('installed');
      const host = new ServiceWorkerHost(environment({ container }).env);
      await host.start();
      expect(host.update).toBe(true);
      host.dispose();
    });
  });
});
