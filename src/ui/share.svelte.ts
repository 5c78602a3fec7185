/**
 * Sharing a run: `Copy link` makes a link to the shown run at the shown step (the run packed into
 * the fragment, src/run/link.ts), and a page opened from such a link, or from `?record=<address>`,
 * shows that run read-only at that step. A link never holds the API key nor the endpoint. The
 * packing and fetching load when first needed: a page opened without a link never loads them.
 */
import { quote } from '../run/check';
import { packedIn } from '../run/link-key';
import { readRecord, type ReadRecord } from '../page/record-reader';
import type { RecordOrigin } from '../run/record';
import type { UrlSettings } from '../settings/url-settings';
import type { RemovedPart } from '../run/secrets';
import { both, sentenceOf, type Sentence } from './sentence';
import type { Screen, Viewer } from './viewer.svelte';

/** What Copy link made. */
export interface SharedLink {
  /** The link, or null when the run is too big for one (then a file's address is asked for). */
  href: string | null;
  /** How long the link with the run in its fragment is, in characters (ASCII: one byte each). */
  chars: number;
  /** The step it shows. */
  step: number;
  /** What was taken out of the run before it was packed (src/run/outgoing.ts). */
  removed: RemovedPart[];
}

export class Share {
  readonly #viewer: Viewer;
  readonly #screen: Screen;
  /** The last link made, or null. */
  link = $state.raw<SharedLink | null>(null);
  /** A shared run is being unpacked or fetched. */
  opening = $state(false);
  /** The `record=` file being fetched: its address, the bytes so far and the announced size. */
  fetching = $state.raw<{ address: string; received: number; total: number | null } | null>(null);
  #cancel: AbortController | null = null;

  constructor(viewer: Viewer, screen: Screen) {
    this.#viewer = viewer;
    this.#screen = screen;
  }

  /** A link to the shown run at the shown step (null when there is no run). */
  async make(base: string): Promise<SharedLink | null> {
    const record = this.#viewer.record;
    if (!record) return (this.link = null);
    const { fragmentLink, LINK_MAX_CHARS, packRecord, shareable } = await import('../run/link');
    const step = this.#viewer.step ?? this.#viewer.steps;
    const { record: clean, removed } = this.#viewer.outgoing();
    const json = JSON.stringify(shareable(clean));
    const href = fragmentLink(base, await packRecord(json), step);
    const fits = href.length <= LINK_MAX_CHARS;
    return (this.link = { href: fits ? href : null, chars: href.length, step, removed });
  }

  /** The step a link to the run's exported file shows: that of the last link made. */
  get fileStep(): number {
    return this.link?.step ?? this.#viewer.step ?? this.#viewer.steps;
  }

  /**
   * Opens the run the page's URL carries: a packed run in the fragment (`#run=`), else the file
   * at `record=`, fetched only then. Resolves once it is painted, or its problem is shown.
   */
  async openFromUrl(url: Pick<UrlSettings, 'record' | 'step'>, hash: string): Promise<void> {
    const packed = packedIn(hash);
    if (packed === undefined && url.record === undefined) return;
    this.opening = true;
    const start = performance.now();
    // What the page said of its address (the ignored URL settings) stays beside what opening says.
    const kept = this.#screen.notice;
    let read: ReadRecord;
    let origin: RecordOrigin = { kind: 'link' };
    try {
      // Unpacked, or fetched, and checked off the page's thread (src/page/record-reader.ts).
      if (packed !== undefined)
        read = await this.#viewer.read({ kind: 'packed', packed }, { key: 'share.theLink' });
      else {
        read = await this.#fetch(url.record!);
        // The banner names where the run came from: the address it was read at, after redirects.
        origin = { kind: 'link', address: read.address };
      }
      await this.#viewer.showRead(read, origin, url.step);
      this.#screen.notice = both(kept, this.#screen.notice);
      // `share:open`: from the URL read to the run at its step painted (the bench reads it).
      // (A tab in the background paints nothing: the sandbox's boot waits for it 250 ms at most.)
      await new Promise((painted) => {
        requestAnimationFrame(painted);
        setTimeout(painted, 250);
      });
      performance.measure('share:open', { start, end: performance.now() });
    } catch (error) {
      const name: Sentence = packed !== undefined ? { key: 'share.theLink' } : { text: quote(url.record!) };
      this.#screen.notice = both(kept, {
        key: 'notice.cannotOpen',
        params: { name, reason: sentenceOf(error) },
      });
    } finally {
      this.opening = false;
      this.fetching = null;
    }
  }

  /** Fetches `record=`, showing its progress (`fetching`) and offering Cancel meanwhile. */
  async #fetch(address: string): Promise<ReadRecord> {
    const cancel = new AbortController();
    this.#cancel = cancel;
    this.fetching = { address, received: 0, total: null };
    try {
      return await readRecord(
        { kind: 'address', address, ...testTimeouts() },
        {
          secrets: this.#viewer.secrets(),
          signal: cancel.signal,
          onProgress: (received, total) => {
            if (this.#cancel === cancel) this.fetching = { address, received, total };
          },
        },
      );
    } finally {
      this.#cancel = null;
    }
  }

  /** Cancels the fetch of `record=` under way: the page says so, and stays as it is. */
  cancelFetch(): void {
    this.#cancel?.abort();
  }
}

/**
 * The waits of `record=` (src/run/fetch-record.ts), shorter in a test build only: a test sets
 * `window.__s04RecordTimeouts = { idleMs, totalMs }` before the page loads
 * (docs/automation-contract.md). Any other build keeps 30 s and 120 s.
 */
function testTimeouts(): { idleMs?: number; totalMs?: number } {
  if (import.meta.env.MODE !== 'test') return {};
  const set = (globalThis as { __s04RecordTimeouts?: { idleMs?: number; totalMs?: number } })
    .__s04RecordTimeouts;
  return { idleMs: set?.idleMs, totalMs: set?.totalMs };
}
