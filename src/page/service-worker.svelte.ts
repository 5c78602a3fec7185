/**
 * The page's side of the service worker (src/service-worker/service-worker.ts): registers it, says how
 * offline use stands, makes the page cross-origin isolated where the host sends no headers, and
 * offers a new build ("Update available") without ever mixing two builds' files.
 *
 *   start() ─ no service workers / not https / register() fails ──► network-only (a line says why)
 *     │ registered
 *     ├─ first install: installing ──► active
 *     ├─ active: the page asks it to take it over (CLAIM, naming the page's script)
 *     │     of this build ──► ready ("Saved for offline use" on the first install)
 *     │     of another (deployed after this page loaded) ──► update: "Update available" + Reload;
 *     │     the page keeps loading its own files from the network, never the worker's
 *     ├─ page not cross-origin isolated (no COOP/COEP from the host) once the worker is active:
 *     │     reload once, so the page is served by the worker, which adds the headers.
 *     │     Guarded by a sessionStorage flag: a page that reloaded for this and is still not
 *     │     isolated says why instead (never a loop); without sessionStorage, or with a run on
 *     │     screen, the learner is offered the reload instead of getting it.
 *     └─ a new build's worker installed and waiting ──► update: "Update available" + Reload
 *           Reload: the waiting worker takes over (skip-waiting), then the page reloads.
 *   An installing worker is told when a run starts and ends (setBusy): it fetches no file meanwhile.
 *
 * Registering is not on the way of the first run: with isolation from the host it starts after
 * the sandbox is ready; without, at once, since the page will reload.
 */
import {
  CLAIM,
  RUNS,
  SERVICE_WORKER_FILE,
  SKIP_WAITING,
  type ClaimAnswer,
  type ClaimMessage,
  type RunsMessage,
} from '../service-worker/protocol';
import { messageOf } from '../core/errors';

export type OfflineStatus =
  /** Not started (the dev server never registers it). */
  | { kind: 'off' }
  /** First visit: the worker is saving the app's files. */
  | { kind: 'installing' }
  /** The worker serves the app; `justInstalled` on the visit that saved it. */
  | { kind: 'ready'; justInstalled: boolean }
  /** No service worker: the app runs from the network only. */
  | { kind: 'network-only'; reason: 'unsupported' | 'insecure' | 'failed'; detail?: string };

/**
 * `isolated`: SharedArrayBuffer and WebContainer work. `pending`: the worker is being installed
 * and the page will reload once. `reload-needed`: the worker is ready; the learner's Reload
 * isolates the page. `off`: not isolated, and no way to be on this page (see `OfflineStatus`,
 * or `refused`: served by the worker and still not isolated).
 */
export type IsolationStatus = 'isolated' | 'pending' | 'reload-needed' | 'off' | 'refused';

/** What the host needs of the browser; tests give a fake. */
export interface ServiceWorkerEnvironment {
  container: ServiceWorkerContainer | undefined;
  secure: boolean;
  isolated: boolean;
  /** sessionStorage, or undefined where it is unavailable (it may throw on access). */
  session: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;
  reload(): void;
  /** Where the app is served from: the worker's file and scope are there. */
  base: string;
  /** The page's entry script (absolute URL): which build the page is (ClaimMessage). */
  script: string;
}

/** Set just before the page reloads to become isolated; read (and cleared) by the next load. */
export const RELOADED_FOR_ISOLATION = 's04:reloaded-for-isolation';
/** Set when that reload did not isolate the page: no more tries in this tab. */
export const ISOLATION_REFUSED = 's04:isolation-refused';
/** How often a long session asks whether a new build was deployed. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;
/** If the waiting worker never takes over (another tab's did, or it failed), reload anyway. */
const TAKE_OVER_TIMEOUT_MS = 3000;
/** How long the page waits for the active worker's answer to CLAIM. */
const CLAIM_ANSWER_MS = 10_000;

function browserSession(): ServiceWorkerEnvironment['session'] {
  try {
    const storage = window.sessionStorage;
    storage.setItem('s04:probe', '1');
    storage.removeItem('s04:probe');
    return storage;
  } catch {
    return undefined;
  }
}

export function browserEnvironment(): ServiceWorkerEnvironment {
  return {
    container: 'serviceWorker' in navigator ? navigator.serviceWorker : undefined,
    secure: window.isSecureContext,
    isolated: window.crossOriginIsolated === true,
    session: browserSession(),
    reload: () => location.reload(),
    base: import.meta.env.BASE_URL,
    script: entryScript(),
  };
}

export class ServiceWorkerHost {
  offline = $state.raw<OfflineStatus>({ kind: 'off' });
  isolation = $state<IsolationStatus>('isolated');
  /** A new build is installed and waiting for the learner's Reload. */
  update = $state(false);

  readonly #env: ServiceWorkerEnvironment;
  /** Whether reloading now would lose nothing the learner sees (no run on screen). */
  readonly #canReload: () => boolean;
  #registration: ServiceWorkerRegistration | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #started = false;
  /** A run is under way on this page. */
  #busy = false;

  constructor(env: ServiceWorkerEnvironment, canReload: () => boolean = () => true) {
    this.#env = env;
    this.#canReload = canReload;
    this.isolation = env.isolated ? 'isolated' : 'pending';
  }

  /** Whether start() should wait for the sandbox (the host isolates the page already). */
  get urgent(): boolean {
    return !this.#env.isolated;
  }

  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    const env = this.#env;
    const reloadedBefore = env.session?.getItem(RELOADED_FOR_ISOLATION) === '1';
    env.session?.removeItem(RELOADED_FOR_ISOLATION);

