/**
 * The relay: this page's own server forwarding Messages API calls to an endpoint that does not
 * allow browsers (no CORS). Shared by the server's plugin (relay/node.ts) and the model client.
 *
 *   worker ──POST /relay/v1/messages──► page's server ──POST <target>/v1/messages──► endpoint
 *           x-s04-relay-target: <target>     (same origin:            (the key goes to the target
 *           authorization: Bearer <key>       no CORS needed)           only, as in a direct call)
 *
 * The target travels in a header, not in the path, so the relay's URL is a plain base URL the SDK
 * appends `/v1/messages` to; and a header that is not CORS-safelisted cannot be set by a form or a
 * cross-origin page without a preflight the relay never grants.
 */

/** Where the relay is mounted on the page's origin; the SDK's base URL when relaying. */
export const RELAY_PATH = '/relay';
/** Answers `{"relay":"s04"}` where a relay runs; a static host has none. */
export const RELAY_HEALTH_PATH = `${RELAY_PATH}/health`;
/** The endpoint's base URL, e.g. `https://dashscope.aliyuncs.com/apps/anthropic`. */
export const RELAY_TARGET_HEADER = 'x-s04-relay-target';
/** The paths the relay forwards, below the target's base URL. */
export const RELAYED_PATHS = ['/v1/messages', '/v1/messages/count_tokens'] as const;
/** The largest request body the relay takes (the API's own limit is 32 MB; ours needs far less). */
export const RELAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * Why the relay must not forward to this base URL, as one sentence; null when it may try.
 * Only http(s) base URLs: no credentials, no query or fragment (a `?` or `#`, even with nothing
 * after it, would swallow the path the SDK appends). Which addresses it may reach is the server's
 * decision, made on the resolved address (relay/node.ts, docs/relay.md): private and local ones
 * only where the person running it allows them.
 */
export function relayTargetProblem(target: string): string | null {
  if (!URL.canParse(target)) return 'The relay target is not a valid URL.';
  const url = new URL(target);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `The relay forwards only to https or http URLs, not ${url.protocol} URLs.`;
  }
  if (url.username || url.password) return 'The relay target must not hold a user name or password.';
  // The parsed URL drops an empty query or fragment, so the text itself is checked.
  if (url.search || url.hash || /[?#]/.test(target)) {
    return 'The relay target must be a base URL, without a query or fragment.';
  }
  return null;
}

/** True when `/relay/health` answered as our relay (a static host may answer index.html instead). */
export async function probeRelay(origin: string, signal?: AbortSignal): Promise<boolean> {
  try {
    const response = await fetch(`${origin}${RELAY_HEALTH_PATH}`, { signal, cache: 'no-store' });
    if (!response.ok) return false;
    const body = (await response.json()) as { relay?: unknown };
    return body.relay === 's04';
  } catch {
    return false;
  }
}
