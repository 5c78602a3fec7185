import type { Plugin } from 'vite';

/**
 * Starts the offline sandbox's worker from the first line of the built page, before the app's
 * bundle has even downloaded: compiling just-bash (about 1.3 MB) is the slowest part of start-up,
 * and this lets it run while the screen is built. The app takes the worker over (see
 * src/ui/local-sandbox.ts); in dev, src/boot.ts starts it instead.
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
          `self.__s04EarlySandbox=new Worker(${JSON.stringify(`/${file}`)},{type:'module',name:'sandbox'})`;
        return [{ tag: 'script', children: script, injectTo: 'head-prepend' }];
      },
    },
  };
}
