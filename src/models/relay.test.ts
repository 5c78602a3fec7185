import { describe, expect, it } from 'vitest';
import { relayTargetProblem } from './relay';

describe('relayTargetProblem', () => {
  it('takes https anywhere, and plain http only on loopback', () => {
    expect(relayTargetProblem('https://dashscope.aliyuncs.com/apps/anthropic')).toBeNull();
    expect(relayTargetProblem('http://127.0.0.1:41800/no-cors')).toBeNull();
    expect(relayTargetProblem('http://localhost:11434')).toBeNull();
    expect(relayTargetProblem('http://[::1]:8080')).toBeNull();
    expect(relayTargetProblem('http://10.0.0.1')).toMatch(/plain http only to this machine/);
    expect(relayTargetProblem('http://localhost.evil.example')).toMatch(/plain http only/);
    expect(relayTargetProblem('http://127.0.0.2')).toMatch(/plain http only/);
  });

  it('refuses other schemes, malformed URLs, credentials, queries', () => {
    expect(relayTargetProblem('file:///etc/passwd')).toMatch(/not file: URLs/);
    expect(relayTargetProblem('gopher://127.0.0.1')).toMatch(/not gopher: URLs/);
    expect(relayTargetProblem('api.anthropic.com')).toMatch(/not a valid URL/);
    expect(relayTargetProblem('https://a:b@example.com')).toMatch(/user name or password/);
    expect(relayTargetProblem('https://example.com/x?y=1')).toMatch(/without a query/);
  });
});
