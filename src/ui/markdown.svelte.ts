/**
 * Model text as safe HTML, with the Markdown renderer (./markdown-render.ts) loaded on demand.
 * Until it has loaded, text is shown as plain, escaped text; the blocks then render again by
 * themselves, because the renderer is reactive state. The page starts loading it once the first
 * screen is drawn (`loadMarkdown`, main.ts), well before a model's first words arrive, and the
 * page's rehearsal of a first run warms it up (or `warmUpMarkdown`, when there is none).
 */
import { escapeHtml } from './format';

type Render = (text: string) => string;

let render = $state<Render | undefined>();
let loading: Promise<void> | undefined;
let warmUp: (() => void) | undefined;

export function loadMarkdown(): Promise<void> {
  loading ??= import('./markdown-render').then(
    (module) => {
      render = module.renderMarkdown;
      warmUp = module.warmUp;
    },
    // Not loaded (this build is gone from the host, or offline): text stays plain, and the page
    // says why and offers the reload (chunk-failures.svelte.ts).
    () => {},
  );
  return loading;
}

/**
 * Parses a sample text as soon as the renderer has loaded, for a page whose first run is not
 * rehearsed (the rehearsal renders a run's own texts: ./rehearsal.ts). At once: in an idle
 * moment instead, it often came in the middle of a first run clicked as soon as the sandbox was
 * ready, a 40-60 ms task between two of the run's frames.
 */
export function warmUpMarkdown(): void {
  void loadMarkdown().then(() => setTimeout(() => warmUp?.(), 0));
}

/** Sanitised HTML for a Markdown text (plain text until the renderer has loaded). */
export function renderMarkdown(text: string): string {
  if (render) return render(text);
  void loadMarkdown();
  return `<p class="plain">${escapeHtml(text)}</p>`;
}
