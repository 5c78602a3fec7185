/**
 * The verdict on one test suite, from its runner's exit status and its JSON report's counts.
 * Kept apart from scripts/test-all.mjs so that a unit test can check it.
 */

/**
 * What a suite adds to the totals: its passed and failed tests, and whether it failed as a whole.
 * A suite that ran nothing (0 passed, 0 failed: a filter that matched nothing, a config that found
 * no files) fails, as does one whose runner failed without a failed test or wrote no report.
 * @param {{ ok: boolean, counts: [number, number] | null }} run the runner's success, and
 *   `[passed, failed]` from its report (null when it wrote none)
 * @returns {{ passed: number, failed: number, failedSuite: boolean, reason: string }}
 */
export function suiteVerdict({ ok, counts }) {
  if (!counts) return { passed: 0, failed: 1, failedSuite: true, reason: 'no report' };
  const [passed, failed] = counts;
  if (failed > 0) return { passed, failed, failedSuite: true, reason: `${failed} failed` };
  if (passed === 0) return { passed, failed: 1, failedSuite: true, reason: 'no test ran' };
  if (!ok) return { passed, failed: 1, failedSuite: true, reason: 'the runner failed' };
  return { passed, failed: 0, failedSuite: false, reason: '' };
}
