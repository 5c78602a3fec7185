import { framed, settings, startAgentsAfterFirstScreen } from './boot';
import { mountScreen } from './mount-screen';
import { agentScriptFetched } from './page/agent-workers';
import App from './ui/App.svelte';
// The page's stylesheet (index.html links it for any address, an embed's too).
import './ui/app.css';

// The built page loads an embedded run's own script instead of this one (vite-plugins/early-sandbox.ts,
// embed-entry.ts); the dev server, which has no such first script, comes here.
if (import.meta.env.DEV && settings.embed) void import('./embed');
// In another page's frame, the whole playground is not built at all: a sentence and a link.
// (Its component is loaded only then: no page outside a frame pays for it.)
else if (framed) void import('./ui/Framed.svelte').then(({ default: Framed }) => mountScreen(Framed));
// The Markdown renderer after the agents' script, which the first run needs more.
else mountScreen(App, startAgentsAfterFirstScreen, agentScriptFetched);