    if (!env.container) return this.#networkOnly('unsupported');
    if (!env.secure) return this.#networkOnly('insecure');
    let registration: ServiceWorkerRegistration | undefined;
    try {
      registration = await env.container.register(`${env.base}${SERVICE_WORKER_FILE}`, { scope: env.base });
    } catch (error) {
      return this.#networkOnly('failed', messageOf(error));
    }
    // Some environments answer without registering anything (an automation tool's block).
    if (!registration) return this.#networkOnly('failed', 'the browser did not register it');
    this.#registration = registration;
    if (this.#busy) this.#tellInstalling();
    this.#watchUpdates(registration);

    const firstInstall = !registration.active;
    if (firstInstall) {
      this.offline = { kind: 'installing' };
      const installed = await activated(registration);
      if (installed !== true) return this.#networkOnly('failed', installed);
    }
    // A worker of another build (a deploy landed before it was fetched) is this page's update.
    if (!(await ofThisBuild(registration, env.script))) {
      this.offline = { kind: 'off' };
      this.update = true;
      return;
    }
    this.offline = { kind: 'ready', justInstalled: firstInstall };
    if (!env.isolated) this.#isolate(reloadedBefore);
  }

  /** A run started (true) or ended: the worker being installed, if any, waits while one is under way. */
  setBusy(busy: boolean): void {
    if (busy === this.#busy) return;
    this.#busy = busy;
    this.#tellInstalling();
  }

  #tellInstalling(): void {
    const message: RunsMessage = { type: RUNS, busy: this.#busy };
    this.#registration?.installing?.postMessage(message);
  }

  /** Reload on "Update available": the waiting build takes over, then the page shows it. */
  applyUpdate(): void {
    const waiting = this.#registration?.waiting;
    const container = this.#env.container;
    if (!waiting || !container) return this.#env.reload();
    const timer = setTimeout(() => this.#env.reload(), TAKE_OVER_TIMEOUT_MS);
    container.addEventListener(
      'controllerchange',
      () => {
        clearTimeout(timer);
        this.#env.reload();
      },
      { once: true },
    );
    waiting.postMessage({ type: SKIP_WAITING });
  }

  /** Reload offered when the page could not be reloaded for isolation by itself. */
  reloadForIsolation(): void {
    this.#env.session?.setItem(RELOADED_FOR_ISOLATION, '1');
    this.#env.reload();
  }

  dispose(): void {
    clearInterval(this.#timer);
  }

  #networkOnly(reason: 'unsupported' | 'insecure' | 'failed', detail?: string): void {
    this.offline = { kind: 'network-only', reason, ...(detail ? { detail } : {}) };
    if (!this.#env.isolated) this.isolation = 'off';
  }

  /** The worker is active but this load came before it (or past it): one reload, at most. */
  #isolate(reloadedBefore: boolean): void {
    const session = this.#env.session;
    if (reloadedBefore) session?.setItem(ISOLATION_REFUSED, '1');
    if (reloadedBefore || session?.getItem(ISOLATION_REFUSED) === '1') {
      this.isolation = 'refused';
    } else if (this.#env.session && this.#canReload()) {
      this.reloadForIsolation();
    } else {
      this.isolation = 'reload-needed';
    }
  }

  #watchUpdates(registration: ServiceWorkerRegistration): void {
    const check = () => {
      // A worker waiting while another controls the page is a new build, not the first install.
      if (registration.waiting && this.#env.container?.controller) this.update = true;
    };
    check();
    registration.addEventListener('updatefound', () => {
      const worker = registration.installing;
      if (this.#busy) this.#tellInstalling();
      worker?.addEventListener('statechange', () => {
        if (worker.state === 'installed') check();
      });
    });
    this.#timer = setInterval(() => registration.update().catch(() => {}), UPDATE_CHECK_MS);
  }
}

/**
 * The page's entry script: the module script index.html loads (its hashed name changes with any
 * file of the build it loads), else this module's own chunk.
 */
function entryScript(): string {
  return document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src ?? import.meta.url;
}

/**
 * Whether the registration's active worker is of the page's build, asked with CLAIM (the worker
 * then controls the page). A worker that does not answer predates the question: as before, yes.
 */
function ofThisBuild(registration: ServiceWorkerRegistration, script: string): Promise<boolean> {
  const worker = registration.active;
  if (!worker) return Promise.resolve(true);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const done = (ours: boolean) => {
      clearTimeout(timer);
      channel.port1.close();
      resolve(ours);
    };
    const timer = setTimeout(() => done(true), CLAIM_ANSWER_MS);
    channel.port1.onmessage = (event: MessageEvent<ClaimAnswer>) => done(event.data?.ours !== false);
    const message: ClaimMessage = { type: CLAIM, script };
    worker.postMessage(message, [channel.port2]);
  });
}

/** Resolves true once the registration's first worker is active, or with why it never will be. */
function activated(registration: ServiceWorkerRegistration): Promise<true | string> {
  return new Promise((resolve) => {
    const worker = registration.installing ?? registration.waiting;
    if (!worker) return resolve(registration.active ? true : 'no worker was installed');
    const onState = () => {
      if (worker.state === 'activated') resolve(true);
      else if (worker.state === 'redundant') resolve('its files could not all be saved');
      else return;
      worker.removeEventListener('statechange', onState);
    };
    worker.addEventListener('statechange', onState);
    onState();
  });
}
