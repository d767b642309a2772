import { describe, expect, it } from 'vitest';
import type { Item } from '../model/types';
import { itemCounter } from './token-source';

const item = (id: string, text: string): Item => ({ id, kind: 'message', role: 'user', text, source: { file: 't', line: null } });

describe('itemCounter', () => {
  it('counts an item by its text with a counter', () => {
    expect(itemCounter((t) => t.length)(item('a', 'hello'))).toBe(5);
  });

  it("takes a view's count by item id, not the text", () => {
    expect(itemCounter({ tokens: new Map([['a', 42]]) })(item('a', 'hello'))).toBe(42);
  });

  it('falls back to the counter for ids the view lacks, and to 0 without one', () => {
    expect(itemCounter({ tokens: new Map(), count: (t) => t.length })(item('b', 'abc'))).toBe(3);
    expect(itemCounter({ tokens: new Map() })(item('b', 'abc'))).toBe(0);
  });
});
