import { describe, expect, it } from 'vitest';
import type { Connect } from 'vite';
import { framePolicy } from './frame-policy.ts';

/** The headers the plugin's middleware sets for a request to `url` (with `Sec-Fetch-Dest: dest`). */
function headersFor(url: string, dest?: string): Record<string, string> {
  const set: Record<string, string> = {};
  let middleware: Connect.NextHandleFunction | undefined;
  const server = { middlewares: { use: (m: Connect.NextHandleFunction) => (middleware = m) } };
  (framePolicy().configurePreviewServer as (s: typeof server) => void)(server);
  let passed = false;
  middleware!(
    { url, headers: dest ? { 'sec-fetch-dest': dest } : {} } as Connect.IncomingMessage,
    { setHeader: (name: string, value: string) => (set[name] = value) } as never,
    () => (passed = true),
  );
  expect(passed).toBe(true);
  return set;
}

describe("the dev and preview servers' framing policy", () => {
  it("keeps the whole playground's page out of any frame", () => {
    for (const [url, dest] of [
      ['/', 'document'],
      ['/?sample=typescript', 'iframe'],
      ['/index.html', undefined],
      ['/?embed=0', 'document'],
    ] as const) {
      expect(headersFor(url, dest), url).toEqual({
        'Content-Security-Policy': "frame-ancestors 'none'",
        'X-Frame-Options': 'DENY',
      });
    }
  });

  it("leaves the embed's page frameable, and says nothing on scripts and workers", () => {
    expect(headersFor('/?embed=1#run=abc', 'iframe')).toEqual({});
    expect(headersFor('/?step=3&embed=1', 'document')).toEqual({});
    expect(headersFor('/assets/index-abc.js', 'script')).toEqual({});
    expect(headersFor('/assets/sandbox-abc.js', 'worker')).toEqual({});
  });
});
