/** What a suite adds to the totals (scripts/verdict.mjs). */
export function suiteVerdict(run: { ok: boolean; counts: [number, number] | null }): {
  passed: number;
  failed: number;
  failedSuite: boolean;
  reason: string;
};
