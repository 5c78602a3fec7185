/**
 * Small pure helpers the components share: sizes for people, agent colours, output folding and
 * the file tree.
 */
import type { AgentId } from '../core/messages';
import type { FileEntry } from '../sandbox/sandbox';
import type { FileMark } from '../run/view';

/** 950 -> "950", 12_345 -> "12.3k", 2_500_000 -> "2.5M". */
/** Text made safe to place in HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 2 : 1).replace(/\.?0+$/, '')}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** The number N of `subagent-N`, or 0 for anything else. */
export function subagentNumber(id: AgentId): number {
  const match = /^subagent-(\d+)$/.exec(id);
  return match ? Number(match[1]) : 0;
}

const SUBAGENT_SHADES = 4;

/** The CSS colour of an agent: the parent is blue, subagents take turns through four hues. */
export function agentColor(id: AgentId): string {
  if (id === 'parent') return 'var(--agent-parent)';
  const n = subagentNumber(id);
  if (n === 0) return 'var(--agent-other)';
  return `var(--agent-sub-${((n - 1) % SUBAGENT_SHADES) + 1})`;
}

/** The shapes of the subagents' markers, in turn with their colours: told apart without colour. */
export const MARKER_SHAPES = ['circle', 'square', 'diamond', 'hexagon'] as const;

/** An agent's marker: its number (none for the parent) and a shape of its own among its neighbours. */
export function agentMarker(id: AgentId): {
  label: string;
  shape: (typeof MARKER_SHAPES)[number] | 'parent';
} {
  const n = subagentNumber(id);
  if (n === 0) return { label: '', shape: 'parent' };
  return { label: String(n), shape: MARKER_SHAPES[(n - 1) % MARKER_SHAPES.length] };
}

/**
 * A CSS colour such as `var(--agent-parent)` as a value a canvas takes. Kept per colour scheme:
 * reading a computed style forces a style pass, which costs most after a large update.
 */
const resolved = new Map<string, string>();
/** The colour scheme's query, made once: its `matches` follows the scheme (a canvas asks per bar). */
let darkScheme: MediaQueryList | undefined;

export function resolvedColor(css: string): string {
  const name = /var\((--[\w-]+)\)/.exec(css)?.[1];
  if (!name) return css;
  darkScheme ??= matchMedia('(prefers-color-scheme: dark)');
  const id = `${darkScheme.matches ? 'dark' : 'light'} ${name}`;
  let value = resolved.get(id);
  if (value === undefined) {
    value = getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
    resolved.set(id, value);
  }
  return value;
}

/** Resolves every agent colour now (while the page is small and a style pass is cheap). */
export function primeColors(): void {
  resolvedColor(agentColor('parent'));
  resolvedColor(agentColor('other'));
  for (let n = 1; n <= SUBAGENT_SHADES; n++) resolvedColor(agentColor(`subagent-${n}`));
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A count in the language's digits and separators (`1,234`), with its formatter kept per language. */
export function formatNumber(n: number, tag: string): string {
  // English, Chinese and Japanese write a whole number under 1,000 as its plain digits. The first
  // Intl.NumberFormat of a page is costly (ICU's data), and the first screen shows only zeros.
  if (Number.isInteger(n) && Math.abs(n) < 1000) return String(n);
  let format = numberFormats.get(tag);
  if (!format) numberFormats.set(tag, (format = new Intl.NumberFormat(tag)));
  return format.format(n);
}

/**
 * The colour of an agent's name and labels, as text: the fills are too light to read on white
 * (WCAG asks 4.5:1), so each subagent's text takes a darker shade of its hue.
 */
export function agentInk(id: AgentId): string {
  if (id === 'parent') return 'var(--agent-parent)';
  const n = subagentNumber(id);
  return n === 0 ? 'var(--agent-other)' : `var(--agent-sub-${((n - 1) % SUBAGENT_SHADES) + 1}-ink)`;
}

export interface Folded {
  /** What is shown while folded. */
  head: string;
  lineCount: number;
  folded: boolean;
}

/** The first `maxLines` lines (at most `maxChars` characters) of a long output. */
export function fold(text: string, maxLines = 12, maxChars = 800): Folded {
  let lineCount = 1;
  let cut = -1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    lineCount++;
    if (lineCount === maxLines + 1) cut = i;
  }
  if (text.endsWith('\n')) lineCount--;
  let head = cut === -1 ? text : text.slice(0, cut);
  if (head.length > maxChars) head = head.slice(0, maxChars);
  return { head, lineCount, folded: head.length < text.length };
}

export interface TreeRow {
  /** Absolute path. */
  path: string;
  name: string;
  depth: number;
  type: 'file' | 'directory';
  size: number;
  mark?: FileMark;
  /** A file an agent deleted: shown greyed out, not openable. */
  deleted: boolean;
}

/** The sandbox's entries as indented rows, folders before the files they hold. */
export function fileTree(
  entries: FileEntry[],
  workdir: string,
  marks: Readonly<Record<string, FileMark>>,
): TreeRow[] {
  const prefix = workdir.endsWith('/') ? workdir : `${workdir}/`;
  const all = new Map<string, { type: 'file' | 'directory'; size: number; deleted: boolean }>();
  for (const entry of entries) {
    if (entry.path.startsWith(prefix)) all.set(entry.path, { ...entry, deleted: false });
  }
  for (const [path, mark] of Object.entries(marks)) {
    if (mark.kind === 'delete' && !all.has(path) && path.startsWith(prefix)) {
      all.set(path, { type: 'file', size: 0, deleted: true });
    }
  }
  // Folders a listing did not name (e.g. parents of a deleted file) are still drawn.
  for (const path of [...all.keys()]) {
    const parts = path.slice(prefix.length).split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = prefix + parts.slice(0, i).join('/');
      if (!all.has(dir)) all.set(dir, { type: 'directory', size: 0, deleted: false });
    }
  }
  const key = (path: string) => {
    const parts = path.slice(prefix.length).split('/');
    const info = all.get(path)!;
    // Sort by each segment, a folder's segment before its sibling files'.
    return parts.map((p, i) => (i < parts.length - 1 || info.type === 'directory' ? `0${p}` : `1${p}`));
  };
  const sorted = [...all.keys()].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
      if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    }
    return ka.length - kb.length;
  });
  return sorted.map((path) => {
    const info = all.get(path)!;
    const relative = path.slice(prefix.length);
    return {
      path,
      name: relative.slice(relative.lastIndexOf('/') + 1),
      depth: relative.split('/').length - 1,
      type: info.type,
      size: info.size,
      mark: marks[path],
      deleted: info.deleted,
    };
  });
}
