import { describe, expect, it } from 'vitest';
import { relayTargetProblem } from './relay';

describe('relayTargetProblem', () => {
  it('takes http and https base URLs alike: which addresses are reached is the server’s check', () => {
    expect(relayTargetProblem('https://dashscope.aliyuncs.com/apps/anthropic')).toBeNull();
    expect(relayTargetProblem('http://127.0.0.1:41800/no-cors')).toBeNull();
    expect(relayTargetProblem('http://localhost:11434')).toBeNull();
    expect(relayTargetProblem('http://[::1]:8080')).toBeNull();
    expect(relayTargetProblem('http://api.example.com/anthropic')).toBeNull();
  });

  it('refuses other schemes, malformed URLs, credentials, queries', () => {
    expect(relayTargetProblem('file:///etc/passwd')).toMatch(/not file: URLs/);
    expect(relayTargetProblem('gopher://127.0.0.1')).toMatch(/not gopher: URLs/);
    expect(relayTargetProblem('api.anthropic.com')).toMatch(/not a valid URL/);
    expect(relayTargetProblem('https://a:b@example.com')).toMatch(/user name or password/);
    expect(relayTargetProblem('https://example.com/x?y=1')).toMatch(/without a query/);
  });

  it('refuses a base URL ending in an empty query or fragment (the URL parser drops them)', () => {
    for (const target of ['https://example.com/x?', 'https://example.com/x#', 'https://example.com/?#']) {
      expect(relayTargetProblem(target), target).toBe(
        'The relay target must be a base URL, without a query or fragment.',
      );
    }
  });
});
