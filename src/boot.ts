/**
 * Runs before the app's bundle (it is the first script of index.html): starts the offline
 * sandbox's worker right away, so the sandbox is ready by the time the screen is.
 */
import { LocalSandboxHost } from './page/local-sandbox';
import { readUrlSettings } from './settings/url-settings';

const settings = readUrlSettings(location.search);
if (settings.sandbox !== 'webcontainer') LocalSandboxHost.startEarly(settings.sample);
