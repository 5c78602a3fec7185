import { settings, startAgentsAfterFirstScreen } from './boot';
import { agentScriptFetched } from './page/agent-workers';
import { mount } from 'svelte';
import { chooseLanguage } from './settings/language';
import App from './ui/App.svelte';
import Embed from './ui/Embed.svelte';
import { watchChunkFailures } from './ui/chunk-failures.svelte';
import { loadLanguage } from './ui/i18n';
import { loadMarkdown } from './ui/markdown.svelte';
import { storedLanguage } from './ui/language.svelte';
import './ui/app.css';

// Before any part of the page is loaded on demand: one that cannot be is said, and the reload offered.
watchChunkFailures(window);

// The first screen is in the learner's language from its first paint: Chinese and Japanese are
// chunks of their own, fetched alongside (English is in this script).
const language = chooseLanguage({
  url: settings.lang,
  stored: storedLanguage(),
  browser: navigator.languages ?? [],
});
const strings = loadLanguage(language).catch(() => {}); // without them, English

// The sandbox's worker was created by boot.ts; its script is fetched in a task of this thread,
// so the screen is built one task later, to let that fetch start before the busy mount.
setTimeout(
  () =>
    void strings.then(() => {
      const target = document.getElementById('app')!;
      target.replaceChildren(); // the built page's line saying it is loading (vite-plugins/first-screen.ts)
      // An embedded run (`embed=1`) is a recorded run only: no sandbox, no agents.
      mount(settings.embed ? Embed : App, { target });
      startAgentsAfterFirstScreen();
      // The Markdown renderer too: a first run clicked at once then finds it loaded (in an A/B
      // over 18 fresh pages each, 40 ms sooner than loading it once the sandbox was taken over).
      // After the agents' script, which the first run needs more (on a fast network, at once).
      void agentScriptFetched().then(loadMarkdown);
    }),
  0,
);
