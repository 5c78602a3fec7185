/** What `quiet` watches: whether a run is under way now, and how many have started so far. */
export interface Runs {
  busy(): boolean;
  started(): number;
}

/**
 * Resolves once no run is under way: at once when none has run since the call; after a run, once
 * `afterRunMs` have passed with none (a learner reads a run, and may click again). It looks every
 * `pollMs`; a run that began and ended between two looks counts as just ended. `gone()` ends the
 * wait at once (the page is going away).
 */
export function quiet(
  runs: Runs,
  { afterRunMs, pollMs }: { afterRunMs: number; pollMs: number },
  gone: () => boolean = () => false,
): Promise<void> {
  return new Promise((resolve) => {
    let seen = runs.started();
    let ranAt: number | null = null;
    const look = () => {
      if (runs.busy() || runs.started() !== seen) {
        ranAt = performance.now();
        seen = runs.started();
      }
      const calm = !runs.busy() && (ranAt === null || performance.now() - ranAt >= afterRunMs);
      if (gone() || calm) resolve();
      else setTimeout(look, pollMs);
    };
    look();
  });
}
