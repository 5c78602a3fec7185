/**
 * The dialog `Model call`'s code: loaded when a call is first opened, or ahead (a quiet moment, the
 * pointer near the buttons). Apart from the dialog's state (model-call.svelte.ts), which the dialog
 * itself imports, so that no module imports back the one that loads it.
 */
import { Lazy } from './lazy.svelte';

export const modelCallDialog = new Lazy(() => import('./components/ModelCallDialog.svelte'));
