/**
 * What the screen loads ahead for later, as the page's warm-up schedules it
 * (src/page/warmup.svelte.ts): the canvases' fonts, the Markdown renderer's first parse, the other
 * languages' strings; and the sentence of a sandbox whose script did not load.
 */
import { saveData } from '../page/connection';
import type { ScreenLoads } from '../page/warmup.svelte';
import { LANGUAGES } from '../settings/language';
import { warmCanvasText } from './canvas-text';
import { loadLanguage, t } from './i18n';
import { warmUpMarkdown } from './markdown.svelte';

export const SCREEN_LOADS: ScreenLoads = {
  soon: () => warmCanvasText(),
  beforeRun: () => warmUpMarkdown(),
  // A language switch then waits for no fetch; on a metered or slow connection, when chosen.
  quiet: () => {
    if (!saveData()) LANGUAGES.forEach((language) => void loadLanguage(language).catch(() => {}));
  },
  notLoaded: () => t('firstVisit.sandboxNotLoaded'),
};
