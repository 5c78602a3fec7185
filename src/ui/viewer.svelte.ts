/**
 * What the screen shows of a run: the live view, or any step of the live record or of a record
 * opened from History, a file or the example (read-only); stepping, playback, import and export.
 */
import { quote } from '../run/record-error';
import { isSessionFile, MAX_SESSION_BYTES, SessionError, type SessionProblem } from '../run/claude-code';
import { ledgerOf, type RunLedger } from '../run/measures';
import type { RecordEvent, RecordOrigin, RunRecord, RunStatus } from '../run/record';
import type { RunView } from '../run/view';
import { outgoing, type Secrets } from '../run/outgoing';
import { Replay } from '../run/replay';
import type { RemovedPart } from '../run/secrets';
import { eventBatches, readRecord, type OpenSource, type ReadRecord } from '../page/record-reader';
import type { PickedFile } from './dropped-files';
import { Playback } from './playback.svelte';
import type { Recorder } from '../page/recorder.svelte';
import type { RunsOnScreen } from '../page/runtime.svelte';
import { both, removedSentence, sentenceOf, type Sentence } from './sentence';

/** What is being read off the page's thread, shown with its progress and Cancel. */
export interface Reading {
  kind: 'record' | 'session';
  /** What is read: a file's name (a session's: its parent transcript's), a History run's title, a link. */
  name: Sentence;
  /** How much is read, 0 to 1; null when the size is not known. */
  share: number | null;
}

/** A record opened from History, a file or the example: viewed and stepped through, read-only. */
interface Opened {
  record: RunRecord;
  origin: RecordOrigin;
  replay: Replay;
}

/** What the viewer needs of the page around it. */
export interface Screen {
  readonly running: boolean;
  /** The API key and the endpoint set on this page (neither's secrets are part of an export). */
  readonly settings: { readonly key: string; readonly endpoint?: string };
  /** A message for the user (a file that cannot be opened), or null. */
  notice: Sentence | null;
  /** The prompt box's text: emptied when a session opens (what it holds is not the session's). */
  prompt?: string;
}

