import { describe, expect, it } from 'vitest';
import { suiteVerdict } from '../scripts/verdict.mjs';

describe("npm test's verdict on a suite (scripts/verdict.mjs)", () => {
  it('passes a suite whose runner succeeded with passed tests and none failed', () => {
    expect(suiteVerdict({ ok: true, counts: [12, 0] })).toEqual({
      passed: 12,
      failed: 0,
      failedSuite: false,
      reason: '',
    });
  });

  it('fails a suite that reported 0 passed and 0 failed, even when its runner exited 0', () => {
    const verdict = suiteVerdict({ ok: true, counts: [0, 0] });
    expect(verdict.failedSuite).toBe(true);
    expect(verdict.failed).toBe(1);
    expect(verdict.reason).toBe('no test ran');
  });

  it('counts failed tests as they are', () => {
    expect(suiteVerdict({ ok: false, counts: [3, 2] })).toMatchObject({
      passed: 3,
      failed: 2,
      failedSuite: true,
    });
  });

  it('fails a suite whose runner failed without a failed test (a crash, a forbidden test.only)', () => {
    expect(suiteVerdict({ ok: false, counts: [5, 0] })).toMatchObject({
      passed: 5,
      failed: 1,
      failedSuite: true,
    });
  });

  it('fails a suite that wrote no report', () => {
    expect(suiteVerdict({ ok: true, counts: null })).toMatchObject({
      failed: 1,
      failedSuite: true,
      reason: 'no report',
    });
  });
});
