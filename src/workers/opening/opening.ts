/**
 * The opening worker: reads a run to show (an imported file, a link's packed run, a `record=`
 * address, a History entry) off the page's thread. Parsing, checking, clamping and cleaning a
 * 25 MB record takes seconds of work that would freeze the page; here it only keeps this worker
 * busy, and the learner's Cancel ends it (the page terminates the worker). Every limit of a run
 * file holds here, before anything reaches the page: 25 MB once unpacked (a file's size is known
 * before it is read; a link's run and a `record=` file are read as streams and stopped there),
 * MAX_RECORD_EVENTS events, one message MAX_MESSAGE_CHARS at most (src/run/check.ts).
 * One worker per opening; the page terminates it after the answer.
 */
import * as Comlink from 'comlink';
import { MAX_RECORD_BYTES, parseRecord, RecordError } from '../../run/check';
import { CodedError } from '../../run/coded-error';
import { fetchRecordFrom } from '../../run/fetch-record';
import { LinkError, tooBig, unpackRecord } from '../../run/link';
import { batches } from '../../run/opening';
import { outgoing } from '../../run/outgoing';
import type { RunRecord } from '../../run/record';
import { RunStore, StorageProblem } from '../../run/store';
import type { OpenAnswer, OpeningWorkerApi, OpenSource } from './protocol';

/** Progress is told at most this often: each report is a message to the page. */
const PROGRESS_MS = 100;

async function read(
  source: OpenSource,
  onProgress: (received: number, total: number | null) => void,
): Promise<{ record: RunRecord; address?: string }> {
  switch (source.kind) {
    case 'file': {
      const { file } = source;
      // A file's size is known before a byte is read: over the limit, none is.
      if (file.size > MAX_RECORD_BYTES) throw tooBig(file.size, MAX_RECORD_BYTES);
      const text = await file.text();
      onProgress(file.size, file.size);
      return { record: parseRecord(text, file.size) };
    }
    case 'packed':
      return { record: await unpackRecord(source.packed) };
    case 'address':
      return fetchRecordFrom(source.address, {
        onProgress,
        idleMs: source.idleMs,
        totalMs: source.totalMs,
      });
    case 'history': {
      const store = await RunStore.open();
      try {
        return { record: await store.load(source.id) };
      } finally {
        store.close();
      }
    }
  }
}

/** An error as the page can make it again. */
function problem(error: unknown): OpenAnswer {
  const kind =
    error instanceof RecordError
      ? 'record'
      : error instanceof LinkError
        ? 'link'
        : error instanceof StorageProblem
          ? 'storage'
          : 'other';
  if (error instanceof CodedError && kind !== 'other') {
    return { ok: false, kind, code: error.code, params: { ...error.params }, message: error.message };
  }
  const message = error instanceof Error ? error.message || error.name : String(error);
  return { ok: false, kind: 'other', code: '', params: {}, message };
}

const api: OpeningWorkerApi = {
  async open(source, secrets, onProgress, onEvents): Promise<OpenAnswer> {
    let told = 0;
    const progress = (received: number, total: number | null) => {
      const now = performance.now();
      if (now - told < PROGRESS_MS && received !== total) return;
      told = now;
      onProgress(received, total);
    };
    try {
      const { record: checked, address } = await read(source, progress);
      const { record, removed } = outgoing(checked, secrets);
      const { events, ...head } = record;
      // The batches go one after another on one port, so the page takes them in order, each in a
      // task of its own, while the next is being copied here; the answer waits for the last.
      const sent: Array<Promise<void> | void> = [];
      for (const batch of batches(events)) sent.push(onEvents(batch.events, batch.sizes));
      await Promise.all(sent);
      return { ok: true, head, events: events.length, removed, address };
    } catch (error) {
      return problem(error);
    }
  },
};

Comlink.expose(api);
