/** Export run: the shown record downloaded as a JSON file (the step bar, and Share for a run too big for a link). */
import type { Viewer } from './viewer.svelte';

/** Downloads the shown record as `s04-run-<when>.json`; the API key is never part of it. */
export function downloadRun(viewer: Viewer): void {
  const blob = new Blob([viewer.exportRun()], { type: 'application/json' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  const when = new Date(viewer.record?.startedAt ?? Date.now()).toISOString().replace(/[:.]/g, '-');
  link.download = `s04-run-${when}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
