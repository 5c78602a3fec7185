import { ahead, framed, settings } from './boot';
import { mountScreen } from './mount-screen';
import App from './ui/App.svelte';
// The page's stylesheet (index.html links it for any address, an embed's too).
import './ui/app.css';

// The built page loads an embedded run's own script instead of this one (vite-plugins/early-sandbox.ts,
// embed-entry.ts); the dev server, which has no such first script, comes here.
if (import.meta.env.DEV && settings.embed) void import('./embed');
// In another page's frame, the whole playground is not built at all: a sentence and a link.
// (Its component is loaded only then: no page outside a frame pays for it.)
else if (framed) void import('./ui/Framed.svelte').then(({ default: Framed }) => mountScreen(Framed));
// Once the first screen is drawn: the agents' workers, and the Markdown renderer after their
// script, which the first run needs more (both ahead of time only).
else
  mountScreen(App, {
    mounted: () => ahead.afterFirstScreen(),
    markdownAfter: ahead.loads ? () => ahead.agentScriptIn() : undefined,
  });
