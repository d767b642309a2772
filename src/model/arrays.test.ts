import { describe, expect, it } from 'vitest';
import { maxOf, pushAll } from './arrays';

describe('pushAll and maxOf', () => {
  it('handle a million elements, where spreading them overflows the stack', () => {
    const big = Array.from({ length: 1_000_000 }, (_, i) => i);
    expect(() => Math.max(...big)).toThrow(RangeError);
    expect(maxOf(big)).toBe(999_999);
    const target = [-1];
    pushAll(target, big);
    expect(target).toHaveLength(1_000_001);
    expect(maxOf([], 0)).toBe(0);
  });
});
