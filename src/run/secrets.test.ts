import { describe, expect, it } from 'vitest';
import { endpointsOf, looksLikeKey, redactRecord, Redactor, redactURL } from './secrets';

describe('redactURL', () => {
  it('keeps scheme, host, port and plain path parts of an address', () => {
    expect(redactURL('https://api.deepseek.com/anthropic')).toEqual({
      url: 'https://api.deepseek.com/anthropic',
      removed: [],
      secrets: [],
    });
    expect(redactURL('http://127.0.0.1:8080/v1/').url).toBe('http://127.0.0.1:8080/v1/');
    expect(redactURL('https://api.anthropic.com').url).toBe('https://api.anthropic.com');
  });

  it('takes out the user name, password, query and fragment and says so', () => {
    const out = redactURL('https://user:secretpw@host.example/v1?token=abcdef123&x=1#frag');
    expect(out.url).toBe('https://host.example/v1');
    expect(out.removed).toEqual(['userName', 'password', 'query', 'fragment']);
    expect(out.secrets.map((s) => s.text)).toEqual(['user', 'secretpw', 'abcdef123', '1', 'frag']);
  });

  it('takes out a path part after /key/ or /token/, and one that looks like a random key', () => {
    expect(redactURL('https://host.example/key/abc/v1').url).toBe('https://host.example/key/[redacted]/v1');
    expect(redactURL('https://host.example/Token/xyz').url).toBe('https://host.example/Token/[redacted]');
    const random = 'a1B2c3D4e5F6g7H8i9J0k1';
    expect(redactURL(`https://host.example/proxy/${random}/anthropic`)).toMatchObject({
      url: 'https://host.example/proxy/[redacted]/anthropic',
      removed: ['pathSecret'],
    });
    expect(redactURL('https://host.example/sk-abcdefgh12/x').url).toBe('https://host.example/[redacted]/x');
  });

  it('leaves words and short ids in a path alone', () => {
    expect(looksLikeKey('anthropic')).toBe(false);
    expect(looksLikeKey('v1')).toBe(false);
    expect(looksLikeKey('messages-and-more-words')).toBe(false);
    expect(looksLikeKey('9f8e7d6c5b4a39281706f5e4')).toBe(true);
  });

  it('takes the user name out of an address that does not parse', () => {
    expect(redactURL('http://me:pw@[bad/').url).toBe('http://[bad/');
  });
});

describe('Redactor', () => {
  const endpoint = 'http://user:secretpw@127.0.0.1:9/key/k3yp4th?token=qwerty123';

  it("removes the endpoint's secrets from a failure's reason", () => {
    const redactor = new Redactor({ endpoints: [endpoint], apiKey: 'sk-live-1234' });
    const reason = `Could not reach ${endpoint}: connection error. Check the base URL.`;
    const clean = redactor.text(reason);
    expect(clean).toBe(
      'Could not reach http://127.0.0.1:9/key/[redacted] connection error. Check the base URL.',
    );
    for (const secret of ['user', 'secretpw', 'k3yp4th', 'qwerty123']) expect(clean).not.toContain(secret);
    expect([...redactor.removed].sort()).toEqual(['password', 'pathSecret', 'query', 'userName']);
  });

  it('removes the key, a bearer token and secret parts written on their own', () => {
    const redactor = new Redactor({ endpoints: [endpoint], apiKey: 'sk-live-1234' });
    expect(redactor.text('key sk-live-1234, Authorization: Bearer abcdefghijkl, pw secretpw')).toBe(
      'key [redacted], Authorization: Bearer [redacted], pw [redacted]',
    );
    expect([...redactor.removed].sort()).toEqual(['apiKey', 'credential', 'password']);
  });

  it("takes the user name and password out of any address, but keeps other addresses' queries", () => {
    const redactor = new Redactor();
    expect(redactor.text('see https://a:b@docs.example/x?q=1 and https://docs.example/y?q=2')).toBe(
      'see https://docs.example/x?q=1 and https://docs.example/y?q=2',
    );
  });

  it('changes nothing in text without secrets', () => {
    const redactor = new Redactor({ endpoints: ['https://api.anthropic.com'], apiKey: '' });
    const text = 'Call https://api.anthropic.com/v1/messages, role user';
    expect(redactor.text(text)).toBe(text);
    expect(redactor.removed.size).toBe(0);
  });
});

describe('redactRecord', () => {
  const record = {
    settings: { baseURL: 'https://u:p4ssword@host.example/v1?key=zzzzzz1' },
    events: [
      { type: 'run', settings: { baseURL: 'https://u:p4ssword@host.example/v1?key=zzzzzz1' } },
      {
        type: 'status',
        status: { kind: 'failed', reason: 'Could not reach https://u:p4ssword@host.example/v1?key=zzzzzz1' },
      },
      {
        type: 'message',
        message: { content: [{ type: 'text', text: 'hello' }], headers: { authorization: 'Bearer x' } },
      },
    ],
  };

  it('copies the record without any secret, leaving the one given unchanged', () => {
    const redactor = new Redactor({ endpoints: endpointsOf(record) });
    const before = JSON.stringify(record);
    const clean = redactRecord(record, redactor);
    expect(JSON.stringify(record)).toBe(before);
    const text = JSON.stringify(clean);
    for (const secret of ['p4ssword', 'zzzzzz1', 'u:', 'authorization']) expect(text).not.toContain(secret);
    expect(clean.settings.baseURL).toBe('https://host.example/v1');
    expect(clean.events[1]).toEqual({
      type: 'status',
      status: { kind: 'failed', reason: 'Could not reach https://host.example/v1' },
    });
    expect([...redactor.removed].sort()).toEqual(['credential', 'password', 'query', 'userName']);
  });

  it('returns the same record when nothing is secret', () => {
    const plain = { settings: { baseURL: 'https://api.anthropic.com' }, events: [{ type: 'run', t: 1 }] };
    expect(redactRecord(plain, new Redactor({ endpoints: endpointsOf(plain) }))).toBe(plain);
  });

  it('goes through nesting deeper than a recursive walk could', () => {
    let deep: unknown = 'https://a:b@x.example/';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const clean = redactRecord({ deep }, new Redactor()) as { deep: unknown };
    let inner = clean.deep;
    while (Array.isArray(inner)) inner = inner[0];
    expect(inner).toBe('https://x.example/');
  });
});
