/**
 * A long-lived worker's failure raced against call after call: a settled call is let go of (the
 * parent's worker runs every prompt of a page), and a failure still ends the calls waiting.
 */
import { describe, expect, it } from 'vitest';
import { FailureRace } from './worker-failure';

/** A failure that comes only when `fail` is called, as a worker's does. */
function failing() {
  let fail: (error: Error) => void = () => {};
  const failure = new Promise<never>((_resolve, reject) => (fail = reject));
  return { race: new FailureRace(failure), fail };
}

describe('FailureRace', () => {
  it('answers with each call, and keeps none of them once settled', async () => {
    const { race } = failing();
    for (let call = 1; call <= 50; call++) await expect(race.race(Promise.resolve(call))).resolves.toBe(call);
    await expect(race.race(Promise.reject(new Error('the run failed')))).rejects.toThrow('the run failed');
    expect(race.waiting).toBe(0);
  });

  it("rejects the calls still waiting with the worker's failure", async () => {
    const { race, fail } = failing();
    const settled = race.race(Promise.resolve('done'));
    const first = race.race(new Promise(() => {}));
    const second = race.race(new Promise(() => {}));
    await expect(settled).resolves.toBe('done');
    expect(race.waiting).toBe(2);
    fail(new Error('the parent worker failed'));
    await expect(first).rejects.toThrow('the parent worker failed');
    await expect(second).rejects.toThrow('the parent worker failed');
    expect(race.waiting).toBe(0);
  });

  it('a call made after the failure fails at once', async () => {
    const { race, fail } = failing();
    fail(new Error('the parent worker failed'));
    await expect(race.race(new Promise(() => {}))).rejects.toThrow('the parent worker failed');
    await expect(race.race(new Promise(() => {}))).rejects.toThrow('the parent worker failed');
    expect(race.waiting).toBe(0);
  });
});
