/**
 * The relay on Cloudflare Pages: a Pages Function for `/relay` and everything below it, a thin
 * file over the shared handler (relay/handler.ts). It forwards only to the hosts in the
 * project's S04_RELAY_ALLOWED_HOSTS variable, by default the provider presets' (docs/relay.md).
 */
import { ALLOWED_HOSTS_ENV, HOST_MAX_BODY_BYTES, serverlessRelay } from '../../relay/handler.ts';

/** What a Pages Function is given (only what the relay reads). */
interface PagesContext {
  request: Request;
  env: Record<string, unknown>;
}

let relay: ReturnType<typeof serverlessRelay> | undefined;

/** Answers every method: the handler itself says 404, 405 or 403. */
export function onRequest({ request, env }: PagesContext): Promise<Response> {
  const hosts = env[ALLOWED_HOSTS_ENV];
  relay ??= serverlessRelay(typeof hosts === 'string' ? hosts : undefined, {
    maxBodyBytes: HOST_MAX_BODY_BYTES.cloudflare,
  });
  return relay(request);
}
