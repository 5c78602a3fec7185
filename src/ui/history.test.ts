import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newRecord, type RunSettings } from '../run/record';
import { RunStore, StorageProblem } from '../run/store';
import { History } from './history.svelte';
import { DEMO_SETTINGS } from '../../test/settings';

const settings: RunSettings = DEMO_SETTINGS;
const figures = { parentTokens: 300, counted: false, calls: 3, subagents: 1 };

let n = 0;
let name = '';
const stores: RunStore[] = [];
/** A History over its own database; a second one on the same name is the page after a reload. */
function history(): History {
  return new History(async () => {
    const store = await RunStore.open({ name, locks: undefined });
    stores.push(store);
    return store;
  });
}

/** Keeps runs a (oldest), b, c (newest), each with a few events. */
async function keep(ids = ['a', 'b', 'c']): Promise<void> {
  const store = await RunStore.open({ name, locks: undefined });
  stores.push(store);
  for (const [i, id] of ids.entries()) {
    const record = newRecord(id, 1000 * (i + 1), `prompt ${id}`, settings);
    for (let e = 0; e < 5; e++)
      record.events.push({ t: e, type: 'log', agent: 'parent', line: `${id} ${e}` });
    await store.put(record, { status: { kind: 'finished' }, figures });
  }
}

/** What IndexedDB holds: every run's id and whole record, newest first. */
async function stored() {
  const store = await RunStore.open({ name, locks: undefined });
  stores.push(store);
  const list = await store.list();
  return Promise.all(list.map(async (run) => ({ run, record: await store.load(run.id) })));
}

const ids = (h: History) => h.runs.map((r) => r.id);

beforeEach(() => {
  name = `history-${n++}`;
});
afterEach(() => {
  vi.useRealTimers();
  stores.splice(0).forEach((s) => s.close());
});

