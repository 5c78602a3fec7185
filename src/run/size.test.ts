import { expect, it } from 'vitest';
import type { Message } from '../core/messages';
import { knownChars, messageChars } from './size';

it('a size measured elsewhere is taken as it is told, and a message is measured once', () => {
  const told: Message = { role: 'user', content: 'x'.repeat(100) };
  knownChars(told, 123);
  expect(messageChars(told)).toBe(123);
  const measured: Message = { role: 'user', content: 'hello' };
  expect(messageChars(measured)).toBe(JSON.stringify(measured).length);
});
