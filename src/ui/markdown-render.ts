/**
 * Model text as safe HTML: Markdown through marked, then DOMPurify. Results are cached because
 * the same blocks are rendered again and again as lists scroll and columns update.
 *
 * Loaded on demand by ./markdown.svelte.ts, so that the screen's first paint does not wait for
 * marked and DOMPurify (a third of the page's script) to be parsed and set up.
 */
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { escapeHtml } from './format';

const CACHE_SIZE = 400;
/** Beyond this, Markdown parsing costs more than it helps: the text is shown as is. */
const MARKDOWN_LIMIT = 100_000;

const cache = new Map<string, string>();

// A message is one listitem of its array's list (UI-CONTRACT.md): lists inside a message's text
// keep their look but not their role, so that they are not counted as messages.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'UL' || node.nodeName === 'OL' || node.nodeName === 'LI')
    node.setAttribute('role', 'none');
});

/** Sanitised HTML for a Markdown text. */
export function renderMarkdown(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) {
    // Re-insert: the Map's order is the eviction order.
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const html =
    text.length > MARKDOWN_LIMIT
      ? `<pre>${escapeHtml(text)}</pre>`
      : DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true }));
  cache.set(text, html);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return html;
}
