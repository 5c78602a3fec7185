/**
 * The array bar's segments: one per message, its kind and its size. Made once per message and
 * kind, and reused on every later step: a scrub through thousands of messages made an object per
 * message on every step.
 */
import type { Message } from '../core/messages';
import { messageChars } from '../run/size';

export type SegmentKind = 'prompt' | 'results' | 'assistant' | 'returned';

export interface ArraySegment {
  kind: SegmentKind;
  chars: number;
}

const made = new WeakMap<Message, Partial<Record<SegmentKind, ArraySegment>>>();

/** How many segments were made: counted so that a test can tell reuse from remaking. */
export const segmentsMade = { count: 0 };

/** A message's kind: the returned answer, a prompt, tool results (returned when from a subagent), or a reply. */
function kindOf(
  message: Message,
  index: number,
  returned: number,
  taskIds: ReadonlySet<string>,
): SegmentKind {
  if (message.role === 'assistant') return index === returned ? 'returned' : 'assistant';
  if (typeof message.content === 'string') return 'prompt';
  return message.content.some((b) => b.type === 'tool_result' && taskIds.has(b.tool_use_id))
    ? 'returned'
    : 'results';
}

/** Each message's segment (`returned`: the index of the answer sent back, or -1; `taskIds`: subagents' tasks). */
export function arraySegments(
  messages: readonly Message[],
  returned: number,
  taskIds: ReadonlySet<string>,
): ArraySegment[] {
  return messages.map((message, index) => {
    const kind = kindOf(message, index, returned, taskIds);
    let kinds = made.get(message);
    if (!kinds) made.set(message, (kinds = {}));
    let segment = kinds[kind];
    if (!segment) {
      segmentsMade.count++;
      segment = kinds[kind] = { kind, chars: messageChars(message) };
    }
    return segment;
  });
}
