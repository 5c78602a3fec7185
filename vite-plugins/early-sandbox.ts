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
 * The app takes the worker over (src/page/local-sandbox.ts); in dev, src/boot.ts starts it. An
 * embedded run (`embed=1`) needs no sandbox: none is started.
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
          `const q=new URLSearchParams(location.search);` +
          `if(q.get('sandbox')!=='webcontainer'&&q.get('embed')!=='1'){` +
          `const w=self.__s04EarlySandbox=new Worker(${JSON.stringify(`${base}${file}`)},{type:'module',name:'sandbox'});` +
          `w.postMessage({type:${JSON.stringify(EARLY_BOOT_MESSAGE)},search:location.search})}`;
        return [{ tag: 'script', children: script, injectTo: 'head-prepend' }];
      },
    },
  };
}
