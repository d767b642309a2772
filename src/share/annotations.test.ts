import { describe, expect, it } from 'vitest';
import {
  addAnnotation,
  annotationsOnCall,
  annotationsOnItem,
  deleteAnnotation,
  describeTarget,
  editAnnotation,
  nextAnnotationId,
  normalizeTags,
  parseAnnotations,
  sortAnnotations,
  tagsInUse,
} from './annotations';
import { note, onCall, onCalls, onItem, onItems, T0 } from './test-builders';

const T1 = '2025-03-01T11:00:00.000Z';

describe('addAnnotation', () => {
  it('appends a note with a fresh id, both timestamps, tidy tags and a trimmed author', () => {
    const list = addAnnotation([], { target: onItem('m3'), note: 'port dropped', tags: [' lost  fact ', 'Lost fact', ''], author: ' ana ' }, { now: T0 });
    expect(list).toEqual([{ id: 'a1', target: onItem('m3'), note: 'port dropped', tags: ['lost fact'], author: 'ana', createdAt: T0, updatedAt: T0 }]);
  });

  it('flips a range selected bottom-up and leaves out an empty author', () => {
    const [a] = addAnnotation([], { target: onCalls(7, 4), note: '', author: '  ' }, { now: T0, id: 'x' });
    expect(a).toEqual({ id: 'x', target: onCalls(4, 7), note: '', tags: [], createdAt: T0, updatedAt: T0 });
  });

  it('never reuses an id after a delete', () => {
    let list = addAnnotation([], { target: onCall(1), note: 'a' }, { now: T0 });
    list = addAnnotation(list, { target: onCall(2), note: 'b' }, { now: T0 });
    list = deleteAnnotation(list, 'a1');
    expect(nextAnnotationId(list)).toBe('a3');
    expect(nextAnnotationId([note('a9', onCall(1), ''), note('custom', onCall(1), '')])).toBe('a10');
  });
});

describe('editAnnotation', () => {
  it('changes only the patched fields and stamps updatedAt', () => {
    const list = [note('a1', onItem('m3'), 'old', { tags: ['x'], author: 'ana' }), note('a2', onCall(2), 'other')];
    const next = editAnnotation(list, 'a1', { note: 'new', tags: ['good summary'] }, T1);
    expect(next[0]).toEqual({ id: 'a1', target: onItem('m3'), note: 'new', tags: ['good summary'], author: 'ana', createdAt: T0, updatedAt: T1 });
    expect(next[1]).toBe(list[1]);
  });

  it('removes the author when given null and returns an equal list for an unknown id', () => {
    const list = [note('a1', onItem('m3'), 'n', { author: 'ana' })];
    expect(editAnnotation(list, 'a1', { author: null }, T1)[0]).not.toHaveProperty('author');
    expect(editAnnotation(list, 'zz', { note: 'x' }, T1)).toEqual(list);
  });
});

describe('deleteAnnotation', () => {
  it('drops the annotation with that id only', () => {
    const list = [note('a1', onCall(1), ''), note('a2', onCall(2), '')];
    expect(deleteAnnotation(list, 'a1').map((a) => a.id)).toEqual(['a2']);
  });
});

describe('sortAnnotations', () => {
  it('orders by the call a target starts at, items placed by the given position, unplaced last, then by time and id', () => {
    const list = [
      note('a1', onItem('m9'), ''),
      note('a2', onCalls(5, 8), ''),
      note('a3', onCall(2), '', { createdAt: T1 }),
      note('a4', onItem('zz'), ''),
      note('a5', onCall(2), ''),
      note('a6', onItems('m1', 'm4'), ''),
    ];
    const position = (id: string) => ({ m9: 6, m1: 1 })[id as 'm9' | 'm1'];
    expect(sortAnnotations(list, position).map((a) => a.id)).toEqual(['a6', 'a5', 'a3', 'a2', 'a1', 'a4']);
    expect(sortAnnotations(list).map((a) => a.id)).toEqual(['a5', 'a3', 'a2', 'a1', 'a4', 'a6']);
  });
});

describe('annotationsOnCall / annotationsOnItem', () => {
  it('finds call notes and ranges covering a call, and item notes and item-range ends', () => {
    const list = [note('a1', onCall(3), ''), note('a2', onCalls(2, 4), ''), note('a3', onCalls(5, 6), ''), note('a4', onItem('m3'), ''), note('a5', onItems('m1', 'm3'), '')];
    expect(annotationsOnCall(list, 3).map((a) => a.id)).toEqual(['a1', 'a2']);
    expect(annotationsOnItem(list, 'm3').map((a) => a.id)).toEqual(['a4', 'a5']);
  });
});

describe('tagsInUse', () => {
  it('lists tags most used first, counting spellings that differ only in case as one', () => {
    const list = [note('a1', onCall(1), '', { tags: ['good summary', 'lost fact'] }), note('a2', onCall(2), '', { tags: ['Lost fact'] })];
    expect(tagsInUse(list)).toEqual(['lost fact', 'good summary']);
  });
});

