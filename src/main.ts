import { settings, startAgentsAfterFirstScreen } from './boot';
import { mountScreen } from './mount-screen';
import { agentScriptFetched } from './page/agent-workers';
import App from './ui/App.svelte';
// The page's stylesheet (index.html links it for any address, an embed's too).
import './ui/app.css';

// The built page loads an embedded run's own script instead of this one (vite-plugins/early-sandbox.ts,
// embed-entry.ts); the dev server, which has no such first script, comes here.
if (import.meta.env.DEV && settings.embed) void import('./embed');
// The Markdown renderer after the agents' script, which the first run needs more.
else mountScreen(App, startAgentsAfterFirstScreen, agentScriptFetched);
