import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { LANGUAGE_KEY, LANGUAGES } from '../src/settings/language.ts';

/** A locale's `firstVisit` strings that the built page shows before its script has loaded. */
function loadingStrings(language: string): [string, string] {
  // By directory: under a test's jsdom, `import.meta.url` is the page's kind of URL, not a file's.
  const path = join(import.meta.dirname, `../src/ui/locales/${language}.json`);
  const { firstVisit } = JSON.parse(readFileSync(path, 'utf8')) as {
    firstVisit: { loading: string; loadingFor: string };
  };
  return [firstVisit.loading, firstVisit.loadingFor];
}

/**
 * The built page's first screen before its script has arrived: one line saying the playground is
 * loading, in the learner's language (chosen as src/settings/language.ts does: the URL's `lang=`,
 * the stored choice, the browser's languages), and after 3 s how long it has been loading, so that
 * a slow link shows progress instead of a blank page. On a slow link the page's script and the
 * sandbox's share the bandwidth for a while; this line is drawn as soon as the HTML and the
 * stylesheet are in. main.ts clears it before mounting the app.
 */
export function firstScreen(): Plugin {
  return {
    name: 's04:first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const strings = Object.fromEntries(LANGUAGES.map((language) => [language, loadingStrings(language)]));
        const script =
          `(function(){var S=${JSON.stringify(strings)},q=new URLSearchParams(location.search).get('lang'),l=S[q]?q:null;` +
          `if(!l)try{var k=localStorage.getItem(${JSON.stringify(LANGUAGE_KEY)});if(S[k])l=k}catch(e){}` +
          `if(!l){l='en';var n=navigator.languages||[];for(var i=0;i<n.length;i++){var p=n[i].trim().toLowerCase().split(/[-_]/)[0];if(S[p]){l=p;break}}}` +
          `var e=document.getElementById('s04-first-screen'),s=S[l];e.textContent=s[0];` +
          `var t=setInterval(function(){if(!e.isConnected)return clearInterval(t);var x=Math.round(performance.now()/1000);` +
          `if(x>=3)e.textContent=s[1].replace('{{seconds}}',x)},1000)})()`;
        const shell =
          `<div id="app"><p id="s04-first-screen" style="margin:1.5rem;font:1rem system-ui,sans-serif;opacity:.75"></p>` +
          `<script>${script}</script></div>`;
        if (!html.includes('<div id="app"></div>'))
          throw new Error('first-screen: index.html has no <div id="app"></div>');
        return html.replace('<div id="app"></div>', shell);
      },
    },
  };
}
