import { describe, expect, it } from 'vitest';
import { callMark, DemoGate } from './gate';

/** A call at the gate, and whether it has gone through yet. */
function arrive(gate: DemoGate, mark: number, signal?: AbortSignal) {
  const call = { passed: false, done: undefined as unknown as Promise<void> };
  call.done = gate.pass(mark, signal).then(() => {
    call.passed = true;
  });
  return call;
}

/** Resolves after several of a held call's looks at the gate (every 20 ms). */
const looks = () => new Promise((resolve) => setTimeout(resolve, 100));

const parentCall = callMark(1, false);
const childCall = callMark(1, true);

describe('DemoGate', () => {
  it('holds a call from the moment it arrives: its mark is in the cell before anything is awaited', () => {
    const gate = DemoGate.create()!;
    gate.close();
    void arrive(gate, childCall);
    expect(Atomics.load(gate.cell, 0)).toBe(childCall);
  });

  it('lets a call go only once the page releases that call, not one released before it arrived', async () => {
    const gate = DemoGate.create()!;
    gate.close();
    // The page saw the parent's call start and let it go before the call reached the gate
    // (it had passed while the gate was open): nothing is left over for the next call.
    expect(gate.release(parentCall)).toBe(false);
    // The subagent's first call arrives before the page has recorded anything of its task.
    const child = arrive(gate, childCall);
    await looks();
    expect(child.passed).toBe(false);
    // Releasing another call (the parent's, seen again) does not let it go either.
    expect(gate.release(parentCall)).toBe(false);
    await looks();
    expect(child.passed).toBe(false);
    // The page saw it start and went on: it goes, and the gate is shut behind it.
    expect(gate.release(childCall)).toBe(true);
    await child.done;
    const next = arrive(gate, callMark(3, true));
    await looks();
    expect(next.passed).toBe(false);
    gate.open();
    await next.done;
  });

  it('keeps a held call held when shut again, lets everything through when opened', async () => {
    const gate = DemoGate.create()!;
    const free = arrive(gate, parentCall);
    await free.done;
    gate.close();
    const held = arrive(gate, childCall);
    await looks();
    gate.close();
    expect(gate.isOpen).toBe(false);
    expect(gate.release(childCall)).toBe(true);
    await held.done;
    gate.close();
    const opened = arrive(gate, callMark(3, true));
    await looks();
    gate.open();
    await opened.done;
    expect(gate.isOpen).toBe(true);
  });

  it('stops waiting when stopped, and leaves the gate shut for the next call', async () => {
    const gate = DemoGate.create()!;
    gate.close();
    const controller = new AbortController();
    const stopped = gate.pass(childCall, controller.signal);
    controller.abort();
    await expect(stopped).rejects.toThrow('Stopped');
    expect(Atomics.load(gate.cell, 0)).toBe(0);
  });

  it('tells calls apart by the messages they send and by who sends them', () => {
    const marks = [callMark(1, false), callMark(1, true), callMark(3, false), callMark(3, true)];
    expect(new Set(marks).size).toBe(4);
    expect(marks.every((mark) => mark > 0)).toBe(true);
  });
});
