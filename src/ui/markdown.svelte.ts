/**
 * Model text as safe HTML, with the Markdown renderer (./markdown-render.ts) loaded on demand.
 * Until it has loaded, text is shown as plain, escaped text; the blocks then render again by
 * themselves, because the renderer is reactive state. The page starts loading it once the first
 * screen is drawn (`loadMarkdown`, main.ts), well before a model's first words arrive, and parses
 * a sample text once (`warmUpMarkdown`); both are work ahead (src/page/ahead.ts).
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
 * Parses a sample text as soon as the renderer has loaded, so that a first run's first text finds
 * the parser compiled. At once, not in an idle moment: that moment may be in the middle of a
 * first run clicked as soon as the sandbox is ready.
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
