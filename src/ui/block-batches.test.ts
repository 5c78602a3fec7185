import { describe, expect, it } from 'vitest';
import { FIRST_BLOCKS, MORE_BLOCKS, firstDrawn, nextDrawn } from './block-batches';

/** Every count a message of `total` blocks goes through, from its first frame to whole. */
function frames(total: number): number[] {
  const seen = [firstDrawn(total)];
  while (seen.at(-1)! < total) seen.push(nextDrawn(total, seen.at(-1)!));
  return seen;
}

describe('block batches', () => {
  it('draws an ordinary message whole in its first frame', () => {
    expect(firstDrawn(0)).toBe(0);
    expect(firstDrawn(1)).toBe(1);
    expect(firstDrawn(FIRST_BLOCKS)).toBe(FIRST_BLOCKS);
    expect(frames(FIRST_BLOCKS)).toEqual([FIRST_BLOCKS]);
  });

  it('draws a message of 340 blocks a batch a frame, in order, until it is whole', () => {
    const seen = frames(340);
    expect(seen[0]).toBe(FIRST_BLOCKS);
    expect(seen.at(-1)).toBe(340);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i] - seen[i - 1]).toBeGreaterThan(0);
      expect(seen[i] - seen[i - 1]).toBeLessThanOrEqual(MORE_BLOCKS);
    }
    expect(seen).toHaveLength(1 + Math.ceil((340 - FIRST_BLOCKS) / MORE_BLOCKS));
  });

  it('never draws more blocks than the message has, and keeps a whole message whole', () => {
    expect(nextDrawn(10, 60)).toBe(10);
    expect(nextDrawn(100, 100)).toBe(100);
    expect(nextDrawn(100, 90, 48)).toBe(100);
    expect(nextDrawn(5, 0, 0)).toBe(1);
    expect(nextDrawn(5, -3, 2)).toBe(2);
  });
});
