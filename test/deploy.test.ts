import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ISOLATION_HEADERS as STATIC_HOST_HEADERS } from '../scripts/serve-static.mjs';
import { ISOLATION_HEADERS } from '../src/sandbox/isolation';

/** The hosts' header files say what the dev server, the preview and the service worker send. */
describe('header files for static hosts', () => {
  it('public/_headers (Netlify, Cloudflare Pages) isolates every path', () => {
    const lines = readFileSync(new URL('../public/_headers', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'));
    const all = lines.indexOf('/*');
    expect(all).toBeGreaterThanOrEqual(0);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(all + 1)) {
      if (!line.startsWith(' ')) break;
      const [name, ...value] = line.trim().split(':');
      headers[name] = value.join(':').trim();
    }
    expect(headers).toEqual(ISOLATION_HEADERS);
  });

  it('vercel.json isolates every path', () => {
    const config = JSON.parse(readFileSync(new URL('../vercel.json', import.meta.url), 'utf8')) as {
      headers: Array<{ source: string; headers: Array<{ key: string; value: string }> }>;
    };
    const all = config.headers.find((rule) => rule.source === '/(.*)');
    expect(Object.fromEntries(all!.headers.map((h) => [h.key, h.value]))).toEqual(ISOLATION_HEADERS);
  });

  it('scripts/serve-static.mjs --isolation sends the same', () => {
    expect(STATIC_HOST_HEADERS).toEqual(ISOLATION_HEADERS);
  });
});
