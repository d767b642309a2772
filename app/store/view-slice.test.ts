import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { createViewSlice, type ViewSlice } from './view-slice';

describe('toggleExpanded', () => {
  it('expands and collapses items whose ids are Object.prototype names, and nothing else', () => {
    const store = create<ViewSlice>()((...a) => createViewSlice(...a));
    for (const id of ['constructor', 'toString', '__proto__']) expect(store.getState().expanded.has(id)).toBe(false);
    store.getState().toggleExpanded('__proto__');
    store.getState().toggleExpanded('constructor');
    expect([...store.getState().expanded]).toEqual(['__proto__', 'constructor']);
    store.getState().toggleExpanded('__proto__');
    expect([...store.getState().expanded]).toEqual(['constructor']);
    expect(store.getState().expanded.has('toString')).toBe(false);
  });
});
