/**
 * The page's script for an embedded run (`embed=1`), an entry of its own: the built page's first
 * script loads it instead of main.ts (vite-plugins/early-sandbox.ts). It holds the arrays, the step
 * bar and the caption, and none of the sandbox, the agents, the settings or History. Its styles
 * are the page's stylesheet (app.css, which index.html links whatever the address) and those its
 * components inject as they mount (vite-plugins/embed-entry.ts).
 */
import { mountScreen } from './mount-screen';
import Embed from './ui/Embed.svelte';

mountScreen(Embed, { markdownAfter: () => Promise.resolve() });
