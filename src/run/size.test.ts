import { expect, it } from 'vitest';
import type { Message } from '../core/messages';
import { knownSize, messageChars, messageTokens } from './size';
import { textTokens } from './tokens';

it('a size measured elsewhere is taken as it is told, and a message is measured once', () => {
  const told: Message = { role: 'user', content: 'x'.repeat(100) };
  knownSize(told, 123, 45);
  expect([messageChars(told), messageTokens(told)]).toEqual([123, 45]);
  const measured: Message = { role: 'user', content: 'hello 世界' };
  const json = JSON.stringify(measured);
  expect([messageChars(measured), messageTokens(measured)]).toEqual([json.length, textTokens(json)]);
});
