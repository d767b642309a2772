import { describe, expect, it } from 'vitest';
import type { Item } from '../../../src/model/types';
import { goToTarget, itemLabel, itemPositions, parseTagInput, tagChoices, touchesCall } from './annotation-helpers';

const calls = [
  { entries: [{ id: 'm1' }], outputIds: ['m2'] },
  { entries: [{ id: 'm1' }, { id: 'm2' }, { id: 'm3' }], outputIds: ['m4'] },
];

describe('itemPositions', () => {
  it('places an item at the first call whose context holds it, else at the call that produced it', () => {
    expect([...itemPositions(calls)]).toEqual([
      ['m1', 1],
      ['m2', 2],
      ['m3', 2],
      ['m4', 2],
    ]);
  });
});

describe('goToTarget', () => {
  it('goes to the item, or to the (first) call of a target, 0-based', () => {
    expect(goToTarget({ kind: 'item', itemId: 'm3' })).toEqual({ item: 'm3' });
    expect(goToTarget({ kind: 'call', call: 5 })).toEqual({ call: 4 });
    expect(goToTarget({ kind: 'range', fromCall: 3, toCall: 9 })).toEqual({ call: 2 });
    expect(goToTarget({ kind: 'item-range', fromItemId: 'm1', toItemId: 'm9' })).toEqual({ item: 'm1' });
  });
});

describe('touchesCall', () => {
  const pos = itemPositions(calls);
  it('marks notes on the call looked at, ranges around it, and items in its context', () => {
    const inCtx = (id: string) => id === 'm3';
    expect(touchesCall({ kind: 'call', call: 2 }, 1, pos, inCtx)).toBe(true);
    expect(touchesCall({ kind: 'range', fromCall: 1, toCall: 3 }, 1, pos, inCtx)).toBe(true);
    expect(touchesCall({ kind: 'range', fromCall: 3, toCall: 4 }, 1, pos, inCtx)).toBe(false);
    expect(touchesCall({ kind: 'item', itemId: 'm3' }, 1, pos, inCtx)).toBe(true);
    expect(touchesCall({ kind: 'item', itemId: 'm1' }, 1, pos, inCtx)).toBe(false);
  });
});

describe('labels and tags', () => {
  it('names an item by id and what it is', () => {
    const item = { id: 't1', kind: 'tool_call', role: 'assistant', text: '', name: 'Read', source: { file: 'f', line: 1 } } as Item;
    expect(itemLabel(item, 't1')).toBe('t1 · tool call Read');
    expect(itemLabel({ ...item, kind: 'message', role: 'user', name: undefined } as Item, 'm1')).toBe('m1 · user message');
    expect(itemLabel(undefined, 'gone')).toBe('gone');
  });
  it('offers the suggested tags first, then others in use, and splits typed tags on commas', () => {
    expect(tagChoices(['lost fact', 'question'], ['Question', 'flaky'])).toEqual(['lost fact', 'question', 'flaky']);
    expect(parseTagInput(' lost fact, ,question ')).toEqual(['lost fact', 'question']);
  });
});
