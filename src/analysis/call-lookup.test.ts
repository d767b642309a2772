import { describe, expect, it } from 'vitest';
import { compactionInEffect, firstCallByCompaction, firstCallByItem, firstCallOfCompaction, firstCallWithItem } from './call-lookup';

const entry = (id: string) => ({ id, region: 'tail' as const, tokens: 1, variant: false, isNew: false });
// Three calls: a compaction `c1` between the first and second, the second's output read by the third.
const calls = [
  { entries: [entry('s'), entry('u1')], outputIds: ['a1'], compactionId: null },
  { entries: [entry('s'), entry('sum'), entry('u2')], outputIds: ['a2'], compactionId: 'c1' },
  { entries: [entry('s'), entry('sum'), entry('u2'), entry('a2'), entry('u3')], outputIds: [], compactionId: null },
];

describe('firstCallWithItem', () => {
  it('finds the first call whose context holds the item', () => {
    expect(firstCallWithItem(calls, 'u2')).toBe(1);
    expect(firstCallWithItem(calls, 'u3')).toBe(2);
  });
  it('counts an output as part of the call that produced it', () => {
    expect(firstCallWithItem(calls, 'a1')).toBe(0);
    expect(firstCallWithItem(calls, 'a2')).toBe(1);
  });
  it('returns null for an item no call shows', () => {
    expect(firstCallWithItem(calls, 'gone')).toBeNull();
  });
});

describe('firstCallByItem', () => {
  it('maps every item to the same call firstCallWithItem finds', () => {
    const map = firstCallByItem(calls);
    expect([...map.entries()]).toEqual([
      ['s', 0],
      ['u1', 0],
      ['a1', 0],
      ['sum', 1],
      ['u2', 1],
      ['a2', 1],
      ['u3', 2],
    ]);
  });
});

describe('firstCallOfCompaction', () => {
  it('finds the call that carries the compaction id', () => {
    expect(firstCallOfCompaction(calls, 'c1')).toBe(1);
  });
  it('returns null for a compaction no call carries', () => {
    expect(firstCallOfCompaction(calls, 'c9')).toBeNull();
  });
});

describe('compactionInEffect', () => {
  it('is null before the first compaction', () => {
    expect(compactionInEffect(calls, 0)).toBeNull();
  });
  it('is the latest compaction at or before the call', () => {
    expect(compactionInEffect(calls, 1)).toBe('c1');
    expect(compactionInEffect(calls, 2)).toBe('c1');
  });
  it('clamps a call index past the end', () => {
    expect(compactionInEffect(calls, 99)).toBe('c1');
  });
});

describe('firstCallByCompaction', () => {
  it('gives each compaction the first call that carries its id, as firstCallOfCompaction does one by one', () => {
    const calls = [null, 'c1', null, 'c1', 'c2', null].map((compactionId) => ({ entries: [], outputIds: [], compactionId }));
    const first = firstCallByCompaction(calls);
    expect([...first]).toEqual([
      ['c1', 1],
      ['c2', 4],
    ]);
    for (const id of ['c1', 'c2', 'c3']) expect(first.get(id) ?? null).toBe(firstCallOfCompaction(calls, id));
  });
});