export class Viewer implements RunsOnScreen {
  readonly #recorder: Recorder;
  readonly #screen: Screen;
  readonly playback: Playback;
  /** A record opened to look at instead of the live conversation. */
  opened = $state.raw<Opened | null>(null);
  /** The step shown, or null for the end (following a live run as it goes). */
  step = $state<number | null>(null);
  /** How many steps the shown record has. */
  steps = $derived.by(() => (this.opened ? this.opened.replay.steps : this.#recorder.steps));
  /** What the screen shows: the live view, or any step of the live or opened record. */
  shown = $derived.by((): RunView => {
    const opened = this.opened;
    const step = this.step;
    if (opened) return opened.replay.at(step ?? opened.replay.steps);
    void this.#recorder.steps;
    const replay = this.#recorder.replay;
    if (step === null || !replay) return this.#recorder.live;
    return replay.at(step);
  });
  /** The shown record's call ledger at its end: every model call of every agent (the chart). */
  calls = $derived.by((): RunLedger => {
    const last = this.#openedLast;
    return ledgerOf(last ?? this.#recorder.live);
  });
  /** The opened record's view at its last step, made once per record opened. */
  #openedLast = $derived.by((): RunView | null => {
    const opened = this.opened;
    return opened ? opened.replay.at(opened.replay.steps) : null;
  });
  /**
   * The opened record's view holding every one of its events, as its replay keeps it (null for the
   * live run, or when events follow its last step): the captions read the record's figures from it.
   */
  openedEnd = $derived.by((): RunView | null =>
    this.opened?.replay.lastStepIsEnd ? this.#openedLast : null,
  );
  /** The shown record is the live one and it is at its end. */
  atLive = $derived(this.opened === null && this.step === null);
  /**
   * What is being opened (a run file, a History entry or a Claude Code session, read off the
   * page's thread), and how much of it is read (0 to 1; null when its size is not known), or null.
   * The learner may cancel it (`cancelOpening`): the screen stays as it was.
   */
  reading = $state.raw<Reading | null>(null);
  #cancel: AbortController | null = null;
  /** A step before the shown record's last is on screen: the screen replays, the run is elsewhere. */
  pastStep = $derived(this.step !== null && this.step < this.steps);
  /** The state the shown run is in now (at its end), whatever step is on screen. */
  endStatus = $derived.by((): RunStatus => {
    if (this.opened) return lastStatus(this.opened.record.events);
    return this.#recorder.live.status;
  });

  constructor(recorder: Recorder, screen: Screen) {
    this.#recorder = recorder;
    this.#screen = screen;
    this.playback = new Playback(this);
  }

  /** The record on screen: the opened one, or the live conversation's. */
  get record(): RunRecord | null {
    return this.opened?.record ?? this.#recorder.record;
  }

  get origin(): RecordOrigin {
    return this.opened?.origin ?? { kind: 'live' };
  }

  /** Shows the run as it was after `step` steps (clamped); the end of a live run follows it. */
  stepTo(step: number): void {
    const last = this.steps;
    const next = Math.max(0, Math.min(Math.round(step), last));
    this.step = next === last && !this.opened && this.#screen.running ? null : next;
  }

  stepBy(delta: number): void {
    this.stepTo((this.step ?? this.steps) + delta);
  }

  /** Back to the end of the live run, following it. */
  goLive(): void {
    this.playback.pause();
    this.closeOpened();
    this.step = null;
  }

  /** To the last step of the shown record (a finished or opened run: its end, not "live"). */
  goLatest(): void {
    this.playback.pause();
    this.stepTo(this.steps);
  }

  /** Shows the run at the step of one of its events (a segment clicked in the timeline). */
  stepToEvent(index: number): void {
    const replay = this.opened?.replay ?? this.#recorder.replay;
    if (!replay) return;
    this.playback.pause();
    this.step = replay.stepOfEvent(index);
  }

  /** The step an event of the shown record belongs to. */
  stepOfEvent(index: number): number {
    return (this.opened?.replay ?? this.#recorder.replay)?.stepOfEvent(index) ?? 0;
  }

  /** The record's time of a step, in ms since it started. */
  timeOf(step: number): number {
    return (this.opened?.replay ?? this.#recorder.replay)?.timeOf(step) ?? 0;
  }

  /**
   * Shows a record read-only, at its end: its numbers clamped and its secrets taken out first
   * (src/run/outgoing.ts), and the notice says what was taken.
   */
  open(given: RunRecord, origin: RecordOrigin): void {
    this.show(outgoing(given, this.secrets()), origin);
  }

  /** Shows a record already clamped and cleaned (src/page/record-reader.ts), at its end. */
  show(
    { record, removed }: { record: RunRecord; removed: readonly RemovedPart[] },
    origin: RecordOrigin,
  ): void {
    this.#show({ record, origin, replay: new Replay(record.events) }, removed);
  }

  #show(opened: Opened, removed: readonly RemovedPart[]): void {
    this.playback.pause();
    this.opened = opened;
    this.step = null;
    this.#screen.notice = removedSentence(removed, 'opened');
  }

  /**
   * Shows a record read off the page's thread, at `step` (else its end), once its replay is
   * prepared a slice at a time (src/run/replay.ts `prepare`), the page free to draw between slices.
   */
  async showRead(
    read: { record: RunRecord; removed: readonly RemovedPart[] },
    origin: RecordOrigin,
    step?: number,
  ): Promise<void> {
    const replay = new Replay(read.record.events);
    while (!replay.prepare(PREPARE_SLICE_MS)) await nextTask();
    // Its view at its end made in a task of its own too (a replay keeps the views it made), and
    // the screen drawn in the next: each is a task of its own.
    replay.at(replay.steps);
    await nextTask();
    this.#show({ record: read.record, origin, replay }, read.removed);
    // At its step in the same moment: nothing on screen sees its end first.
    if (step !== undefined) this.stepTo(step);
  }

  /**
   * Reads a run off the page's thread (src/page/record-reader.ts), with the reading on screen
   * under `name` and Cancel offered meanwhile; an opening already under way is cancelled first.
   * Rejects with why it cannot be shown (cancelled included); the screen is left as it was.
   */
  async read(source: OpenSource, name: Sentence): Promise<ReadRecord> {
    this.cancelOpening();
    const cancel = new AbortController();
    this.#cancel = cancel;
    this.reading = { kind: 'record', name, share: null };
    try {
      // The worker's script loads with the first run opened (a page may never open one).
      return await readRecord(source, {
        secrets: this.secrets(),
        signal: cancel.signal,
        onProgress: (received, total) => {
          if (this.#cancel === cancel)
            this.reading = { kind: 'record', name, share: total ? Math.min(1, received / total) : null };
        },
      });
    } finally {
      if (this.#cancel === cancel) {
        this.#cancel = null;
        this.reading = null;
      }
    }
  }

  /** Ends the opening under way (a file, a History entry, a session): it says so, nothing else changes. */
  cancelOpening(): void {
    this.#cancel?.abort();
  }

  /** Opens a run kept in History, read off the page's thread; rejects with why it cannot be shown. */
  async openKept(id: string, title: string): Promise<void> {
    await this.showRead(await this.read({ kind: 'history', id }, { text: quote(title) }), {
      kind: 'history',
    });
  }

  /** What a record's redaction is told of on this page: the key and the endpoint. */
  secrets(): Secrets {
    const { key, endpoint } = this.#screen.settings;
    return { apiKey: key, endpoints: endpoint ? [endpoint] : [] };
  }

  /** The shown record as it may leave the page (src/run/outgoing.ts), and what was taken out of it. */
  outgoing(): ReturnType<typeof outgoing> {
    const record = this.record;
    if (!record) throw new Error('There is no run to export yet');
    return outgoing(record, this.secrets());
  }

  /** The screen follows the live run's end (a run begins, a fresh conversation). */
  followLive(): void {
    this.step = null;
  }

  closeOpened(): void {
    if (!this.opened) return;
    this.playback.pause();
    this.opened = null;
    this.step = null;
  }

  /**
   * Opens a run file (button or drop), read off the page's thread; a bad file, or one whose
   * opening is cancelled, changes nothing but the notice.
   */
  async importFile(file: File): Promise<void> {
    try {
      const start = performance.now();
      const read = await this.read({ kind: 'file', file }, { text: file.name });
      await this.showRead(read, { kind: 'file', name: file.name });
      performance.measure('record:open', { start, end: performance.now() });
    } catch (error) {
      this.#screen.notice = {
        key: 'notice.cannotOpen',
        params: { name: file.name, reason: sentenceOf(error) },
      };
    }
  }

  /**
   * Opens what was picked or dropped: a Claude Code session (its `.jsonl` transcripts, several
   * files or a folder) converted off the page's thread, else the first file as a run file.
   */
  async importFiles(picked: readonly PickedFile[]): Promise<void> {
    const session = picked.filter((p) => isSessionFile(p.path));
    if (!session.length) {
      if (picked.length) await this.importFile(picked[0].file);
      return;
    }
    const name = sessionName(session);
    const bytes = session.reduce((sum, p) => sum + p.file.size, 0);
    if (bytes > MAX_SESSION_BYTES) {
      this.#screen.notice = {
        key: 'notice.cannotOpen',
        params: {
          name,
          reason: {
            key: 'sessions.tooBig',
            params: { size: megabytes(bytes), max: megabytes(MAX_SESSION_BYTES) },
          },
        },
      };
      return;
    }
    const start = performance.now();
    this.cancelOpening();
    const cancel = new AbortController();
    this.#cancel = cancel;
    this.reading = { kind: 'session', name: { text: name }, share: 0 };
    try {
      // The reader and its worker load with the first session opened (an embed never opens one).
      const { readSession } = await import('../page/session-reader');
      const { record, removed, problems } = await readSession(
        session.map((p) => ({ path: p.path, file: p.file })),
        this.secrets(),
        eventBatches(),
        (share) => {
          if (this.#cancel === cancel) this.reading = { kind: 'session', name: { text: name }, share };
        },
        cancel.signal,
      );
      await this.showRead({ record, removed }, { kind: 'session', name });
      this.#screen.notice = both(this.#screen.notice, problemsSentence(problems));
      this.#screen.prompt = '';
      performance.measure('session:open', { start, end: performance.now() });
    } catch (error) {
      this.#screen.notice = {
        key: 'notice.cannotOpen',
        params: {
          name,
          reason: error instanceof SessionError ? { key: `sessions.${error.code}` } : sentenceOf(error),
        },
      };
    } finally {
      if (this.#cancel === cancel) {
        this.#cancel = null;
        this.reading = null;
      }
    }
  }

  /** The record on screen as JSON, without secrets; the notice says what was taken out. */
  exportRun(): string {
    const { record, removed } = this.outgoing();
    this.#screen.notice = removedSentence(removed, 'file') ?? this.#screen.notice;
    return JSON.stringify(record);
  }
  /** The record on screen as OpenTelemetry traces (OTLP JSON), without secrets. */
  async exportOtlp(): Promise<string> {
    const { record, removed } = this.outgoing();
    // Loaded when first asked for: nothing of it is on the way of the first paint.
    const { toOtlp } = await import('../run/otlp');
    this.#screen.notice = removedSentence(removed, 'file') ?? this.#screen.notice;
    return JSON.stringify(toOtlp(record));
  }
}

/** How long one slice of preparing an opened record's replay may keep the page's thread. */
const PREPARE_SLICE_MS = 40;

/** Resolves in a task of its own, after whatever the page has queued (a message to itself). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** The last status a record set (idle if none). */
function lastStatus(events: readonly RecordEvent[]): RunStatus {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event.type === 'status') return event.status;
  }
  return { kind: 'idle' };
}

/** The problems a session was opened with, as one sentence: the first, and how many more. */
function problemsSentence(problems: readonly SessionProblem[]): Sentence | null {
  if (!problems.length) return null;
  const first: Sentence = { key: `sessions.problem.${problems[0].code}`, params: { ...problems[0].params } };
  return problems.length === 1
    ? first
    : { key: 'sessions.more', params: { first, count: problems.length - 1 } };
}

/** A session's name on screen: its parent transcript's, else the folder's, else its first file's. */
function sessionName(picked: readonly PickedFile[]): string {
  const base = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  const parent = picked.find((p) => /\.jsonl$/i.test(p.path) && !/^agent-/i.test(base(p.path)));
  return base((parent ?? picked[0]).path);
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}