describe('History: Delete and Undo', () => {
  it('Delete takes the run off the list only; Undo lists it again, exactly, where it was', async () => {
    await keep();
    const before = await stored();
    const h = history();
    h.shown(true);
    await h.refresh();
    expect(ids(h)).toEqual(['c', 'b', 'a']);

    h.delete('b');
    expect(ids(h)).toEqual(['c', 'a']);
    expect(h.deletions).toEqual([{ runs: [before[1].run], all: false }]);
    await h.refresh(); // a save of a live run re-reads the list: the deleted run stays off it
    expect(ids(h)).toEqual(['c', 'a']);

    expect(h.undo()?.runs.map((r) => r.id)).toEqual(['b']);
    expect(ids(h)).toEqual(['c', 'b', 'a']);
    expect(h.runs).toEqual(before.map((s) => s.run));
    expect(await stored()).toEqual(before);
    expect(h.undo()).toBeUndefined();
    h.shown(false);
  });

  it('the run leaves IndexedDB only once its Undo has been on screen for UNDO_MS', async () => {
    await keep();
    const h = history();
    await h.refresh();
    h.shown(true);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    h.delete('b');
    await vi.advanceTimersByTimeAsync(History.UNDO_MS - 1);
    expect(h.deletions).toHaveLength(1);
    expect((await stored()).map((s) => s.run.id)).toEqual(['c', 'b', 'a']);

    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(async () => expect((await stored()).map((s) => s.run.id)).toEqual(['c', 'a']));
    expect(h.deletions).toEqual([]);
    expect(ids(h)).toEqual(['c', 'a']);
    await h.refresh();
    expect(ids(h)).toEqual(['c', 'a']);
  });

  it('the window counts only while History is open, and starts again when it is opened', async () => {
    await keep();
    const h = history();
    await h.refresh();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    h.shown(true);
    h.delete('a');
    await vi.advanceTimersByTimeAsync(History.UNDO_MS - 1000);
    h.shown(false); // the dialog is closed: nobody can see the Undo
    await vi.advanceTimersByTimeAsync(10 * History.UNDO_MS);
    expect(h.deletions).toHaveLength(1);
    h.shown(true);
    await vi.advanceTimersByTimeAsync(History.UNDO_MS - 1);
    expect(h.undo()?.runs.map((r) => r.id)).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(10 * History.UNDO_MS);
    expect((await stored()).map((s) => s.run.id)).toEqual(['c', 'b', 'a']);
  });

  it('a page closed during the window keeps the run: the next page lists it', async () => {
    await keep();
    const before = await stored();
    const h = history();
    await h.refresh();
    h.shown(true);
    h.delete('c');
    h.deleteAll();
    expect(h.runs).toEqual([]);

    const next = history(); // the page after a reload
    await next.refresh();
    expect(next.runs).toEqual(before.map((s) => s.run));
    expect(await stored()).toEqual(before);
    h.shown(false);
  });

  it('deletions one after another each stay undoable, the latest first, and the window restarts', async () => {
    await keep();
    const h = history();
    await h.refresh();
    h.shown(true);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    h.delete('a');
    await vi.advanceTimersByTimeAsync(History.UNDO_MS - 1000);
    h.delete('c'); // the first deletion is not committed under the second
    await vi.advanceTimersByTimeAsync(History.UNDO_MS - 1000);
    expect(ids(h)).toEqual(['b']);
    expect(h.deletions.map((d) => d.runs.map((r) => r.id))).toEqual([['a'], ['c']]);

    expect(h.undo()?.runs.map((r) => r.id)).toEqual(['c']);
    expect(ids(h)).toEqual(['c', 'b']);
    await vi.advanceTimersByTimeAsync(History.UNDO_MS - 1000);
    expect(h.undo()?.runs.map((r) => r.id)).toEqual(['a']);
    expect(ids(h)).toEqual(['c', 'b', 'a']);
    expect(h.deletions).toEqual([]);
  });

  it('Delete all is one deletion, undone at once; a run kept after it is not deleted with it', async () => {
    await keep();
    const before = await stored();
    const h = history();
    await h.refresh();
    h.shown(true);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect(h.deleteAll()).toBe(3);
    expect(h.runs).toEqual([]);
    expect(h.deletions).toEqual([{ runs: before.map((s) => s.run), all: true }]);
    expect(h.undo()?.runs).toHaveLength(3);
    expect(h.runs).toEqual(before.map((s) => s.run));

    // Only the runs the confirmation named are deleted, not one kept in the meantime.
    const named = h.runs;
    vi.useRealTimers();
    await keep(['d']);
    await h.refresh();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect(h.deleteAll(named)).toBe(3);
    expect(ids(h)).toEqual(['d']);
    await vi.advanceTimersByTimeAsync(History.UNDO_MS);
    vi.useRealTimers();
    await vi.waitFor(async () => expect((await stored()).map((s) => s.run.id)).toEqual(['d']));
    expect(ids(h)).toEqual(['d']);
  });

  it('a deletion that IndexedDB refuses is said in a sentence, and the runs are listed again', async () => {
    await keep();
    const h = history();
    await h.refresh();
    const store = (await h.store())!;
    vi.spyOn(store, 'delete').mockRejectedValueOnce(new StorageProblem('blocked', { detail: 'no access' }));
    h.delete('b');
    await h.commit();
    expect(h.deleteProblem).toEqual({
      key: 'history.notDeleted',
      params: { count: 1, reason: { key: 'storage.blocked', params: { detail: 'no access' } } },
    });
    expect(ids(h)).toEqual(['c', 'b', 'a']);
    expect((await stored()).map((s) => s.run.id)).toEqual(['c', 'b', 'a']);
  });
});

describe('History: a live run is held', () => {
  it("holds a kept run's lock until its record grows no more on this page", async () => {
    let held: Promise<unknown> | undefined;
    const locks = {
      request: vi.fn((_name: string, hold: () => Promise<unknown>) => (held = hold())),
      query: async () => ({ held: [], pending: [] }),
    };
    const kept = new History(() => RunStore.open({ name, locks: locks as unknown as LockManager }));
    const record = newRecord('live', 1, 'prompt', settings);
    const keeper = kept.keep(record, () => ({ status: { kind: 'running' }, figures }));
    await keeper.save();
    expect(locks.request).toHaveBeenCalledWith('s04-run:live', expect.any(Function));
    let released = false;
    void held!.then(() => (released = true));
    await Promise.resolve();
    expect(released).toBe(false);
    keeper.done();
    await held;
    expect(released).toBe(true);
  });
});
