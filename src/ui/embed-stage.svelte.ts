/**
 * What an embedded run (`embed=1`) has of the playground: the viewer, the shared link's opening
 * and the presenter. A recorded run needs no sandbox, agent, setting, comparison nor History, so
 * none of their code is in the embed's script (src/embed.ts, an entry of its own): the embed's
 * first paint on a slow network waits for fewer bytes than the whole playground's.
 */
import { chooseLanguage } from '../settings/language';
import { readUrlSettings, type UrlSettings } from '../settings/url-settings';
import { storedLanguage, useLanguage } from './language.svelte';
import type { RunStage } from './context';
import { Presenter } from './presenter.svelte';
import { KEEPS_NOTHING, Recorder } from '../page/recorder.svelte';
import type { Sentence } from './sentence';
import { Share } from './share.svelte';
import { Viewer } from './viewer.svelte';

export class EmbedStage implements RunStage {
  readonly url: UrlSettings;
  /** No run is ever live in an embed. */
  readonly running = false;
  /** No key is ever entered in an embed (an export scrubs none). */
  readonly settings = { key: '' };
  /** A message about the address (a damaged link, a file that cannot be fetched), or null. */
  notice = $state.raw<Sentence | null>(null);
  readonly viewer: Viewer;
  readonly share: Share;
  readonly presenter: Presenter;

  constructor(search: string) {
    this.url = readUrlSettings(search);
    // In the language its page loaded the strings of (src/mount-screen.ts): the URL's, the one kept,
    // else the browser's.
    useLanguage(
      chooseLanguage({ url: this.url.lang, stored: storedLanguage(), browser: navigator.languages ?? [] }),
    );
    const list = this.url.ignored.join(', ');
    if (list) this.notice = { key: 'notice.ignoredUrl', params: { list } };
    // Kept nowhere: a page of another site is no place for the learner's History.
    this.viewer = new Viewer(new Recorder(KEEPS_NOTHING), this);
    this.share = new Share(this.viewer, this);
    this.presenter = new Presenter(this);
  }
}