describe('normalizeTags', () => {
  it('trims, collapses spaces, drops empties and case-insensitive duplicates', () => {
    expect(normalizeTags(['  a  b ', 'A B', '', '  ', 'c\u0007d'])).toEqual(['a b', 'c d']);
  });

  it('clips to the limits a link accepts: 32 tags of 80 characters', () => {
    expect(normalizeTags(['x'.repeat(100)])).toEqual(['x'.repeat(80)]);
    expect(normalizeTags(Array.from({ length: 40 }, (_, i) => `t${i}`))).toHaveLength(32);
  });
});

describe('describeTarget', () => {
  it('names each kind of target in one line', () => {
    expect(describeTarget(onItem('m3'))).toBe('Item m3');
    expect(describeTarget(onCall(4))).toBe('Call 4');
    expect(describeTarget(onCalls(4, 7))).toBe('Calls 4–7');
    expect(describeTarget(onCalls(4, 4))).toBe('Call 4');
    expect(describeTarget(onItems('m3', 'm9'))).toBe('Items m3–m9');
    expect(describeTarget(onItem('m3'), (id) => `${id} (user:\nhello)`)).toBe('Item m3 (user: hello)');
  });
});

describe('parseAnnotations', () => {
  it('accepts every target kind and an optional author', () => {
    const list = [note('a1', onItem('m3'), 'x', { author: 'ana', tags: ['t'] }), note('a2', onCall(1), ''), note('a3', onCalls(1, 2), ''), note('a4', onItems('m1', 'm2'), '')];
    expect(parseAnnotations(JSON.parse(JSON.stringify(list)))).toEqual({ ok: true, value: list });
  });

  it('rejects unknown target kinds, extra fields, wrong types, backwards ranges and duplicate ids with the path', () => {
    const base = () => JSON.parse(JSON.stringify([note('a1', onCalls(1, 2), 'x')]));
    const cases: [(a: Record<string, any>) => void, string][] = [
      [(a) => (a.target = { kind: 'turn', turn: 1 }), 'annotations[0].target.kind: expected one of "item", "call", "range", "item-range", got "turn"'],
      [(a) => (a.target = { kind: 'call', call: 1, extra: 1 }), 'annotations[0].target: unknown field "extra"'],
      [(a) => (a.target = { kind: 'range', fromCall: 3, toCall: 2 }), 'annotations[0].target: range starts after it ends (3 > 2)'],
      [(a) => (a.target = { kind: 'call', call: 0 }), 'annotations[0].target.call: 0 is outside 1..10000000'],
      [(a) => (a.target = { kind: 'call', call: '2' }), 'annotations[0].target.call: expected an integer, got a string'],
      [(a) => (a.note = 5), 'annotations[0].note: expected a string, got number'],
      [(a) => (a.tags = 'x'), 'annotations[0].tags: expected an array, got a string'],
      [(a) => (a.tags = ['ok', '']), 'annotations[0].tags[1]: must not be empty'],
      [(a) => (a.createdAt = 'yesterday'), 'annotations[0].createdAt: is not an ISO 8601 date-time such as 2025-03-01T10:20:30Z'],
      [(a) => (a.id = 'a\u0000'), 'annotations[0].id: must not contain control characters'],
      [(a) => (a.apiKey = 'sk-x'), 'annotations[0]: unknown field "apiKey"'],
      [(a) => delete a.updatedAt, 'annotations[0].updatedAt: expected a string, got undefined'],
    ];
    for (const [mutate, error] of cases) {
      const list = base();
      mutate(list[0]);
      expect(parseAnnotations(list)).toEqual({ ok: false, error });
    }
    expect(parseAnnotations([...base(), ...base()])).toEqual({ ok: false, error: 'annotations[1].id: duplicate annotation id "a1"' });
  });

  it('rejects __proto__ and constructor keys as forbidden', () => {
    const list = JSON.parse('[{"__proto__": {"polluted": true}, "id": "a1"}]');
    expect(parseAnnotations(list)).toEqual({ ok: false, error: 'annotations[0]: forbidden key "__proto__"' });
    const nested = JSON.parse(JSON.stringify([note('a1', onCall(1), '')]));
    nested[0].target = JSON.parse('{"kind":"call","call":1,"constructor":{}}');
    expect(parseAnnotations(nested)).toEqual({ ok: false, error: 'annotations[0].target: forbidden key "constructor"' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects more annotations, tags or note characters than the limits', () => {
    expect(parseAnnotations(new Array(5001).fill(0))).toEqual({ ok: false, error: 'annotations: 5001 entries is over the limit of 5000' });
    expect(parseAnnotations([note('a1', onCall(1), 'x'.repeat(20_001))])).toEqual({ ok: false, error: 'annotations[0].note: string of 20001 characters is over the 20000-character limit' });
    expect(parseAnnotations([note('a1', onCall(1), '', { tags: new Array(33).fill('t') })])).toEqual({ ok: false, error: 'annotations[0].tags: 33 entries is over the limit of 32' });
  });
});
