import type { Plugin, ResolvedConfig } from 'vite';
import { EARLY_BOOT_MESSAGE } from '../src/workers/sandbox/protocol.ts';

/**
 * Starts the offline sandbox's worker from the first line of the built page, before the app's
 * bundle has even downloaded, and posts it the page's query string (EARLY_BOOT_MESSAGE), so the
 * worker mounts the page's sample on its own. Compiling just-bash is the slowest part of start-up,
 * and this runs it and the mount while the screen is built.
 *
 * The worker's URL is exactly the one its lazily loaded chunks import it by: one more character
 * (a `#fragment`, a `?query`) and the browser evaluates a second copy of the module in the same
 * worker, answering every message twice.
 *
 * The app takes the worker over (src/page/local-sandbox.ts); in dev, src/boot.ts starts it. A script
 * that could not be fetched (the network dropped) fires its `error` before the app can listen: the
 * worker keeps a note of it (`s04NotLoaded`), so the app says so and offers a retry instead of
 * waiting for a worker that will never answer.
 */
export function earlySandbox(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 's04:early-sandbox',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const base = config.base; // absolute ("/" or "/<repo>/"), see vite.config.ts
        const file = Object.keys(context.bundle ?? {}).find((name) => /(^|\/)sandbox-[\w-]+\.js$/.test(name));
        if (!file) throw new Error('early-sandbox: the sandbox worker is not in the bundle');
        const script =
          `if(new URLSearchParams(location.search).get('sandbox')!=='webcontainer'){` +
          `const w=self.__s04EarlySandbox=new Worker(${JSON.stringify(`${base}${file}`)},{type:'module',name:'sandbox'});` +
          `w.addEventListener('error',function(e){e instanceof ErrorEvent||(w.s04NotLoaded=1)});` +
          `w.postMessage({type:${JSON.stringify(EARLY_BOOT_MESSAGE)},search:location.search})}`;
        return [{ tag: 'script', children: script, injectTo: 'head-prepend' }];
      },
    },
  };
}
