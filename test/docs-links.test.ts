/**
 * Every document a reader is sent to exists: the relative links of README.md and docs/*.md (with
 * their #anchors), and every repository path a code comment cites (`src/...`, `docs/...`, ...).
 * A file moved or renamed without its citations fails here, not in a newcomer's hands.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Files under `dir` (relative to the root) whose names end with one of `extensions`. */
function filesUnder(dir: string, extensions: string[]): string[] {
  const base = join(ROOT, dir);
  if (!existsSync(base)) return [];
  return readdirSync(base, { recursive: true, encoding: 'utf8' })
    .filter((name) => extensions.some((e) => name.endsWith(e)))
    .map((name) => join(dir, name));
}

/** Markdown without its fenced code blocks, inline code and HTML comments (no links there). */
function prose(markdown: string): string {
  return markdown
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(markdownPath: string): Set<string> {
  const headings = readFileSync(markdownPath, 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .match(/^#{1,6} .+$/gm);
  return new Set((headings ?? []).map((h) => slug(h.replace(/^#+ /, ''))));
}

/** Problems with one Markdown file's relative links, as `file: target (why)`. */
function brokenLinks(file: string): string[] {
  const problems: string[] = [];
  const text = prose(readFileSync(join(ROOT, file), 'utf8'));
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
    const [path, anchor] = target.split('#');
    const resolved = path ? resolve(ROOT, dirname(file), decodeURI(path)) : join(ROOT, file);
    if (!existsSync(resolved)) {
      problems.push(`${file}: ${target} (no such file)`);
      continue;
    }
    if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) {
      problems.push(`${file}: ${target} (no heading #${anchor})`);
    }
  }
  return problems;
}

const K = ts.SyntaxKind;
/** Tokens after which a slash divides; after any other, it starts a regular expression. */
const ENDS_VALUE = new Set([
  K.Identifier,
  K.NumericLiteral,
  K.BigIntLiteral,
  K.StringLiteral,
  K.NoSubstitutionTemplateLiteral,
  K.TemplateTail,
  K.RegularExpressionLiteral,
  K.CloseParenToken,
  K.CloseBracketToken,
  K.CloseBraceToken,
  K.ThisKeyword,
  K.SuperKeyword,
  K.TrueKeyword,
  K.FalseKeyword,
  K.NullKeyword,
]);

/**
 * The comments of TypeScript or JavaScript source, found by TypeScript's scanner (so that `//` in a
 * string, a template or a regular expression is not taken for one).
 */
function scriptComments(source: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, source);
  const found: string[] = [];
  const templates: number[] = []; // open braces inside each `${` being scanned
  let previous: ts.SyntaxKind = K.Unknown;
  for (let kind = scanner.scan(); kind !== K.EndOfFileToken; kind = scanner.scan()) {
    if (kind === K.SingleLineCommentTrivia || kind === K.MultiLineCommentTrivia) {
      found.push(scanner.getTokenText());
      continue;
    }
    if (kind === K.WhitespaceTrivia || kind === K.NewLineTrivia) continue;
    if ((kind === K.SlashToken || kind === K.SlashEqualsToken) && !ENDS_VALUE.has(previous)) {
      kind = scanner.reScanSlashToken();
    } else if (kind === K.TemplateHead) templates.push(0);
    else if (kind === K.OpenBraceToken && templates.length) templates[templates.length - 1]++;
    else if (kind === K.CloseBraceToken && templates.length) {
      if (templates[templates.length - 1] > 0) templates[templates.length - 1]--;
      else if (scanner.reScanTemplateToken(false) === K.TemplateTail) templates.pop();
    }
    previous = kind;
  }
  return found;
}

/** The comments of a source file: a Svelte file's markup comments and its scripts' comments. */
function comments(source: string, svelte = false): string[] {
  if (!svelte) return scriptComments(source);
  const scripts = [...source.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  const markup = source.replace(/<script[^>]*>[\s\S]*?<\/script>/g, '');
  return [...scripts.flatMap(scriptComments), ...(markup.match(/<!--[\s\S]*?-->/g) ?? [])];
}

const TOP = 'src|docs|scripts|e2e|e2e-webcontainer|build|test|public|samples|patches|\\.github|\\.ci';
/** A repository path: a top-level folder, then a file with an extension or a folder with a slash. */
const CITED_PATH = new RegExp(
  `(?<![\\w./@~-])(?:${TOP})/(?:[\\w.+-]+/)*(?:[\\w.+-]*\\.[a-z0-9]{1,5}\\b|(?=[\\s),:;.'"\`]))`,
  'g',
);

/**
 * Whether a cited path exists: in the repository, or in a sample project (comments about the
 * sandbox cite the sample's files, such as src/main.py, relative to its working directory).
 */
function cites(path: string): boolean {
  return [ROOT, join(ROOT, 'samples/python'), join(ROOT, 'samples/typescript')].some((base) =>
    existsSync(join(base, path)),
  );
}

/** Paths cited in the comments of one source file that do not exist. */
function missingCitations(file: string): string[] {
  const missing: string[] = [];
  for (const comment of comments(readFileSync(join(ROOT, file), 'utf8'), file.endsWith('.svelte'))) {
    for (const [path] of comment.matchAll(CITED_PATH)) {
      if (!cites(path)) missing.push(`${file}: ${path}`);
    }
  }
  return missing;
}

const MARKDOWN = ['README.md', ...filesUnder('docs', ['.md'])];
const SOURCES = [
  ...[
    'src',
    'e2e',
    'e2e-webcontainer',
    'scripts',
    'vite-plugins',
    'relay',
    'functions',
    'api',
    'netlify',
    'test',
  ].flatMap((dir) => filesUnder(dir, ['.ts', '.js', '.mjs', '.mts', '.svelte'])),
  ...['vite.config.ts', 'playwright.config.ts', 'playwright.webcontainer.config.ts', 'eslint.config.js'],
].filter((file) => existsSync(join(ROOT, file)));

describe('the documents a reader is sent to', () => {
  it('finds the README and the docs folder', () => {
    expect(MARKDOWN).toContain('README.md');
    expect(MARKDOWN.filter((f) => f.startsWith('docs/')).length).toBeGreaterThan(3);
  });

  it('every relative link of README.md and docs/*.md resolves, anchors included', () => {
    expect(MARKDOWN.flatMap(brokenLinks)).toEqual([]);
  });

  // Scanning about 230 files takes a second on a quiet machine; allow for a busy one.
  it('every repository path the docs name in code spans exists', () => {
    const missing = MARKDOWN.flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/`([^`\n]+)`/g)].flatMap(([, span]) =>
        [...span.matchAll(CITED_PATH)]
          .map(([path]) => path)
          .filter((path) => !cites(path))
          .map((path) => `${file}: ${path}`),
      ),
    );
    expect(missing).toEqual([]);
  });

  it('every repository path cited in a code comment exists', { timeout: 60_000 }, () => {
    expect(SOURCES.length).toBeGreaterThan(100);
    expect(SOURCES.flatMap(missingCitations)).toEqual([]);
  });

  it('the checks catch a broken link, a missing anchor and a stale citation', () => {
    expect(slug('How a saving is counted')).toBe('how-a-saving-is-counted');
    expect(slug('`sandbox=auto` (the default)')).toBe('sandboxauto-the-default');
    const link = /\]\(([^)\s]+)\)/.exec('see [the spec](SPEC.md)')![1];
    expect(existsSync(resolve(ROOT, link))).toBe(false);
    expect(anchors(join(ROOT, 'docs/protocol.md')).has('teaching-variants')).toBe(true);
    expect(anchors(join(ROOT, 'docs/protocol.md')).has('no-such-heading')).toBe(false);
    // Built from parts, so that this file's own comments cite nothing that is missing.
    const comment = ['/', '** See e2e/offline.spec.ts, src/core/', 'gone.ts and docs/. */ const a = 1;'].join(
      '',
    );
    const cited = comments(comment).flatMap((c) => [...c.matchAll(CITED_PATH)].map((m) => m[0]));
    expect(cited).toEqual(['e2e/offline.spec.ts', 'src/core/gone.ts', 'docs/']);
    expect(cited.filter((p) => !cites(p))).toEqual(['src/core/gone.ts']);
    expect(relative(ROOT, join(ROOT, 'docs'))).toBe('docs');
  });
});
