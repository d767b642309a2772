import { describe, expect, it } from 'vitest';
import { checkStored } from './annotation-store';

const T0 = '2025-03-01T10:00:00.000Z';
const good = (id: string, text: string) => ({ id, target: { kind: 'call', call: 1 }, note: text, tags: [], createdAt: T0, updatedAt: T0 });

describe('checkStored', () => {
  it('reads nothing stored as no notes', () => {
    expect(checkStored(undefined)).toEqual({ list: [], dropped: 0 });
  });
  it('keeps the valid notes of a damaged list and counts the rest', () => {
    const r = checkStored([good('a1', 'one'), { id: 'a2', target: { kind: 'nope' } }, good('a1', 'two'), { ...good('a3', 'x'), __proto__: 1, apiKey: 'k' }]);
    expect(r.dropped).toBe(2);
    expect(r.list.map((a) => [a.id, a.note])).toEqual([
      ['a1', 'one'],
      ['a2', 'two'],
    ]);
  });
  it('drops a value that is not a list at all', () => {
    expect(checkStored({ a1: good('a1', 'x') })).toEqual({ list: [], dropped: 1 });
  });
});
