/** Runs `task` in an idle moment at most `ms` from now (requestIdleCallback where there is one). */
export function later(task: () => void, ms: number): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: ms });
  else setTimeout(task, ms);
}
