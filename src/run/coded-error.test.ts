import { describe, expect, it } from 'vitest';
import { SessionError } from './claude-code';
import { CodedError } from './coded-error';
import { LinkError } from './link';
import { RecordError } from './record-error';
import { StorageProblem } from './storage-problem';

describe('the coded errors', () => {
  it('carry their code, their params and the English sentence, under their own name', () => {
    const link = new LinkError('status', { status: '404 Not Found' });
    expect(link).toBeInstanceOf(CodedError);
    expect(link).toBeInstanceOf(Error);
    expect(link.name).toBe('LinkError');
    expect(link.code).toBe('status');
    expect(link.params).toEqual({ status: '404 Not Found' });
    expect(link.message).toBe('the server answered 404 Not Found');

    const stored = new StorageProblem('blocked', { detail: 'denied' });
    expect(stored.name).toBe('StorageProblem');
    expect(stored.code).toBe('blocked');
    expect(stored.params).toEqual({ detail: 'denied' });
    expect(stored.message).toContain('(denied)');

    const session = new SessionError('empty');
    expect(session.name).toBe('SessionError');
    expect(session.params).toEqual({});
    expect(session.message).toBe('no message in the session');
  });

  it('stay told apart: each kind is its own class', () => {
    const record = new RecordError('notObject');
    expect(record.name).toBe('RecordError');
    expect(record).toBeInstanceOf(CodedError);
    expect(record).not.toBeInstanceOf(LinkError);
    expect(new StorageProblem('full')).not.toBeInstanceOf(RecordError);
  });
});
