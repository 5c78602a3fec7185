/**
 * How many of a message's blocks are drawn, frame by frame. A parent that hands out hundreds of
 * tasks holds one reply of hundreds of `tool_use` blocks and one message of as many results: drawn
 * at once, their thousands of elements are made, styled and laid out in one task that freezes the
 * page. A message draws its first blocks at once and the rest a batch a frame, in order, so every
 * frame does a little and the whole message is there a few frames later. Pure: tested in Node.
 */

/** Blocks a message draws in its first frame: every message of an ordinary run is whole at once. */
export const FIRST_BLOCKS = 16;

/** Blocks added each frame after the first, until the message is whole. */
export const MORE_BLOCKS = 32;

/** How many of `total` blocks a message draws when it is first drawn. */
export function firstDrawn(total: number, first = FIRST_BLOCKS): number {
  return Math.max(0, Math.min(total, first));
}

/**
 * How many of `total` blocks to draw in the next frame, given `drawn` now: a batch more, never
 * more than `total`, and never fewer than now unless the message has fewer blocks.
 */
export function nextDrawn(total: number, drawn: number, more = MORE_BLOCKS): number {
  if (drawn >= total) return Math.max(0, total);
  return Math.min(total, Math.max(0, drawn) + Math.max(1, more));
}
