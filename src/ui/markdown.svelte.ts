/**
 * Model text as safe HTML, with the Markdown renderer (./markdown-render.ts) loaded on demand.
 * Until it has loaded, text is shown as plain, escaped text; the blocks then render again by
 * themselves, because the renderer is reactive state. The page starts loading it once the first
 * screen is drawn (`loadMarkdown`, main.ts), well before a model's first words arrive, and warms
 * it up right after that.
 */
import { escapeHtml } from './format';

type Render = (text: string) => string;

let render = $state<Render | undefined>();
let loading: Promise<void> | undefined;

export function loadMarkdown(): Promise<void> {
  loading ??= import('./markdown-render').then(
    (module) => {
      render = module.renderMarkdown;
      // At once: in an idle moment instead, it often came in the middle of a first run clicked
      // as soon as the sandbox was ready, a 40-60 ms task between two of the run's frames.
      setTimeout(module.warmUp, 0);
    },
    // Not loaded (this build is gone from the host, or offline): text stays plain, and the page
    // says why and offers the reload (chunk-failures.svelte.ts).
    () => {},
  );
  return loading;
}

/** Sanitised HTML for a Markdown text (plain text until the renderer has loaded). */
export function renderMarkdown(text: string): string {
  if (render) return render(text);
  void loadMarkdown();
  return `<p class="plain">${escapeHtml(text)}</p>`;
}
