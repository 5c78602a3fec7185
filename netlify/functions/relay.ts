/**
 * The relay on Netlify: a function on `/relay` and everything below it, a thin file over the
 * shared handler (relay/handler.ts). It forwards only to the hosts in the site's
 * S04_RELAY_ALLOWED_HOSTS variable, by default the provider presets' (docs/relay.md).
 */
import { ALLOWED_HOSTS_ENV, HOST_MAX_BODY_BYTES, serverlessRelay } from '../../relay/handler.ts';

let relay: ReturnType<typeof serverlessRelay> | undefined;

/** Netlify's Web-standard signature: a Request in, a Response out. */
export default function handler(request: Request): Promise<Response> {
  relay ??= serverlessRelay(process.env[ALLOWED_HOSTS_ENV], {
    maxBodyBytes: HOST_MAX_BODY_BYTES.netlify,
  });
  return relay(request);
}

/** The paths Netlify routes here (its functions otherwise live under /.netlify/functions/). */
export const config = { path: ['/relay', '/relay/*'] };
