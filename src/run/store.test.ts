import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newRecord, type RecordEvent, type RunSettings } from './record';
import {
  CHUNK_CHARS,
  CHUNK_EVENTS,
  chunkEnds,
  INTERRUPTED,
  RecordWriter,
  RunStore,
  StorageProblem,
} from './store';
import { DEMO_SETTINGS } from '../../test/settings';

const settings: RunSettings = DEMO_SETTINGS;
const figures = { parentTokens: 300, counted: false, calls: 3, subagents: 1 };

let n = 0;
const stores: RunStore[] = [];
async function open(options: Parameters<typeof RunStore.open>[0] = {}) {
  const store = await RunStore.open({ name: `test-${n}`, locks: undefined, ...options });
  stores.push(store);
  return store;
}
afterEach(() => {
  stores.splice(0).forEach((s) => s.close());
  n++;
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function event(t: number, line: string): RecordEvent {
  return { t, type: 'log', agent: 'parent', line };
}

describe('History in IndexedDB', () => {
  it('keeps a growing record in chunks and loads it whole, newest run first', async () => {
    const store = await open();
    const older = newRecord('a', 1000, 'first prompt', settings);
    older.events.push(event(0, 'one'));
    await store.put(older, { status: { kind: 'finished' }, figures });

    const record = newRecord('b', 2000, 'second prompt', settings);
    const writer = store.keep(record, () => ({ status: { kind: 'running' }, figures }));
    record.events.push(event(0, 'x'), event(1, 'y'));
    await writer.save();
    record.events.push(event(2, 'z'));
    await writer.save();
    await writer.save(); // nothing new: no empty chunk

    expect(await store.load('b')).toEqual(record);
    const list = await store.list();
    expect(list.map((r) => [r.id, r.title, r.events, r.chunks])).toEqual([
      ['b', 'second prompt', 3, 2],
      ['a', 'first prompt', 1, 1],
    ]);
  });

  it('marks each save once stored, at the moment its events were taken, with their count', async () => {
    const store = await open();
    const record = newRecord('m', 1, 'p', settings);
    const writer = store.keep(record, () => ({ status: { kind: 'running' }, figures }));
    record.events.push(event(0, 'x'), event(1, 'y'));
    await writer.save();
    const mine = () =>
      (performance.getEntriesByName('history:saved') as PerformanceMark[]).filter(
        (m) => (m.detail as { run: string }).run === 'm',
      );
    expect(mine().map((m) => m.detail)).toEqual([{ run: 'm', events: 2 }]);
    record.events.push(event(2, 'z'));
    await writer.save();
    await writer.save(); // nothing new: nothing saved, nothing marked
    expect(mine().map((m) => m.detail)).toEqual([
      { run: 'm', events: 2 },
      { run: 'm', events: 3 },
    ]);
    expect((await store.load('m')).events).toHaveLength(3);
  });

  it('saves within a second of a change, in one batch', async () => {
    const store = await open();
    const record = newRecord('c', 1, 'p', settings);
    const writer = store.keep(record, () => ({ status: { kind: 'running' }, figures }));
    const save = vi.spyOn(writer, 'save').mockResolvedValue();
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    for (let i = 0; i < 50; i++) {
      record.events.push(event(i, `line ${i}`));
      writer.changed();
    }
    expect(save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(save).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
    save.mockRestore();
    await writer.save();
    expect((await store.load('c')).events).toHaveLength(50);
  });

  it('saves a record that changes all the time at most every GAP_MS, and its last change too', async () => {
    const store = await open();
    const record = newRecord('busy', 1, 'p', settings);
    const writer = store.keep(record, () => ({ status: { kind: 'running' }, figures }));
    const save = vi.spyOn(writer, 'save').mockResolvedValue();
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    // A page idle at every turn: an idle moment comes at once.
    vi.stubGlobal('requestIdleCallback', (task: () => void) => setTimeout(task, 0));
    // Changed at every frame for two seconds (a run of hundreds of subagents changes more often).
    for (let t = 0; t < 2000; t += 16) {
      record.events.push(event(t, `line ${t}`));
      writer.changed();
      await vi.advanceTimersByTimeAsync(16);
    }
    const during = save.mock.calls.length;
    expect(during).toBeGreaterThanOrEqual(Math.floor(2000 / RecordWriter.DELAY_MS));
    expect(during).toBeLessThanOrEqual(2000 / RecordWriter.GAP_MS + 1);
    await vi.advanceTimersByTimeAsync(RecordWriter.DELAY_MS);
    expect(save.mock.calls.length).toBe(during + 1);
  });

  it('marks a run interrupted when its page went away mid-run, keeping what was recorded', async () => {
    const before = await open({ pageId: 'page-1' });
    const record = newRecord('d', 5, 'p', settings);
    record.events.push(event(0, 'a'), event(7, 'b'));
    await before.keep(record, () => ({ status: { kind: 'running' }, figures })).save();
    before.close();

    const after = await open({ pageId: 'page-2' });
    const [summary] = await after.list();
    expect(summary.status).toEqual(INTERRUPTED);
    const loaded = await after.load('d');
    expect(loaded.events).toEqual([...record.events, { t: 7, type: 'status', status: INTERRUPTED }]);
  });

  it('does not call a run interrupted while another page holds its lock', async () => {
    const first = await open({ pageId: 'page-1' });
    const record = newRecord('e', 5, 'p', settings);
    await first.keep(record, () => ({ status: { kind: 'running' }, figures })).save();
    const locks = {
      request: vi.fn(),
      query: async () => ({ held: [{ name: 's04-run:e', mode: 'exclusive' as const }], pending: [] }),
    };
    const second = await open({ pageId: 'page-2', locks: locks as unknown as LockManager });
    expect((await second.list())[0].status).toEqual({ kind: 'running' });
  });

  it('deletes one run or all of them', async () => {
    const store = await open();
    for (const id of ['f', 'g']) {
      const record = newRecord(id, id === 'f' ? 1 : 2, id, settings);
      record.events.push(event(0, id));
      await store.put(record, { status: { kind: 'finished' }, figures });
    }
    await store.delete('g');
    expect((await store.list()).map((r) => r.id)).toEqual(['f']);
    await expect(store.load('g')).rejects.toThrow('This run is no longer in History.');
    await store.clear();
    expect(await store.list()).toEqual([]);
  });

  it('deletes several runs in one transaction, the others untouched', async () => {
    const store = await open();
    for (const [i, id] of ['p', 'q', 'r'].entries()) {
      const record = newRecord(id, i, id, settings);
      record.events.push(event(0, id));
      await store.put(record, { status: { kind: 'finished' }, figures });
    }
    const kept = await store.load('q');
    await store.delete('p', 'r');
    expect((await store.list()).map((r) => r.id)).toEqual(['q']);
    expect(await store.load('q')).toEqual(kept);
    await expect(store.load('r')).rejects.toThrow('This run is no longer in History.');
  });

  it('turns a full quota into a sentence and keeps the record in memory', async () => {
    const store = await open();
    const record = newRecord('h', 1, 'p', settings);
    record.events.push(event(0, 'a'));
    const writer = store.keep(record, () => ({ status: { kind: 'running' }, figures }));
    const problems: string[] = [];
    writer.onProblem = (p) => problems.push(`${p.code}: ${p.message}`);
    vi.spyOn(store, 'append').mockRejectedValueOnce(new DOMException('full', 'QuotaExceededError'));
    await writer.save();
    expect(problems).toEqual([
      'full: History is full: this run is not being kept. Delete older runs in History to make room.',
    ]);
    expect(record.events).toHaveLength(1);
    await writer.save(); // room again: the same events are saved then
    expect((await store.load('h')).events).toHaveLength(1);
  });

  it('says why when there is no IndexedDB at all', async () => {
    const saved = globalThis.indexedDB;
    // @ts-expect-error: a browser without IndexedDB (some private modes)
    delete globalThis.indexedDB;
    try {
      const problem = RunStore.open();
      await expect(problem).rejects.toBeInstanceOf(StorageProblem);
      await expect(problem).rejects.toMatchObject({
        code: 'noIndexedDb',
        message: 'History is off: this browser has no IndexedDB here (a private window?).',
      });
    } finally {
      globalThis.indexedDB = saved;
    }
  });
});

describe('a big save, written a bounded chunk at a time', () => {
  const lines = (count: number, chars = 10) =>
    Array.from({ length: count }, (_, i) => event(i, `${i}`.padEnd(chars, '.')));

  it('cuts events into chunks of at most CHUNK_EVENTS events and CHUNK_CHARS characters', () => {
    const many = lines(CHUNK_EVENTS * 2 + 7);
    expect(chunkEnds(many, 0, many.length)).toEqual([CHUNK_EVENTS, CHUNK_EVENTS * 2, CHUNK_EVENTS * 2 + 7]);
    expect(chunkEnds(many, 100, 150)).toEqual([150]);
    // Long lines: a chunk ends before the characters would pass CHUNK_CHARS.
    const long = lines(10, CHUNK_CHARS / 4);
    const ends = chunkEnds(long, 0, long.length);
    expect(ends).toEqual([3, 6, 9, 10]);
    // One event over the limit goes alone; nothing to save is one empty chunk.
    const huge = [event(0, 'a'), event(1, 'x'.repeat(CHUNK_CHARS + 1)), event(2, 'b')];
    expect(chunkEnds(huge, 0, 3)).toEqual([1, 2, 3]);
    expect(chunkEnds(huge, 3, 3)).toEqual([3]);
  });

  it('stores a save of many events as several chunks, in order, each with the row, and marks it once', async () => {
    const store = await open();
    const record = newRecord('big', 1, 'p', settings);
    const writer = store.keep(record, () => ({ status: { kind: 'running' }, figures }));
    const appended: [number, number][] = [];
    const append = store.append.bind(store);
    vi.spyOn(store, 'append').mockImplementation(async (r, from, seq, summary, to) => {
      appended.push([from, to ?? r.events.length]);
      await append(r, from, seq, summary, to);
    });
    record.events.push(event(0, 'first'));
    await writer.save();
    record.events.push(...lines(CHUNK_EVENTS * 2 + 10));
    await writer.save();
    const total = CHUNK_EVENTS * 2 + 11;
    expect(appended).toEqual([
      [0, 1],
      [1, 1 + CHUNK_EVENTS],
      [1 + CHUNK_EVENTS, 1 + CHUNK_EVENTS * 2],
      [1 + CHUNK_EVENTS * 2, total],
    ]);
    expect(await store.load('big')).toEqual(record);
    const [summary] = await store.list();
    expect([summary.events, summary.chunks]).toEqual([total, 4]);
    const marks = (performance.getEntriesByName('history:saved') as PerformanceMark[])
      .map((m) => m.detail as { run: string; events: number })
      .filter((d) => d.run === 'big');
    expect(marks).toEqual([
      { run: 'big', events: 1 },
      { run: 'big', events: total },
    ]);
  });

  it('leaves a run that reads as interrupted, with every stored event, when the page goes mid-save', async () => {
    const before = await open({ pageId: 'page-1' });
    const record = newRecord('cut', 5, 'p', settings);
    let status: { kind: 'running' } | { kind: 'finished' } = { kind: 'running' };
    const writer = before.keep(record, () => ({ status, figures }));
    record.events.push(...lines(CHUNK_EVENTS + 20));
    status = { kind: 'finished' };
    const append = before.append.bind(before);
    const seen: string[] = [];
    vi.spyOn(before, 'append').mockImplementation(async (r, from, seq, summary, to) => {
      seen.push(summary.status.kind);
      if (seq === 1) throw new DOMException('the page went away', 'AbortError');
      await append(r, from, seq, summary, to);
    });
    const problems: string[] = [];
    writer.onProblem = (p) => problems.push(p.code);
    await writer.save();
    expect(seen).toEqual(['running', 'finished']);
    expect(problems).toEqual(['blocked']);
    before.close();

    const after = await open({ pageId: 'page-2' });
    const [summary] = await after.list();
    expect(summary.status).toEqual(INTERRUPTED);
    expect(summary.events).toBe(CHUNK_EVENTS + 1);
    const loaded = await after.load('cut');
    expect(loaded.events.slice(0, -1)).toEqual(record.events.slice(0, CHUNK_EVENTS));
    expect(loaded.events.at(-1)).toMatchObject({ type: 'status', status: INTERRUPTED });
  });
});
