/**
 * Booting WebContainer: once per page, on the main thread, and never forever.
 *
 *   crossOriginIsolated?  ──no──►  reject: "WebContainer cannot start here: …"
 *        │ yes
 *   import('@webcontainer/api')    (on demand: the client stays out of the page's first script)
 *        │
 *   WebContainer.boot({coep, workdirName})  ─┐  raced against a timer; the first to settle wins
 *   timeout (15 s by default)  ──────────────┘  reject: "WebContainer did not start within 15 s: …"
 *
 * The npm package is only a client: boot() loads the runtime in a hidden iframe from
 * stackblitz.com. Offline that iframe never answers and boot() never settles (no rejection, no
 * event), so the timer is what turns "nothing happens" into a sentence a person can act on. The
 * boot itself is started once per page and kept: WebContainer allows one instance per page, and a
 * second call waits on the first (a slow network may still finish it after a timeout).
 *
 * This module is small on purpose: the playground loads it to find out whether WebContainer can
 * start at all, and loads the shell (index.ts, which bundles just-bash) only once it has.
 */
import type { WebContainer } from '@webcontainer/api';
import { COEP } from '../isolation';
import { messageOf } from '../../core/errors';

/** How long the playground waits for WebContainer before it says it is unavailable. */
export const DEFAULT_BOOT_TIMEOUT_MS = 15_000;

/** What the backend uses of a booted WebContainer; the unit tests give a fake of this shape. */
export type WebContainerLike = Pick<WebContainer, 'fs' | 'spawn' | 'mount' | 'workdir'>;

export interface BootOptions {
  /** Must match the page's Cross-Origin-Embedder-Policy (src/sandbox/isolation.ts: require-corp). */
  coep?: 'require-corp' | 'credentialless';
  /** Give up after this long. */
  timeoutMs?: number;
  /** The project folder's name: WebContainer puts it at `/home/<workdirName>`. */
  workdirName?: string;
  /** Tests: the environment to check instead of this one's (see `currentEnvironment`). */
  environment?: BootEnvironment;
  /** Tests: boots a fake instead of the real client (the environment is then not checked). */
  boot?: (options: {
    coep: 'require-corp' | 'credentialless';
    workdirName: string;
  }) => Promise<WebContainerLike>;
}

/** WebContainer could not start; `reason` reads well after "WebContainer unavailable: ". */
export class WebContainerUnavailableError extends Error {
  override name = 'WebContainerUnavailableError';

  constructor(readonly reason: string) {
    super(`WebContainer ${reason}`);
  }
}

/** "15 s", "2 s", "0.5 s". */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))} s`;
}

export interface BootEnvironment {
  /** A browser page's main thread (WebContainer touches `window` and `document`). */
  page: boolean;
  /** `crossOriginIsolated`: the page was served with COOP and COEP headers. */
  isolated: boolean;
}

/** Where this code runs, as far as booting WebContainer is concerned. */
export function currentEnvironment(): BootEnvironment {
  return {
    page: typeof window !== 'undefined' && typeof document !== 'undefined',
    isolated: (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true,
  };
}

/** Why WebContainer cannot even be tried in this environment, or null when it can. */
export function cannotBootReason(environment: BootEnvironment = currentEnvironment()): string | null {
  if (!environment.page) {
    return 'cannot start here: it runs only on the main thread of a browser page, and its runtime loads from StackBlitz, which needs internet';
  }
  if (!environment.isolated) {
    return 'cannot start here: the page is not cross-origin isolated (it needs the Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy headers, from its host or its service worker)';
  }
  return null;
}

let realBoot: Promise<WebContainerLike> | undefined;

/** The page's one real boot, started on the first call and shared by every later one. */
function bootOnce(options: { coep: 'require-corp' | 'credentialless'; workdirName: string }) {
  realBoot ??= import('@webcontainer/api').then(({ WebContainer }) => WebContainer.boot(options));
  return realBoot;
}

/**
 * A booted WebContainer, or a rejection with a WebContainerUnavailableError saying why not:
 * not isolated, timed out (the usual offline case), or the boot failed.
 */
export async function bootWebContainer(options: BootOptions = {}): Promise<WebContainerLike> {
  const { coep = COEP, timeoutMs = DEFAULT_BOOT_TIMEOUT_MS, workdirName = 'project' } = options;
  // A test's fake boot may run anywhere; the real one needs an isolated browser page.
  if (!options.boot || options.environment) {
    const reason = cannotBootReason(options.environment);
    if (reason) throw new WebContainerUnavailableError(reason);
  }
  const booting = (options.boot ?? bootOnce)({ coep, workdirName });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new WebContainerUnavailableError(
            `did not start within ${seconds(timeoutMs)}: its runtime loads from StackBlitz, which needs internet`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([
      booting.catch((error: unknown) => {
        throw new WebContainerUnavailableError(`did not start: ${messageOf(error)}`);
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
