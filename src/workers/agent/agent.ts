/**
 * The agents' one worker script: the parent's loop in the worker named `parent` (./parent.ts),
 * a subagent's in each worker named `subagent-N` (./subagent.ts). One script for both roles,
 * because nearly all of it is shared (the loop, the tools, the demo model): a first visit fetches
 * and compiles it once, and every later subagent finds it in the cache.
 */
import * as Comlink from 'comlink';
import { parentApi } from './parent';
import { subagentApi } from './subagent';

Comlink.expose(self.name === 'parent' ? parentApi : subagentApi);
