/** Export run: the shown record downloaded as a JSON file (the step bar, and Share for a run too big for a link). */
import type { Viewer } from './viewer.svelte';

/**
 * Downloads the shown run: its own record (`s04-run-<when>.json`, the default, at once) or
 * OpenTelemetry traces for other tools (`.otlp.json`, once their module has loaded). The API key
 * is never part of either.
 */
export function downloadRun(viewer: Viewer, kind: 'record' | 'otlp' = 'record'): Promise<void> {
  // An opened record's start is clamped (src/run/clamp.ts); a date out of range is never asked for.
  const started = viewer.record?.startedAt ?? Date.now();
  const date = new Date(Math.abs(started) <= 8.64e15 ? started : Date.now());
  const when = date.toISOString().replace(/[:.]/g, '-');
  if (kind === 'record') {
    save(viewer.exportRun(), `s04-run-${when}.json`);
    return Promise.resolve();
  }
  return viewer.exportOtlp().then((text) => save(text, `s04-run-${when}.otlp.json`));
}

function save(text: string, name: string): void {
  const blob = new Blob([text], { type: 'application/json' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
