/**
 * Where a link carries a packed run: `#run=<base64url>` (./link.ts packs and unpacks it). Apart, so
 * that a page opened without a link reads its fragment without loading the packing code.
 */
export const FRAGMENT_KEY = 'run';

/** The packed run in a URL's fragment (`#run=...`), or undefined. */
export function packedIn(hash: string): string | undefined {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  return fragment.get(FRAGMENT_KEY) ?? undefined;
}
