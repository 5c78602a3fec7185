import { describe, expect, it } from 'vitest';
import { MAX_RECORD_BYTES, RecordError } from './check';
import { fetchRecord, fetchRecordFrom, recordAddress } from './fetch-record';
import { LinkError } from './link';
import { newRecord, type RunRecord } from './record';
import { DEMO_SETTINGS } from '../../test/settings';

const record: RunRecord = {
  ...newRecord('run-1', 1_700_000_000_000, 'find the tests', DEMO_SETTINGS),
  events: [{ t: 0, type: 'status', status: { kind: 'finished' } }],
};

/** A fetch answering every request with `response`, keeping what it was asked. */
function answering(response: () => Response) {
  const asked: Array<{ url: string; init?: RequestInit }> = [];
  const fetch = (async (url: URL, init?: RequestInit) => {
    asked.push({ url: String(url), init });
    return response();
  }) as unknown as typeof globalThis.fetch;
  return { fetch, asked };
}

async function refusal(raw: string, fetch: typeof globalThis.fetch): Promise<LinkError | RecordError> {
  return fetchRecord(raw, { fetch }).then(
    () => {
      throw new Error('opened');
    },
    (error: LinkError | RecordError) => error,
  );
}

describe('a run opened by its address', () => {
  it('is fetched with CORS and without cookies, and checked as an import', async () => {
    const { fetch, asked } = answering(() => new Response(JSON.stringify(record)));
    expect(await fetchRecord('https://gist.example/raw/run.json', { fetch })).toEqual(record);
    expect(asked).toHaveLength(1);
    expect(asked[0].init).toMatchObject({ mode: 'cors', credentials: 'omit', referrerPolicy: 'no-referrer' });
  });

  it('takes https anywhere and http on this machine only; nothing else is fetched', async () => {
    for (const ok of [
      'https://a.example/r.json',
      'http://127.0.0.2:8080/r.json',
      'http://localhost/r',
      'http://[::1]:1/r',
    ]) {
      expect(recordAddress(ok).href).toBe(new URL(ok).href);
    }
    const { fetch, asked } = answering(() => new Response('{}'));
    for (const bad of [
      'http://example.com/r.json',
      'http://10.0.0.1/r.json',
      'file:///etc/passwd',
      'javascript:1',
      'run.json',
      'https://user:pw@a.example/r',
    ]) {
      const error = await refusal(bad, fetch);
      expect(error, bad).toBeInstanceOf(LinkError);
      expect(error.code).toBe('address');
    }
    expect(asked).toEqual([]);
  });

  it('names an HTTP error by its status', async () => {
    const { fetch } = answering(() => new Response('no', { status: 404, statusText: 'Not Found' }));
    const error = await refusal('https://a.example/missing.json', fetch);
    expect(error.code).toBe('status');
    expect(error.message).toBe('the server answered 404 Not Found');
  });

  it('names a server that does not answer or allow CORS', async () => {
    const fetch = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof globalThis.fetch;
    expect((await refusal('https://a.example/r.json', fetch)).code).toBe('unreachable');
  });

  it('refuses a file over the size of a run file, announced or not, without reading it all', async () => {
    const announced = answering(
      () => new Response('{}', { headers: { 'content-length': String(MAX_RECORD_BYTES + 1) } }),
    );
    expect((await refusal('https://a.example/big.json', announced.fetch)).code).toBe('tooBig');

    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024 * 1024).fill(0x20));
      },
    });
    const streamed = answering(() => new Response(endless));
    const error = await refusal('https://a.example/endless.json', streamed.fetch);
    expect(error).toBeInstanceOf(RecordError);
    expect(error.code).toBe('tooBig');
    expect(pulled).toBeLessThan(30);
  });

  it('names a file that is not a run as an import does', async () => {
    const { fetch } = answering(() => new Response('<html>a page</html>'));
    const error = await refusal('https://a.example/page.html', fetch);
    expect(error).toBeInstanceOf(RecordError);
    expect(error.code).toBe('notJsonToken');
  });

  it('follows a redirect only to an address record= takes, and says where the run was read', async () => {
    /** A response as fetch gives it after following redirects to `url`. */
    const movedTo = (url: string) => () => {
      const response = new Response(JSON.stringify(record));
      Object.defineProperty(response, 'url', { value: url });
      Object.defineProperty(response, 'redirected', { value: true });
      return response;
    };
    const followed = answering(movedTo('https://files.example/run.json'));
    expect(await fetchRecordFrom('https://a.example/r.json', { fetch: followed.fetch })).toEqual({
      record,
      address: 'https://files.example/run.json',
    });
    expect(followed.asked[0].init).toMatchObject({ redirect: 'follow' });
    for (const away of ['http://files.example/run.json', 'http://10.0.0.1/run.json']) {
      const error = await refusal('https://a.example/r.json', answering(movedTo(away)).fetch);
      expect(error.code, away).toBe('redirect');
      expect(error.message).toBe(
        `the server sent it on to ${away}, an address record= does not take (https, or http on this machine only)`,
      );
    }
  });

  /** A fetch that never answers until it is aborted, as a silent server. */
  const silent = (async (_url: URL, init?: RequestInit) =>
    new Promise((_resolve, reject) =>
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
    )) as unknown as typeof globalThis.fetch;

  it('gives up on a server silent for the idle wait, and on one too slow in all, with a sentence', async () => {
    const quiet = await fetchRecord('https://a.example/r.json', { fetch: silent, idleMs: 20 }).catch(
      (e) => e,
    );
    expect(quiet).toBeInstanceOf(LinkError);
    expect(quiet.code).toBe('silent');
    expect(quiet.params).toEqual({ seconds: 0 });

    // A byte now and then keeps the idle wait from ending; the whole wait ends it.
    const trickle = answering(() => {
      let timer: ReturnType<typeof setInterval>;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          timer = setInterval(() => controller.enqueue(new Uint8Array([0x20])), 5);
        },
        cancel: () => clearInterval(timer),
      });
      return new Response(body);
    });
    const progress: number[] = [];
    const slow = await fetchRecord('https://a.example/r.json', {
      fetch: trickle.fetch,
      idleMs: 1000,
      totalMs: 60,
      onProgress: (received) => progress.push(received),
    }).catch((e) => e);
    expect(slow.code).toBe('slow');
    expect(slow.message).toMatch(/^the file took more than 0\.1 s to arrive/);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('is cancelled by its signal, with a sentence of its own', async () => {
    const cancel = new AbortController();
    const fetching = fetchRecord('https://a.example/r.json', { fetch: silent, signal: cancel.signal }).catch(
      (e) => e,
    );
    cancel.abort();
    const error = await fetching;
    expect(error.code).toBe('cancelled');
    expect(error.message).toBe('fetching it was cancelled');
  });
});
