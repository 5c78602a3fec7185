/**
 * The size of one message as it would be sent, in characters of its JSON text: what every size on
 * screen adds up (the reducer keeps each array's running total, the figures and charts read it).
 */
import type { Message } from '../core/messages';

// Messages are never mutated (a new one replaces an old one), so a size is measured once.
const sizes = new WeakMap<Message, number>();

/** The size of one message as it would be sent: its JSON text. */
export function messageChars(message: Message): number {
  let size = sizes.get(message);
  if (size === undefined) {
    size = JSON.stringify(message).length;
    sizes.set(message, size);
  }
  return size;
}

/**
 * Tells the size of a message measured elsewhere (a worker measured it before the message was
 * copied to this thread): measuring a 50 MB session's messages again cost the page a second.
 */
export function knownChars(message: Message, chars: number): void {
  sizes.set(message, chars);
}
