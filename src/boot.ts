/**
 * Runs before the app's screen is built (it is the first import of main.ts): starts the offline
 * sandbox's worker right away (the built page's first script may have started it already), so
 * the sandbox is ready by the time the screen is.
 */
import { startAgentWorkersEarly } from './page/agent-workers';
import { LocalSandboxHost } from './page/local-sandbox';
import { readUrlSettings } from './settings/url-settings';

export const settings = readUrlSettings(location.search);
/**
 * Where WebContainer is chosen, the sandbox and the agents wait for its boot instead; an embedded
 * run (`embed=1`) is a record only, and starts neither.
 */
const offline = settings.sandbox !== 'webcontainer' && !settings.embed;
if (offline) LocalSandboxHost.startEarly(settings.sample);

/**
 * The agents' workers, once the first screen is drawn: their scripts compile while the sandbox is
 * taken over, not after a first click. Any earlier, on two cores, they delay the first paint.
 */
export function startAgentsAfterFirstScreen(): void {
  if (offline) startAgentWorkersEarly({ spare: settings.context !== 'none' });
}
