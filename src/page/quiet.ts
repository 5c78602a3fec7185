/**
 * When the page is quiet enough for work ahead (WebContainer's attempt, the service worker's
 * install, the other languages): no run under way, nothing else ahead loading, and, where asked,
 * a while after the last run (a learner reads it, and may click again).
 */
import { later } from '../run/later';

/** What the page is doing that work ahead should not run beside. */
export interface PageWork {
  /** A run is under way: waited for, however long. */
  running: () => boolean;
  /**
   * When the last run ended (the page's clock), if one did: a run that ended between two looks,
   * or just before the first, is waited after as one seen.
   */
  endedAt?: () => number | null;
  /** Work ahead that wants the machine (python3's load): waited for `aheadAtMostMs` at most. */
  ahead?: () => boolean;
}

export interface QuietOptions {
  /** How often it looks. */
  pollMs: number;
  /** After a run, how long the page must then have had none. */
  afterRunMs?: number;
  /** How long work ahead is waited for at most, from the first look. */
  aheadAtMostMs?: number;
}

/** An idle moment for work started once the page is quiet comes within this at the latest. */
const IDLE_WITHIN_MS = 2000;

/**
 * Calls `done` once the page is quiet (see PageWork, QuietOptions). It looks now, then every
 * `pollMs`; `gone()` ends the wait at once (the page is going away).
 */
export function onceQuiet(
  work: PageWork,
  { pollMs, afterRunMs = 0, aheadAtMostMs = 0 }: QuietOptions,
  done: () => void,
  gone: () => boolean = () => false,
): void {
  const since = performance.now();
  let ranAt: number | null = null;
  const look = () => {
    if (work.running()) ranAt = performance.now();
    const ahead = (work.ahead?.() ?? false) && performance.now() - since < aheadAtMostMs;
    const last = Math.max(ranAt ?? -Infinity, work.endedAt?.() ?? -Infinity);
    const rested = performance.now() - last >= afterRunMs;
    if (gone() || (!work.running() && !ahead && rested)) done();
    else setTimeout(look, pollMs);
  };
  look();
}

/** Resolves once the page is quiet (see onceQuiet). */
export function quiet(work: PageWork, options: QuietOptions, gone?: () => boolean): Promise<void> {
  return new Promise((resolve) => onceQuiet(work, options, resolve, gone));
}

/**
 * Calls `start` once the page is quiet: `afterMs` from now at the earliest, then as soon as no
 * run is under way and nothing ahead is loading (checked each `pollMs`), in an idle moment. The
 * service worker's install downloads and checks the whole build: beside a learner's first run, or
 * Pyodide's load, on a machine of few cores, it slows both.
 */
export function startWhenQuiet(
  start: () => void,
  work: PageWork,
  { afterMs, pollMs = 1000, ...options }: { afterMs: number; pollMs?: number } & Omit<QuietOptions, 'pollMs'>,
): void {
  setTimeout(() => onceQuiet(work, { pollMs, ...options }, () => later(start, IDLE_WITHIN_MS)), afterMs);
}
