/**
 * Whether the whole playground is in another page's frame. It keeps the learner's API key and
 * sends calls with it: a page that frames it could have it used against an endpoint of the
 * framer's choosing (two clicks inside the frame). The hosts the repository configures say so in
 * headers (`frame-ancestors 'none'`, docs/deploying.md); this check is for hosts that send none.
 * An embedded run (`embed=1`) holds no key and is made to be framed: it is never refused.
 */
/**
 * What a host sends with the whole playground's page so that no other page may frame it (the
 * second for browsers that predate CSP's `frame-ancestors`). The embed's page (`embed=1`) gets
 * neither: it is made to be framed, from any site.
 */
export const NO_FRAMING_HEADERS = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
} as const;

/** Whether a page address is the embed's (`embed=1`), whose page may be framed. */
export function isEmbedAddress(search: string): boolean {
  return new URLSearchParams(search).get('embed') === '1';
}

/** Whether the whole playground (not the embed) is in another page's frame now. */
export function framedApp(search: string): boolean {
  if (isEmbedAddress(search)) return false;
  try {
    return window.top !== window.self;
  } catch {
    return true; // a browser that will not even say: take it as framed
  }
}
