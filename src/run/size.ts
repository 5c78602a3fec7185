/**
 * The size of one message as it would be sent, in characters of its JSON text: what every size on
 * screen adds up (the reducer keeps each array's running total, the figures and charts read it).
 */
import type { Message } from '../core/messages';
import { textTokens } from './tokens';

/** A message's size as it would be sent: its JSON text's characters and its estimated tokens. */
interface Size {
  chars: number;
  tokens: number;
}

// Messages are never mutated (a new one replaces an old one), so a message is measured once, its
// JSON text made once for both figures.
const sizes = new WeakMap<Message, Size>();

function sizeOf(message: Message): Size {
  let size = sizes.get(message);
  if (size === undefined) {
    const json = JSON.stringify(message);
    size = { chars: json.length, tokens: textTokens(json) };
    sizes.set(message, size);
  }
  return size;
}

/** The size of one message as it would be sent: its JSON text. */
export function messageChars(message: Message): number {
  return sizeOf(message).chars;
}

/** The estimated tokens of one message as it is sent (./tokens.ts). */
export function messageTokens(message: Message): number {
  return sizeOf(message).tokens;
}

/**
 * Tells the size of a message measured elsewhere (a worker measured it before the message was
 * copied to this thread): a 50 MB session's messages are not measured again on the page.
 */
export function knownSize(message: Message, chars: number, tokens: number): void {
  sizes.set(message, { chars, tokens });
}
