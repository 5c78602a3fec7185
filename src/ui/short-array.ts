/**
 * Up to this many messages an array is drawn whole, every message an element of its own (in its
 * column and in the bar above it); above it only what is in view, and the bar on one canvas. A
 * sample run stays under it; scrubbing a long record back and forth across it builds the short
 * form again each time, so it is kept low.
 */
export const SHORT_ARRAY = 24;
