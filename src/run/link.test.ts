import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parentCallsRecord } from '../../scripts/records.mjs';
import { MAX_RECORD_BYTES, RecordError } from './check';
import {
  fragmentLink,
  fromBase64Url,
  LINK_MAX_CHARS,
  LinkError,
  packedIn,
  packRecord,
  recordLink,
  shareable,
  toBase64Url,
  unpackRecord,
} from './link';
import { newRecord, REFERENCE_LIMITS, type RecordEvent, type RunRecord, type RunSettings } from './record';

const settings: RunSettings = {
  provider: 'anthropic',
  model: 'claude-test',
  baseURL: 'https://llm.internal.example/v1',
  sample: 'python',
  sandbox: 'local',
  context: 'isolated',
  limits: REFERENCE_LIMITS,
};

function run(): RunRecord {
  const r = newRecord('run-1', 1_700_000_000_000, 'find the tests ✓ 测试', settings);
  const events: RecordEvent[] = [
    { t: 0, type: 'run', prompt: 'find the tests ✓ 测试', settings },
    { t: 1, type: 'status', status: { kind: 'running' } },
    {
      t: 2,
      type: 'message',
      agent: 'parent',
      index: 0,
      message: { role: 'user', content: 'find the tests ✓ 测试' },
    },
    { t: 3, type: 'status', status: { kind: 'finished' } },
  ];
  return { ...r, events };
}

/** What unpackRecord refuses a packed text with. */
async function refusal(packed: string): Promise<unknown> {
  return unpackRecord(packed).then(
    () => 'opened',
    (error: unknown) => error,
  );
}

describe('a run packed into a link', () => {
  it('comes back as the same record, non-ASCII text included', async () => {
    const record = run();
    const packed = await packRecord(JSON.stringify(record));
    expect(packed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await unpackRecord(packed)).toEqual(record);
  });

  it('is compressed: a record of 200 model calls fits in a link', async () => {
    const record = parentCallsRecord(100, 100);
    const json = JSON.stringify(record);
    const packed = await packRecord(json);
    expect(packed.length).toBeLessThan(json.length / 10);
    expect(packed.length).toBeLessThan(LINK_MAX_CHARS);
    expect(await unpackRecord(packed)).toEqual(record);
  });

  it('carries no endpoint: neither in the settings nor in a run event', () => {
    const shared = shareable(run());
    expect(JSON.stringify(shared)).not.toContain('llm.internal.example');
    expect(shared.settings.model).toBe('claude-test');
    expect(shared.events).toHaveLength(4);
  });

  it('refuses a damaged or truncated fragment by name', async () => {
    const packed = await packRecord(JSON.stringify(run()));
    for (const broken of [
      packed.slice(0, Math.floor(packed.length / 2)), // cut short
      packed.slice(0, -1),
      `${packed.slice(0, 10)}!${packed.slice(11)}`, // a character a link cannot hold
      'AAAAAAAA', // base64url, but not deflate
      '',
    ]) {
      const error = await refusal(broken);
      expect(error, broken.slice(0, 20)).toBeInstanceOf(LinkError);
      expect((error as LinkError).code).toBe('damaged');
    }
  });

  it('checks what it unpacks as an import does', async () => {
    const notRun = await refusal(toBase64Url(deflateRawSync('{"format":"other"}')));
    expect(notRun).toBeInstanceOf(RecordError);
    expect((notRun as RecordError).code).toBe('wrongFormat');
    const withKey = { ...run(), apiKey: 'sk-ant-secret' };
    const secret = await refusal(toBase64Url(deflateRawSync(JSON.stringify(withKey))));
    expect((secret as RecordError).code).toBe('secretField');
  });

  it('stops unpacking past the size of a run file (a small link of a huge text)', async () => {
    const bomb = toBase64Url(deflateRawSync(Buffer.alloc(MAX_RECORD_BYTES + 1024, 0x20)));
    expect(bomb.length).toBeLessThan(LINK_MAX_CHARS * 2);
    const error = await refusal(bomb);
    expect(error).toBeInstanceOf(RecordError);
    expect((error as RecordError).code).toBe('tooBig');
  });
});

describe('links', () => {
  it('put the step in the query and the run in the fragment, nothing else', () => {
    const link = fragmentLink('https://site.example/s04/?provider=anthropic&model=x#old', 'abc-_', 7);
    expect(link).toBe('https://site.example/s04/?step=7#run=abc-_');
    expect(packedIn(new URL(link).hash)).toBe('abc-_');
    expect(packedIn('')).toBeUndefined();
  });

  it('link a file by its address', () => {
    const link = recordLink(
      'https://site.example/?lang=ja#run=x',
      'https://gist.example/raw/run.json?a=1&b=2',
      3,
    );
    const url = new URL(link);
    expect(url.searchParams.get('record')).toBe('https://gist.example/raw/run.json?a=1&b=2');
    expect(url.searchParams.get('step')).toBe('3');
    expect([...url.searchParams.keys()]).toEqual(['record', 'step']);
    expect(url.hash).toBe('');
  });

  it('base64url round-trips every byte', () => {
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 7) % 256);
    expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
    expect(fromBase64Url('a+b/')).toBeNull();
  });
});
