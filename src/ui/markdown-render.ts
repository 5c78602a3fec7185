/**
 * Model text as safe HTML: Markdown through marked, then DOMPurify. Results are cached because
 * the same blocks are rendered again and again as lists scroll and columns update.
 *
 * Model text is untrusted (a tool result can carry anything a file or a web page said), so it
 * renders as text formatting only: an allow-list of tags and attributes, with no styles, ids,
 * classes, roles or ARIA (which could hide, cover or impersonate the app's own controls and
 * status), no form controls or embedded documents, and nothing that loads: an image becomes a
 * link to it.
 *
 * Loaded on demand by ./markdown.svelte.ts, so that the screen's first paint does not wait for
 * marked and DOMPurify (a third of the page's script) to be parsed and set up.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { escapeHtml } from './format';

const CACHE_SIZE = 400;
/** Beyond this, Markdown parsing costs more than it helps: the text is shown as is. */
const MARKDOWN_LIMIT = 100_000;

/** What Markdown itself produces, and nothing else. `img` is let in only to become a link below. */
const ALLOWED_TAGS = [
  'p', 'br', 'strong', 'b', 'em', 'i', 'del', 's', 'code', 'pre', 'blockquote',
  'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr', 'a', 'img',
]; // prettier-ignore
/** `align` is how marked aligns table cells; `start` numbers an ordered list; `src`/`alt` only on img. */
const ALLOWED_ATTR = ['href', 'title', 'align', 'start', 'src', 'alt'];
const LINK = /^(?:https?:|mailto:)/i;
const REMOTE = /^https?:/i;

const markdown = new Marked({
  async: false,
  gfm: true,
  // A task list item's checkbox would be a form control: show its state as a character.
  renderer: { checkbox: ({ checked }) => (checked ? '☑ ' : '☐ ') },
});

const purify = DOMPurify();
purify.addHook('afterSanitizeAttributes', (node) => {
  // A message is one listitem of its array's list (docs/automation-contract.md): lists inside a message's
  // text keep their look but not their role, so that they are not counted as messages.
  if (node.nodeName === 'UL' || node.nodeName === 'OL' || node.nodeName === 'LI')
    node.setAttribute('role', 'none');
  if (node.nodeName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
  if (node.nodeName === 'IMG') node.replaceWith(imageAsLink(node as Element));
});

/** An image is shown as a link to it (a remote one would be a request the model chose, a tracker). */
function imageAsLink(image: Element): Node {
  const src = image.getAttribute('src') ?? '';
  const alt = image.getAttribute('alt') ?? '';
  const document = image.ownerDocument;
  if (!REMOTE.test(src)) return document.createTextNode(alt);
  const link = document.createElement('a');
  link.setAttribute('href', src);
  link.setAttribute('target', '_blank');
  link.setAttribute('rel', 'noopener noreferrer');
  link.textContent = alt || src;
  return link;
}

const CONFIG = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOWED_URI_REGEXP: LINK,
  ALLOW_ARIA_ATTR: false,
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

const cache = new Map<string, string>();

/** A text that takes marked through its common block and inline rules, and DOMPurify through a sanitise. */
const WARM_UP = [
  '# Title',
  'Some *em*, **strong**, `code`, ~~gone~~ and a [link](https://example.com/).',
  '- one\n- two\n  1. nested',
  '> quoted',
  '```ts\nconst x = 1;\n```',
  '| a | b |\n| :- | -: |\n| 1 | 2 |',
  'Setext\n---',
  '<b>html</b> and &amp; entities',
].join('\n\n');

/**
 * Parses and sanitises a sample text, cached nowhere. The first parse of a page compiles marked's
 * regular expressions and sets DOMPurify up, a noticeable while on the page's thread on a slow
 * machine, which the first model message would otherwise pay for. Called as soon as this module has loaded.
 */
export function warmUp(): void {
  purify.sanitize(markdown.parse(WARM_UP) as string, CONFIG);
}

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
      : purify.sanitize(markdown.parse(text) as string, CONFIG);
  cache.set(text, html);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return html;
}
