/**
 * The array bar's segments: one per message, its kind and its size. Made once per message and
 * kind, and reused on every later step: a scrub through thousands of messages made an object per
 * message on every step. A column's bar (`arrayBar`) goes further: a step's array is most often a
 * prefix of one already drawn, and then nothing is looked at again but the messages' identity.
 */
import type { Message } from '../core/messages';
import { messageChars } from '../run/size';
import { addKindSum, type KindSums } from './array-bar';

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

/** How many messages had their kind found: a test tells a step that only reuses from one that looks again. */
export const kindsFound = { count: 0 };

/** A message's segment, made once per message and kind. */
function segmentOf(
  message: Message,
  index: number,
  returned: number,
  taskIds: ReadonlySet<string>,
): ArraySegment {
  kindsFound.count++;
  const kind = kindOf(message, index, returned, taskIds);
  let kinds = made.get(message);
  if (!kinds) made.set(message, (kinds = {}));
  let segment = kinds[kind];
  if (!segment) {
    segmentsMade.count++;
    segment = kinds[kind] = { kind, chars: messageChars(message) };
  }
  return segment;
}

/** Each message's segment (`returned`: the index of the answer sent back, or -1; `taskIds`: subagents' tasks). */
export function arraySegments(
  messages: readonly Message[],
  returned: number,
  taskIds: ReadonlySet<string>,
): ArraySegment[] {
  return messages.map((message, index) => segmentOf(message, index, returned, taskIds));
}

/**
 * A column's bar: each message's segment, where each ends in characters from the array's start,
 * and each kind's running sums (see barRects; they may run past the segments).
 */
export interface ArrayBar {
  segments: ArraySegment[];
  ends: number[];
  sums: KindSums<SegmentKind>;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const value of a) if (!b.has(value)) return false;
  return true;
}

/**
 * One column's bar, step after step. It keeps the longest array it was given; a later array that
 * starts with the same messages (a step back, or on towards that end) reuses its segments and
 * sums for them, and finds the rest. Scrubbing through 40,000 messages found every one's kind on
 * every step, a fifth of the step.
 */
export function arrayBar(): (
  messages: readonly Message[],
  returned: number,
  taskIds: ReadonlySet<string>,
) => ArrayBar {
  let kept:
    | { messages: readonly Message[]; returned: number; taskIds: ReadonlySet<string>; bar: ArrayBar }
    | undefined;
  return (messages, returned, taskIds) => {
    let shared = 0;
    if (kept && kept.returned === returned && sameSet(kept.taskIds, taskIds)) {
      const most = Math.min(kept.messages.length, messages.length);
      while (shared < most && kept.messages[shared] === messages[shared]) shared++;
    }
    const segments = kept && shared > 0 ? kept.bar.segments.slice(0, shared) : [];
    const ends = kept && shared > 0 ? kept.bar.ends.slice(0, shared) : [];
    // A prefix reads the kept sums as they are; only a longer or other array makes new ones.
    let sums = kept && shared > 0 ? kept.bar.sums : new Map<SegmentKind, number[]>();
    if (shared < messages.length) {
      const own = new Map([...sums].map(([kind, sum]) => [kind, sum.slice(0, shared)]));
      let sum = ends.length > 0 ? ends[ends.length - 1] : 0;
      for (let i = shared; i < messages.length; i++) {
        const segment = segmentOf(messages[i], i, returned, taskIds);
        segments.push(segment);
        ends.push((sum += segment.chars));
        addKindSum(own, i, segment.kind, segment.chars);
      }
      sums = own;
    }
    const bar = { segments, ends, sums };
    // A prefix of what is kept leaves it kept; a longer array, or one that went another way, is kept instead.
    if (!kept || shared < messages.length) kept = { messages, returned, taskIds, bar };
    return bar;
  };
}
