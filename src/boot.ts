/**
 * Runs before the app's screen is built (it is the first import of main.ts): starts the offline
 * sandbox's worker right away (the built page's first script may have started it already), so
 * the sandbox is ready by the time the screen is.
 */
import { agentScriptFetched, prefetchAgentScript, startAgentWorkersEarly } from './page/agent-workers';
import { LocalSandboxHost } from './page/local-sandbox';
import { framedApp } from './framed';
import { readUrlSettings } from './settings/url-settings';

export const settings = readUrlSettings(location.search);
/** The whole playground in another page's frame starts nothing and shows only a way out (./framed.ts). */
export const framed = framedApp(location.search);
/**
 * Where WebContainer is chosen, the sandbox and the agents wait for its boot instead; an embedded
 * run (`embed=1`) is a record only, and starts neither.
 */
const offline = settings.sandbox !== 'webcontainer' && !settings.embed && !framed;
if (offline) LocalSandboxHost.startEarly(settings.sample);

// The agents' script downloads while the screen is built (on a slow network, most of what a first
// run clicked at once waited for); it runs once the first screen is drawn.
if (offline) void prefetchAgentScript();

/**
 * The agents' workers, once the first screen is drawn and their script is in: it compiles while
 * the sandbox is taken over, not after a first click. Any earlier, on two cores, they delay the
 * first screen; started while the script was still downloading, a worker fetched it a second time.
 */
export function startAgentsAfterFirstScreen(): void {
  if (offline)
    void agentScriptFetched().then(() => startAgentWorkersEarly({ spare: settings.context !== 'none' }));
}
