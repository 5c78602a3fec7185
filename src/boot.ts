/**
 * Runs before the app's screen is built (it is the first import of main.ts): what the page does
 * ahead of time starts here (src/page/ahead.ts; nothing with `ahead=off`), so that the sandbox
 * may be ready by the time the screen is.
 */
import { startPageAhead, type EarlyGlobals } from './page/ahead';
import { AGENT_SCRIPT, createAgentWorker } from './page/agent-workers';
import { LocalSandboxHost } from './page/local-sandbox';
import { framedApp } from './framed';
import { readUrlSettings } from './settings/url-settings';

export const settings = readUrlSettings(location.search);
/** The whole playground in another page's frame starts nothing and shows only a way out (./framed.ts). */
export const framed = framedApp(location.search);

export const ahead = startPageAhead(
  framed ? { ...settings, ahead: false } : settings,
  {
    sandbox: (sample, started) => new LocalSandboxHost(sample, started),
    agent: createAgentWorker,
    fetchAgentScript: () =>
      fetch(AGENT_SCRIPT).then(
        (response) => response.arrayBuffer().then(() => {}),
        () => {}, // the worker's own fetch then says why
      ),
  },
  globalThis as EarlyGlobals,
);
