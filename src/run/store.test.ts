import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newRecord, type RecordEvent, type RunSettings } from './record';
import { INTERRUPTED, RunStore, StorageProblem } from './store';
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
