import type { Plugin } from 'vite';
import { EARLY_BOOT_FRAGMENT } from '../src/workers/protocol.ts';

/**
 * Starts the offline sandbox's worker from the first line of the built page, before the app's
 * bundle has even downloaded, with the page's query string in the worker URL's fragment
 * (EARLY_BOOT_FRAGMENT), so the worker mounts the page's sample on its own. Compiling just-bash
 * is the slowest part of start-up, and this runs it and the mount while the screen is built. A
 * message would arrive later: Chromium delivers it only once the page's main thread is free.
 *
 * The app takes the worker over (src/page/local-sandbox.ts); in dev, src/boot.ts starts it.
 */
export function earlySandbox(): Plugin {
  return {
    name: 's04:early-sandbox',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const file = Object.keys(context.bundle ?? {}).find((name) => /(^|\/)sandbox-[\w-]+\.js$/.test(name));
        if (!file) throw new Error('early-sandbox: the sandbox worker is not in the bundle');
        const script =
          `if(new URLSearchParams(location.search).get('sandbox')!=='webcontainer')` +
          `self.__s04EarlySandbox=new Worker(${JSON.stringify(`/${file}${EARLY_BOOT_FRAGMENT}`)}+location.search,` +
          `{type:'module',name:'sandbox'})`;
        return [{ tag: 'script', children: script, injectTo: 'head-prepend' }];
      },
    },
  };
}
