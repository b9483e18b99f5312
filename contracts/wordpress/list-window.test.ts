import { describe, expect, it } from 'vitest';
import { windowOf } from './list-window.ts';

describe('windowOf, the one page slicer', () => {
  const list = [1, 2, 3, 4, 5, 6, 7];

  it('limit items from offset, cut at the end, clamped below 0', () => {
    expect(windowOf(list, 3, 2)).toEqual([4, 5]);
    expect(windowOf(list, 6, 5)).toEqual([7]);
    expect(windowOf(list, 7, 5)).toEqual([]);
    expect(windowOf(list, -2, 2)).toEqual([1, 2]);
    expect(windowOf(list, 0, 0)).toEqual([]);
    expect(windowOf(list, 1.9, 2.9)).toEqual([2, 3]);
  });
});
