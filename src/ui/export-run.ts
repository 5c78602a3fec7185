/** Export run: the shown record downloaded as a JSON file (the step bar, and Share for a run too big for a link). */
import type { Viewer } from './viewer.svelte';

/**
 * Downloads the shown run: its own record (`s04-run-<when>.json`, the default) or OpenTelemetry
 * traces for other tools (`.otlp.json`). The API key is never part of either.
 */
export function downloadRun(viewer: Viewer, kind: 'record' | 'otlp' = 'record'): void {
  const text = kind === 'otlp' ? viewer.exportOtlp() : viewer.exportRun();
  const blob = new Blob([text], { type: 'application/json' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  const when = new Date(viewer.record?.startedAt ?? Date.now()).toISOString().replace(/[:.]/g, '-');
  link.download = kind === 'otlp' ? `s04-run-${when}.otlp.json` : `s04-run-${when}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
