import type { Plugin, ResolvedConfig } from 'vite';
import type { EmbedFiles } from './embed-entry.ts';
import { EARLY_BOOT_MESSAGE } from '../src/workers/sandbox/protocol.ts';

/** The page's script waits for the sandbox's this long at most (a browser that reports no worker script). */
const SANDBOX_FIRST_AT_MOST_MS = 1500;

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
 * The sandbox's script comes first: the page's own module script is fetched once the sandbox's has
 * arrived (its resource timing entry), or at the latest after SANDBOX_FIRST_AT_MOST_MS. On a slow link
 * (1.6 Mbps) both fetched at once share the bandwidth, and `sandbox:ready` would wait for both; the
 * first paint does not wait for either (vite-plugins/first-screen.ts), and on a fast one the
 * sandbox's script is in within milliseconds.
 *
 * With `ahead=off` in the page's URL it starts neither, and loads the page's script at once (the page
 * then does nothing ahead of time: src/page/ahead.ts).
 *
 * The app takes the worker over (src/page/ahead.ts hands it to the sandbox's owner; in dev, that
 * module starts it). A script that could not be fetched (the network dropped) fires its `error`
 * before the app can listen: the worker keeps a note of it (`s04NotLoaded`), so the app says so and offers a retry instead of
 * waiting for a worker that will never answer. An embedded run (`embed=1`) needs no sandbox: none
 * is started, and the embed's own script (`embed`, vite-plugins/embed-entry.ts) is fetched at once
 * instead of the page's.
 */
export function earlySandbox(embed: () => EmbedFiles): Plugin {
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
        // The page's own module script, loaded by the script below once the sandbox's has arrived.
        const module = html.match(/<script type="module" crossorigin src="([^"]+)"><\/script>\s*/);
        if (!module) throw new Error("early-sandbox: the page's module script is not in index.html");
        // The agents' worker script, fetched into the cache as soon as the page's own script has
        // arrived (its resource timing entry), not after it has run, which on a slow link is a round
        // trip later. src/page/ahead.ts takes this fetch over. (Fetched beside the page's
        // script, even at a low priority, it shares the bandwidth with it.)
        const agents = Object.keys(context.bundle ?? {}).find((name) => /(^|\/)agent-[\w-]+\.js$/.test(name));
        if (!agents) throw new Error("early-sandbox: the agents' worker is not in the bundle");
        // `a(name, f)`: calls `f` once a file whose URL holds `name` has arrived (throws where the
        // browser has no resource timing observer).
        const arrived =
          `var a=function(n,f){new PerformanceObserver(function(l,o){l.getEntries().some(function(e){` +
          `return e.name.indexOf(n)>=0})&&(o.disconnect(),f())}).observe({type:'resource',buffered:true})};`;
        const go =
          `var g=function(){if(g.d)return;g.d=1;var s=document.createElement('script');` +
          `s.type='module';s.crossOrigin='';s.src=${JSON.stringify(module[1])};document.head.appendChild(s);` +
          `if(q.get('ahead')!=='off')try{self.__s04EarlyAgentScript=new Promise(function(f){a(${JSON.stringify(module[1])},function(){` +
          `f(fetch(${JSON.stringify(`${base}${agents}`)}).then(function(r){return r.arrayBuffer()}).then(function(){},function(){}))` +
          `})})}catch(e){}};`;
        // The embed's script, as `var E={...}` (scripts/first-visit.mjs reads it there).
        const embedded =
          `var e=function(){var E=${JSON.stringify(embed())};var s=document.createElement('script');` +
          `s.type='module';s.crossOrigin='';s.src=E.script;document.head.appendChild(s)};`;
        const script =
          '(function(){' +
          arrived +
          go +
          embedded +
          `var q=new URLSearchParams(location.search);` +
          // The whole playground in another page's frame starts no sandbox (src/framed.ts).
          `var f;try{f=self.top!==self}catch(x){f=true}` +
          `if(q.get('embed')==='1')e();else if(!f&&q.get('sandbox')!=='webcontainer'&&q.get('ahead')!=='off'){` +
          `const w=self.__s04EarlySandbox=new Worker(${JSON.stringify(`${base}${file}`)},{type:'module',name:'sandbox'});` +
          `w.addEventListener('error',function(e){e instanceof ErrorEvent||(w.s04NotLoaded=1);g()});` +
          `w.postMessage({type:${JSON.stringify(EARLY_BOOT_MESSAGE)},search:location.search});` +
          `try{a(${JSON.stringify(file)},g)}catch(e){g()}setTimeout(g,${SANDBOX_FIRST_AT_MOST_MS})}else g()})()`;
        return {
          html: html.replace(module[0], ''),
          tags: [{ tag: 'script', children: script, injectTo: 'head-prepend' }],
        };
      },
    },
  };
}
