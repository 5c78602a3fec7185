/**
 * The relay on Vercel: a function that vercel.json's rewrite sends `/relay/<path>` to (as
 * `/api/relay?path=<path>`), a thin file over the shared handler (relay/handler.ts). It
 * forwards only to the hosts in S04_RELAY_ALLOWED_HOSTS, by default the provider presets'
 * (docs/relay.md).
 */
import { RELAY_PATH } from '../src/models/relay.ts';
import { ALLOWED_HOSTS_ENV, HOST_MAX_BODY_BYTES, serverlessRelay } from '../relay/handler.ts';

let relay: ReturnType<typeof serverlessRelay> | undefined;

/** The relay's own path: the request's, or the one the rewrite put in `path`. */
export function relayPath(url: URL): string {
  if (url.pathname === RELAY_PATH || url.pathname.startsWith(`${RELAY_PATH}/`)) return url.pathname;
  return `${RELAY_PATH}/${url.searchParams.get('path') ?? ''}`;
}

export default {
  /** Vercel's Web-standard signature: a Request in, a Response out. */
  fetch(request: Request): Promise<Response> {
    relay ??= serverlessRelay(process.env[ALLOWED_HOSTS_ENV], {
      maxBodyBytes: HOST_MAX_BODY_BYTES.vercel,
    });
    return relay(request, relayPath(new URL(request.url)));
  },
};
